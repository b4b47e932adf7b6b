"""A toy game defined and registered by the tests alone, to prove the plug-in seams.

"Relay": three to four players, hidden hands, and one out-of-turn reaction (a shield that
blocks a strike). It never ships with the bot: ``tests/conftest.py`` registers its bundle, and
the conformance suite, the cogs, the timers, the console, the arena and replays all play it
without any change to those modules.
"""
