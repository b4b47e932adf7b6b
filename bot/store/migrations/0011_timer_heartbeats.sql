-- 0011: when each shard last swept its timers, so a restart gives back the time a downtime took.
--
-- One file for both SQLite and PostgreSQL (no dialect override). A process that sweeps the
-- timers writes, for each shard it runs (shard_count 1, shard_id 0 for a process without
-- shards), the time of its last sweep: one row a shard, not a write a game. The first sweep
-- after a start moves every deadline still running at that time on by the time the bot was
-- down, in the same transaction as it writes the row anew (Store.resume_timers), so a member
-- gets back the time they had left when the bot stopped answering.
CREATE TABLE timer_heartbeats (
    shard_count  INTEGER NOT NULL CHECK (shard_count >= 1),
    shard_id     INTEGER NOT NULL CHECK (shard_id >= 0 AND shard_id < shard_count),
    alive_at     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
);
