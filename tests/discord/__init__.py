"""Test infrastructure for running the real discord.py bot without Discord.

* :mod:`tests.discord.backend` -- an in-memory model of the Discord REST API (messages,
  attachments, application commands, interaction callbacks and webhooks) shared by both tools.
* :mod:`tests.discord.fake_discord` -- a local aiohttp fake Discord server (REST + gateway v10)
  that a real ``discord.Client``/``commands.Bot`` logs into; also runnable as a process.
* :mod:`tests.discord.payloads` -- raw ``INTERACTION_CREATE`` payload builders and an in-process
  driver that feeds them to ``bot._connection.parse_interaction_create`` for fast cog tests.
* :mod:`tests.discord.run_with_fake` -- launches a bot module/script pointed at a fake server.
"""
