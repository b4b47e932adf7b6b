-- 0012: who is being seated right now, so the games-at-once limit holds across processes,
-- and the games in play by server, so counting them is quick.
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

-- The count itself reads the seats of the member's games in play on the server: through the
-- games in play alone it still read each row's state to reach its seats (3 KB a game; 15 ms
-- with 2 000 games in play on SQLite). The games in play, by server, with their seats, are
-- indexed: the count reads the index only, as small as the games in play (status too, or
-- SQLite reads each row again to check it).
CREATE INDEX games_in_play_by_guild ON games (guild_id, id, channel_id, seats, status)
    WHERE status = 'active';
