"""Tests of the Discord front end (``cogs/``): the real bot, driven by raw interaction payloads
through discord.py and the fake Discord in ``tests.discord``."""
