-- 0007: the sweep that expires lobbies finds them through an index.
--
-- One file for both SQLite and PostgreSQL (no dialect override). Every few seconds the sweep
-- asks for the open lobbies past their expires_at (Store.lobbies_due). Closed lobbies stay in
-- the table for good, so only open ones are indexed: the index stays as small as the number of
-- invitations and tables waiting for players.
CREATE INDEX lobbies_open_expiry ON lobbies (expires_at) WHERE status = 'open';
