-- 0017 for PostgreSQL: a member's results found through an index (see 0017_result_members.sql).
-- The same table, index and backfill; the differences:
--   * the seats are read by ``result_members_of``: as on SQLite, seats that are not a JSON
--     list name nobody and a seat that is not a whole number (null, the computer) nobody,
--     where a cast would have failed the write;
--   * one row-level trigger function keeps the table on insert, update and delete, and a
--     statement-level one empties it with a TRUNCATE of the results, which fires no row's.
CREATE TABLE result_members (
    game_id      BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    guild_id     BIGINT,
    game_key     TEXT NOT NULL,
    finished_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX result_members_newest ON result_members (user_id, guild_id, finished_at, game_id,
    game_key);

CREATE FUNCTION result_members_of(seats TEXT) RETURNS SETOF BIGINT LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    members BIGINT[];
BEGIN
    BEGIN
        -- Whole numbers only, as SQLite's json_each types them 'integer'.
        SELECT array_agg(DISTINCT seat::TEXT::BIGINT) INTO members
        FROM jsonb_array_elements(seats::JSONB) AS seat
        WHERE jsonb_typeof(seat) = 'number' AND seat::TEXT ~ '^-?[0-9]+$';
    EXCEPTION WHEN others THEN
        members := NULL;  -- not a JSON list: nobody is named
    END;
    RETURN QUERY SELECT unnest(COALESCE(members, '{}'));
END
$$;

INSERT INTO result_members (game_id, user_id, guild_id, game_key, finished_at)
SELECT r.game_id, m.member, r.guild_id, r.game_key, r.finished_at
FROM results r, LATERAL result_members_of(r.seats) AS m(member);

CREATE FUNCTION result_members_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        DELETE FROM result_members WHERE game_id = OLD.game_id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        DELETE FROM result_members WHERE game_id = NEW.game_id;
        INSERT INTO result_members (game_id, user_id, guild_id, game_key, finished_at)
        SELECT NEW.game_id, m.member, NEW.guild_id, NEW.game_key, NEW.finished_at
        FROM result_members_of(NEW.seats) AS m(member);
    END IF;
    RETURN NULL;
END
$$;

-- Not options (a void), ranks, scores or names: the rows hold none of them.
CREATE TRIGGER result_members_kept AFTER INSERT OR DELETE
    OR UPDATE OF game_id, game_key, guild_id, finished_at, seats
ON results FOR EACH ROW EXECUTE FUNCTION result_members_kept();

CREATE FUNCTION result_members_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM result_members;
    RETURN NULL;
END
$$;

CREATE TRIGGER result_members_emptied AFTER TRUNCATE ON results
FOR EACH STATEMENT EXECUTE FUNCTION result_members_emptied();
