-- 0005: one open invitation per rematch, kept by the database.
--
-- One file for both SQLite and PostgreSQL (no dialect override). A lobby opened by a finished
-- game's Rematch button names that game in rematch_of (NULL for a /challenge, and for every
-- lobby stored before this migration). The partial unique index lets at most one such lobby
-- be open at a time, whatever the number of bot processes or restarts: a second press finds
-- the first invitation instead of posting another. Closed lobbies (started, cancelled,
-- expired) leave the index, so a rematch can be asked for again.
ALTER TABLE lobbies ADD COLUMN rematch_of BIGINT;

CREATE UNIQUE INDEX lobbies_open_rematch ON lobbies (rematch_of) WHERE status = 'open';
