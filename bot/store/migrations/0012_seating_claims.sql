-- 0012: who is being seated right now, so the games-at-once limit holds across processes.
--
-- One file for both SQLite and PostgreSQL (no dialect override). A request that may seat a
-- member in a game on a server (/play, /challenge, /host, Accept, Join, Rematch) counts their
-- games and then stores its own: two such requests served by two processes (a member on two
-- servers of different shards, or one request delivered twice) both passed the count before
-- either stored its game. The request claims its (member, server) row first, and a second
-- waits until the first has stored its game and let go (Store.claim_seating). A claim is kept
-- only for a short lease, so a process that dies holding one holds nobody back for long.
-- The rows live for the length of a request: the table stays as small as the requests in
-- flight, and is not copied between stores.
CREATE TABLE seating_claims (
    user_id   BIGINT NOT NULL,
    guild_id  BIGINT NOT NULL,
    holder    TEXT NOT NULL,
    until     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, guild_id)
);
