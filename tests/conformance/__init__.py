"""The conformance suite every registered game must pass (engine checks and bundle checks)."""
