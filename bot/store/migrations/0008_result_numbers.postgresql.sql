-- 0008 for PostgreSQL: results numbered in the order they are written, and a count of results
-- changed (see 0008_result_numbers.sql). The differences:
--   * ``results.seq`` comes from a sequence, as the column's default (junction migrate-db's
--     COPY fills it too). Sequence numbers are handed out before commit, so two transactions
--     could commit their results out of order and a reader miss the lower one: the store takes
--     a transaction-level advisory lock before writing a result (``SqlStore._HOLD_RESULTS``),
--     so results commit in the order they are numbered.
--   * ``result_numbers`` has no ``last_seq``: the sequence is that.
--   * one statement-level trigger counts updates, deletes and truncations.
CREATE SEQUENCE results_seq;
ALTER TABLE results ADD COLUMN seq BIGINT;
UPDATE results SET seq = nextval('results_seq');
ALTER TABLE results ALTER COLUMN seq SET DEFAULT nextval('results_seq');
ALTER TABLE results ALTER COLUMN seq SET NOT NULL;
ALTER SEQUENCE results_seq OWNED BY results.seq;

CREATE TABLE result_numbers (changes BIGINT NOT NULL);
INSERT INTO result_numbers (changes) VALUES (0);

CREATE INDEX results_by_game_seq ON results (game_key, seq);
CREATE INDEX results_by_guild_game_seq ON results (guild_id, game_key, seq);

CREATE FUNCTION results_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE result_numbers SET changes = changes + 1;
    RETURN NULL;
END
$$;

-- Not ``seq`` itself: nothing updates it, and it changes nothing read.
CREATE TRIGGER results_changed AFTER UPDATE OF
    game_id, game_key, guild_id, finished_at, seats, names, ranks, scores, options, counted,
    details
    OR DELETE OR TRUNCATE
ON results FOR EACH STATEMENT EXECUTE FUNCTION results_changed();
