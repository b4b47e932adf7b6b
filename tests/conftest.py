"""Test-wide setup: the toy game is registered here, from the tests alone, and no test may
leave a message Discord would refuse (over its limits) unnoticed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.games import register
from tests.discord.backend import FakeBackend
from tests.toy.bundle import BUNDLE as RELAY

register(RELAY)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "form_refusals: the test sends bodies over Discord's limits on purpose"
    )


@pytest.fixture(autouse=True)
def within_discord_limits(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test whose bot sent a body Discord answers with 400 Invalid Form Body: the fake
    refuses it as Discord would, but a bot that logs the error and carries on could pass."""
    FakeBackend.refused.clear()
    yield
    broken = list(FakeBackend.refused)
    FakeBackend.refused.clear()
    if request.node.get_closest_marker("form_refusals"):
        return
    assert not broken, "Discord would refuse: " + "; ".join(broken[:5])
