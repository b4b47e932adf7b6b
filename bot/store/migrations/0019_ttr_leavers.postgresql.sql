-- 0019 for PostgreSQL: Ticket to Ride seats that left before the result said so (see
-- 0019_ttr_leavers.sql). The same rows get the same text: the details are the compact JSON
-- list of flat objects (figures are whole numbers) that ``dump_json`` writes, so the seat's
-- object is the one after as many ``{…},`` as its number, and ``,"left":1`` goes in before
-- its ``}`` (then ``{,`` is ``{``, for an object with no figures: compact JSON never holds
-- ``{,`` else). No cast to jsonb, which would fail the migration on a damaged row and rewrite
-- every marked list in its own key order and spacing: a list not of that shape (a list of
-- objects holding no object) is left as it is, as is a seat past its end or already ``left``.

UPDATE results
SET details = REPLACE(
    regexp_replace(details, '^(\[\s*(\{[^{}]*\}\s*,\s*){0}\{[^{}]*)\}', '\1,"left":1}'),
    '{,', '{')
WHERE game_key = 'ttr'
  AND details ~ '^\[\s*\{[^{}]*\}\s*(,\s*\{[^{}]*\}\s*)*\]\s*$'
  AND details ~ '^\[\s*(\{[^{}]*\}\s*,\s*){0}\{'
  AND details !~ '^\[\s*(\{[^{}]*\}\s*,\s*){0}\{[^{}]*"left"'
  AND EXISTS (
      SELECT 1 FROM moves
      WHERE moves.game_id = results.game_id AND moves.seat = 0 AND moves.action = '@leave'
  );

UPDATE results
SET details = REPLACE(
    regexp_replace(details, '^(\[\s*(\{[^{}]*\}\s*,\s*){1}\{[^{}]*)\}', '\1,"left":1}'),
    '{,', '{')
WHERE game_key = 'ttr'
  AND details ~ '^\[\s*\{[^{}]*\}\s*(,\s*\{[^{}]*\}\s*)*\]\s*$'
  AND details ~ '^\[\s*(\{[^{}]*\}\s*,\s*){1}\{'
  AND details !~ '^\[\s*(\{[^{}]*\}\s*,\s*){1}\{[^{}]*"left"'
  AND EXISTS (
      SELECT 1 FROM moves
      WHERE moves.game_id = results.game_id AND moves.seat = 1 AND moves.action = '@leave'
  );

UPDATE results
SET details = REPLACE(
    regexp_replace(details, '^(\[\s*(\{[^{}]*\}\s*,\s*){2}\{[^{}]*)\}', '\1,"left":1}'),
    '{,', '{')
WHERE game_key = 'ttr'
  AND details ~ '^\[\s*\{[^{}]*\}\s*(,\s*\{[^{}]*\}\s*)*\]\s*$'
  AND details ~ '^\[\s*(\{[^{}]*\}\s*,\s*){2}\{'
  AND details !~ '^\[\s*(\{[^{}]*\}\s*,\s*){2}\{[^{}]*"left"'
  AND EXISTS (
      SELECT 1 FROM moves
      WHERE moves.game_id = results.game_id AND moves.seat = 2 AND moves.action = '@leave'
  );

UPDATE results
SET details = REPLACE(
    regexp_replace(details, '^(\[\s*(\{[^{}]*\}\s*,\s*){3}\{[^{}]*)\}', '\1,"left":1}'),
    '{,', '{')
WHERE game_key = 'ttr'
  AND details ~ '^\[\s*\{[^{}]*\}\s*(,\s*\{[^{}]*\}\s*)*\]\s*$'
  AND details ~ '^\[\s*(\{[^{}]*\}\s*,\s*){3}\{'
  AND details !~ '^\[\s*(\{[^{}]*\}\s*,\s*){3}\{[^{}]*"left"'
  AND EXISTS (
      SELECT 1 FROM moves
      WHERE moves.game_id = results.game_id AND moves.seat = 3 AND moves.action = '@leave'
  );
