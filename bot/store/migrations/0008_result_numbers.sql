-- 0008: results numbered in the order they are written, and a count of results changed, so a
-- kept ladder reads only the results written since it last looked (bot/kept_results.py).
--
-- SQLite's twin of 0008_result_numbers.postgresql.sql. ``results.seq`` numbers each result as
-- it is inserted, one more than any number handed out before (``result_numbers.last_seq``,
-- never lowered, so a number is never handed out twice even after a delete). Every update of
-- a result's contents (a member forgotten) and every delete adds one to
-- ``result_numbers.changes``: a reader that saw the same ``changes`` before and after knows the
-- results it read then are all still there, unchanged. Triggers do both, so every way a result
-- is written (the bot, junction migrate-db's bulk copy, a hand-made statement) keeps them true.
CREATE TABLE result_numbers (
    last_seq  BIGINT NOT NULL,
    changes   BIGINT NOT NULL
);

-- The rowid numbers the existing results in the order they were written, near enough.
ALTER TABLE results ADD COLUMN seq BIGINT;
UPDATE results SET seq = rowid;
INSERT INTO result_numbers (last_seq, changes) SELECT COALESCE(MAX(seq), 0), 0 FROM results;

CREATE INDEX results_by_game_seq ON results (game_key, seq);
CREATE INDEX results_by_guild_game_seq ON results (guild_id, game_key, seq);

CREATE TRIGGER results_numbered AFTER INSERT ON results
BEGIN
    UPDATE result_numbers SET last_seq = last_seq + 1;
    UPDATE results SET seq = (SELECT last_seq FROM result_numbers) WHERE game_id = NEW.game_id;
END;

-- Not ``seq`` itself: numbering a new result (the trigger above) changes nothing read.
CREATE TRIGGER results_changed AFTER UPDATE OF
    game_id, game_key, guild_id, finished_at, seats, names, ranks, scores, options, counted,
    details
ON results
BEGIN
    UPDATE result_numbers SET changes = changes + 1;
END;

CREATE TRIGGER results_deleted AFTER DELETE ON results
BEGIN
    UPDATE result_numbers SET changes = changes + 1;
END;
