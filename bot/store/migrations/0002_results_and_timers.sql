-- 0002: replays, turn timers, results and per-guild settings.
--
-- One file for both SQLite and PostgreSQL (no dialect override): every statement below is
-- spelled the same in both. Conventions as in 0001: Discord ids BIGINT, Unix seconds in
-- DOUBLE PRECISION, JSON as TEXT.

-- The state a game was dealt with (the same JSON as the first snapshot), so a finished game can
-- be replayed from its deal and its move log. Games stored before this migration keep NULL and
-- cannot be replayed.
ALTER TABLE games ADD COLUMN initial_state TEXT;

-- The turn timer, in the database so a restart does not lose it: when to remind the player to
-- act, and when the turn runs out. NULL when no timer runs.
ALTER TABLE games ADD COLUMN turn_deadline DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN remind_at DOUBLE PRECISION;

-- The sweep asks every few seconds which active games have a timer due. Only active games with a
-- timer are indexed, so the indexes stay as small as the number of games being played.
CREATE INDEX games_turn_deadline ON games (turn_deadline)
    WHERE status = 'active' AND turn_deadline IS NOT NULL;
CREATE INDEX games_remind_at ON games (remind_at)
    WHERE status = 'active' AND remind_at IS NOT NULL;

-- One row per finished game: what leaderboards, stats and history are built from. Per-seat
-- values are JSON lists in seat order: seats holds each member's user id (null for the
-- computer), names the seat names, ranks the finishing places, scores the points (maybe []).
-- game_id is BIGINT PRIMARY KEY in both engines (in SQLite that is an ordinary key, not a rowid
-- alias, which is right: ids come from games, never from this table).
CREATE TABLE results (
    game_id      BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    game_key     TEXT NOT NULL,
    guild_id     BIGINT,
    finished_at  DOUBLE PRECISION NOT NULL,
    seats        TEXT NOT NULL,
    names        TEXT NOT NULL,
    ranks        TEXT NOT NULL,
    scores       TEXT NOT NULL,
    options      TEXT NOT NULL,
    counted      BOOLEAN NOT NULL
);

-- A server's board for one game over a period, and the all-servers board.
CREATE INDEX results_by_guild_game ON results (guild_id, game_key, finished_at);
CREATE INDEX results_by_game ON results (game_key, finished_at);

-- A guild's turn timer: seconds per turn (NULL: no timer) and what a timeout does.
CREATE TABLE guild_settings (
    guild_id      BIGINT PRIMARY KEY,
    turn_seconds  INTEGER CHECK (turn_seconds IS NULL OR turn_seconds >= 1),
    on_timeout    TEXT NOT NULL DEFAULT 'computer'
                  CHECK (on_timeout IN ('computer', 'forfeit'))
);
