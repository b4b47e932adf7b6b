-- 0003: what games as plug-ins need: per-seat result figures, reaction windows, lobbies kept in
-- the database, abort agreements, and the bot's own secrets.
--
-- The same conventions as 0001/0002. PostgreSQL has its own copy of this file
-- (0003_plugin_games.postgresql.sql) only because lobbies.id needs an identity column there.

-- Per-seat figures a game reports with its result (cards cleared, best hand, kills…): a JSON
-- list of objects in seat order. Older results have none.
ALTER TABLE results ADD COLUMN details TEXT NOT NULL DEFAULT '[]';

-- How long a reaction window stays open in this guild (NULL: the default, 45 seconds).
ALTER TABLE guild_settings ADD COLUMN reaction_seconds INTEGER
    CHECK (reaction_seconds IS NULL OR reaction_seconds BETWEEN 5 AND 3600);

-- A table being gathered (/challenge): the host, the invited members and their answers, the
-- options. Buttons carry only the lobby id; version grows with every change so two presses at
-- once cannot both start a game. data is a JSON object (invited, options, computers, …).
CREATE TABLE lobbies (
    id          INTEGER PRIMARY KEY,
    channel_id  BIGINT NOT NULL,
    guild_id    BIGINT,
    host_id     BIGINT NOT NULL,
    game_key    TEXT NOT NULL,
    data        TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'started', 'cancelled', 'expired')),
    version     INTEGER NOT NULL DEFAULT 0,
    expires_at  DOUBLE PRECISION NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    game_id     BIGINT,
    message_id  BIGINT
);

-- Members who asked or agreed to abort a game with no result.
CREATE TABLE abort_votes (
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- Values the bot generates once and keeps (the daily deal's secret seed).
CREATE TABLE secrets (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
