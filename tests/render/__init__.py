"""Tests for the Pillow renderers in ``bot.render``."""
