-- 0004: who has been dealt a server's daily deal.
--
-- One file for both SQLite and PostgreSQL (no dialect override). A member is dealt a game's
-- daily deal once a day on a server, whatever becomes of the game (finished, aborted, still
-- running): the row is claimed before the deal, and the primary key makes two claims at the
-- same moment, from any number of bot processes, end with exactly one.
CREATE TABLE daily_claims (
    guild_id    BIGINT NOT NULL,
    game_key    TEXT NOT NULL,
    day         TEXT NOT NULL,
    user_id     BIGINT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game_key, day, user_id)
);
