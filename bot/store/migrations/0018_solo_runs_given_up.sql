-- 0018: Ticket to Ride Solo runs given up before the result said so leave the best-results
-- board.
--
-- Shared by SQLite and PostgreSQL. A run given up (/resign, or a forfeit on the turn timer)
-- scored where it stopped, 0 before a ticket was kept, and ranked above every run played to
-- the end below zero. Its result now carries the figure ``left`` (bot/engine/ttr/game.py),
-- which the boards leave out (bot/bests.py). An older result cannot say it, but its game's
-- move log can: a solo run's one seat leaving is the move log's ``@leave``
-- (bot/move_log.py ``LEAVE``). Its details are the one-seat JSON list ``dump_json`` wrote
-- (``[{…}]``, compact); ``,"left":1`` goes in before the closing ``}]``. Updating a result's
-- details counts as a change (0008's trigger), so a kept board reads the results again.
UPDATE results
SET details = SUBSTR(details, 1, LENGTH(details) - 2) || ',"left":1}]'
WHERE game_key = 'ttr-solo'
  AND details LIKE '[{%}]'
  AND details <> '[{}]'
  AND details NOT LIKE '%"left"%'
  AND EXISTS (
      SELECT 1 FROM moves WHERE moves.game_id = results.game_id AND moves.action = '@leave'
  );
