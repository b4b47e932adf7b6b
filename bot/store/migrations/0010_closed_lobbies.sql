-- 0010: closed lobbies are deleted once no button can need them, found through an index.
--
-- One file for both SQLite and PostgreSQL (no dialect override). An invitation or open table
-- that started, was cancelled or expired is kept a week past its expires_at (a press on its
-- message, should the closing edit have failed, is answered from it and closes the message),
-- then the lobby sweep deletes it, a bounded number at a time (Store.delete_closed_lobbies).
-- Only closed lobbies are indexed, by the time they are deleted after; the open ones have
-- 0007's index.
CREATE INDEX lobbies_closed_expiry ON lobbies (expires_at) WHERE status <> 'open';
