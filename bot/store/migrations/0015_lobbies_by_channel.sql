-- 0015: the open lobbies (invitations, open tables) of a channel found through an index.
--
-- One file for both SQLite and PostgreSQL (no dialect override). A moderator deleting a thread
-- (or a channel) deletes every message in it without a MESSAGE_DELETE each: Discord names only
-- the thread, and any thread deleted on any server asks whether an open lobby was posted there
-- (Store.close_channel_lobbies). Only the open lobbies are indexed, by their channel, so the
-- question reads a few rows at most, whatever the number of lobbies kept.
CREATE INDEX lobbies_open_channel ON lobbies (channel_id) WHERE status = 'open';
