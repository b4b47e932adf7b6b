"""Junction: a Discord bot that hosts road-and-rail card games."""
