-- 0013: the ids a SQLite database has handed out, where no row holds them any more.
--
-- One file for both SQLite and PostgreSQL (no dialect override); only SQLite reads it, since
-- PostgreSQL's identity sequences remember on their own. SQLite numbers a new row one above
-- the highest row, so ids whose rows are gone were handed out again: after
-- `junction migrate-db --force` replaced a database's games with a source's lower ones, or
-- copied a PostgreSQL source whose newest lobby rows were deleted. A button on an old message
-- names its game or lobby by id, and then reached another one. A new game or lobby is numbered
-- past the floor under its table's name too (bot/store/sqlite.py, bot/store/migrate.py).
CREATE TABLE id_floors (
    name   TEXT PRIMARY KEY,
    floor  BIGINT NOT NULL
);
