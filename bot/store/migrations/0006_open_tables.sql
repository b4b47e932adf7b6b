-- 0006: open tables, posted with /host for any member to join.
--
-- One file for both SQLite and PostgreSQL (no dialect override). open_seats is the number of
-- seats a lobby offers to whoever presses Join (the members who joined are kept with the
-- lobby's invited, each as accepted). NULL for an invitation naming its members (/challenge,
-- a rematch) and for every lobby stored before this migration, which keep working as before.
ALTER TABLE lobbies ADD COLUMN open_seats INTEGER;
