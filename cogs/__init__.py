"""Discord cogs: thin layers that parse options, check who is asking and reply."""
