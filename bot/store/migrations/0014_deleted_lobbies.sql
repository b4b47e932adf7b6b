-- 0014: an open lobby (invitation, open table) whose message a moderator deleted is found by
-- that message, through an index.
--
-- One file for both SQLite and PostgreSQL (no dialect override). Discord's MESSAGE_DELETE
-- names only the channel and the message, and any message deleted on any server asks whether
-- it was a lobby's (Store.close_deleted_lobbies): only the open lobbies are indexed, by their
-- message, so the question reads a few rows at most, whatever the number of lobbies kept.
CREATE INDEX lobbies_open_message ON lobbies (message_id) WHERE status = 'open';
