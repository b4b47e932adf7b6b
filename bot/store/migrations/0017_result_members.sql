-- 0017: a member's results found through an index: who sat at each result, one row a member.
--
-- SQLite's twin of 0017_result_members.postgresql.sql. /history and /stats read a member's
-- results on a server: found by a LIKE on the results' seats text, every such read went
-- through all of the server's results (0.56 s at 200 000, for a member with none there), in
-- the store's one connection, which every channel's moves wait for. ``result_members`` holds a
-- row for each member (any user id in the seats, a former player's alias included; not the
-- computer's null) of each result, with what the reads filter and order by copied from the
-- result; its index is a member's results on a server, newest first.
--
-- Triggers keep it exact on every way a result is written, as 0008's keep the result numbers:
-- the bot's record, ``junction forget-member`` rewriting seats, ``junction migrate-db``'s bulk
-- copy and clearing, a hand-made statement. The seats are the JSON list ``dump_json`` writes;
-- of a damaged row, seats that are not a JSON list name nobody, and an element that is not a
-- whole number nobody, rather than refusing the write.
CREATE TABLE result_members (
    game_id      BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    guild_id     BIGINT,
    game_key     TEXT NOT NULL,
    finished_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- "This member's results on this server, newest first" (Store.results with user_id): read in
-- order, from the index alone, up to the results' own rows for the few kept. game_key last, so
-- a read of one game's results filters in the index too.
CREATE INDEX result_members_newest ON result_members (user_id, guild_id, finished_at, game_id,
    game_key);

INSERT INTO result_members (game_id, user_id, guild_id, game_key, finished_at)
SELECT DISTINCT r.game_id, s.value, r.guild_id, r.game_key, r.finished_at
FROM results r,
     json_each(CASE WHEN json_valid(r.seats) THEN
         CASE json_type(r.seats) WHEN 'array' THEN r.seats ELSE '[]' END ELSE '[]' END) s
WHERE s.type = 'integer';

CREATE TRIGGER result_members_added AFTER INSERT ON results
BEGIN
    DELETE FROM result_members WHERE game_id = NEW.game_id;
    INSERT INTO result_members (game_id, user_id, guild_id, game_key, finished_at)
    SELECT DISTINCT NEW.game_id, s.value, NEW.guild_id, NEW.game_key, NEW.finished_at
    FROM json_each(CASE WHEN json_valid(NEW.seats) THEN
             CASE json_type(NEW.seats) WHEN 'array' THEN NEW.seats ELSE '[]' END ELSE '[]' END) s
    WHERE s.type = 'integer';
END;

-- Not options (a void), ranks, scores or names: the rows hold none of them.
CREATE TRIGGER result_members_changed AFTER UPDATE OF game_id, game_key, guild_id, finished_at,
    seats ON results
BEGIN
    DELETE FROM result_members WHERE game_id = OLD.game_id;
    DELETE FROM result_members WHERE game_id = NEW.game_id;
    INSERT INTO result_members (game_id, user_id, guild_id, game_key, finished_at)
    SELECT DISTINCT NEW.game_id, s.value, NEW.guild_id, NEW.game_key, NEW.finished_at
    FROM json_each(CASE WHEN json_valid(NEW.seats) THEN
             CASE json_type(NEW.seats) WHEN 'array' THEN NEW.seats ELSE '[]' END ELSE '[]' END) s
    WHERE s.type = 'integer';
END;

-- A deleted game's result goes by its foreign key's cascade, which fires this too.
CREATE TRIGGER result_members_deleted AFTER DELETE ON results
BEGIN
    DELETE FROM result_members WHERE game_id = OLD.game_id;
END;
