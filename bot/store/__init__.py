"""Storage of games and move logs: SQLite (embedded default) behind one async interface."""
