-- 0019: Ticket to Ride seats that left before the result said so.
--
-- SQLite's twin of 0019_ttr_leavers.postgresql.sql. A member who left a game of Ticket to Ride
-- (/resign, or a forfeit on the turn timer) has no total: their cards went to the discard
-- pile. Their seat's figures now carry ``left`` (bot/engine/ttr/game.py), so /history shows
-- "(left)" rather than the 0 the score stood at, and the game is never their /stats best. An
-- older result cannot say it, but its game's move log can: a seat leaving is the move log's
-- ``@leave`` (bot/move_log.py ``LEAVE``) with that seat's number, which is the seat's place in
-- the result's ``details`` (a JSON list, one object of figures a seat, bot/results.py).
--
-- Not one shared file, as 0018 is: 0018 marks a one-seat list's only object, whose end is the
-- text's end, but here the seat's object is anywhere in the list, and the two stores share no
-- function to find it (SQLite has json_set and instr, PostgreSQL regexp_replace and strpos).
-- One statement a seat (a table holds at most four): json_set adds ``"left":1`` at the end of
-- that seat's object, compact as ``dump_json`` writes. A list that is not valid JSON, a seat
-- that is not an object, or one already ``left`` is left as it is. Updating a result's details
-- counts as a change (0008's trigger), so a kept ladder reads the results again.

UPDATE results
SET details = json_set(details, '$[0].left', 1)
WHERE game_key = 'ttr'
  AND CASE WHEN json_valid(details) THEN json_type(details, '$[0]') END = 'object'
  AND CASE WHEN json_valid(details) THEN json_type(details, '$[0].left') END IS NULL
  AND EXISTS (
      SELECT 1 FROM moves
      WHERE moves.game_id = results.game_id AND moves.seat = 0 AND moves.action = '@leave'
  );

UPDATE results
SET details = json_set(details, '$[1].left', 1)
WHERE game_key = 'ttr'
  AND CASE WHEN json_valid(details) THEN json_type(details, '$[1]') END = 'object'
  AND CASE WHEN json_valid(details) THEN json_type(details, '$[1].left') END IS NULL
  AND EXISTS (
      SELECT 1 FROM moves
      WHERE moves.game_id = results.game_id AND moves.seat = 1 AND moves.action = '@leave'
  );

UPDATE results
SET details = json_set(details, '$[2].left', 1)
WHERE game_key = 'ttr'
  AND CASE WHEN json_valid(details) THEN json_type(details, '$[2]') END = 'object'
  AND CASE WHEN json_valid(details) THEN json_type(details, '$[2].left') END IS NULL
  AND EXISTS (
      SELECT 1 FROM moves
      WHERE moves.game_id = results.game_id AND moves.seat = 2 AND moves.action = '@leave'
  );

UPDATE results
SET details = json_set(details, '$[3].left', 1)
WHERE game_key = 'ttr'
  AND CASE WHEN json_valid(details) THEN json_type(details, '$[3]') END = 'object'
  AND CASE WHEN json_valid(details) THEN json_type(details, '$[3].left') END IS NULL
  AND EXISTS (
      SELECT 1 FROM moves
      WHERE moves.game_id = results.game_id AND moves.seat = 3 AND moves.action = '@leave'
  );
