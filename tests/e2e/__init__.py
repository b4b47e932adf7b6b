"""End-to-end tests: the real bot process (``python -m bot run``) against the local fake Discord."""
