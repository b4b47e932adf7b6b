-- 0016: an open lobby whose closing time moved on (downtime given back) is marked until its
-- message shows the new time.
--
-- One file for both SQLite and PostgreSQL (no dialect override). Store.resume_timers moves
-- the closing time of the open invitations and tables on by the time the bot was down, and
-- sets reshow; the lobby sweep edits their messages a few a pass and clears it, at the
-- version it drew (Store.lobbies_to_reshow, Store.lobby_reshown). Kept in memory before, the
-- list was lost when the process stopped before it was through: those messages said the old
-- time until a press redrew them. Only the marked open lobbies are indexed, so the sweep's
-- question reads nothing when none is marked.
ALTER TABLE lobbies ADD COLUMN reshow INTEGER NOT NULL DEFAULT 0;

CREATE INDEX lobbies_to_reshow ON lobbies (id) WHERE reshow = 1 AND status = 'open';
