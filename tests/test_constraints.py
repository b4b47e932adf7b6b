"""constraints.txt, the releases CI, ``make`` and the Docker image install, against pyproject.toml.

A pin outside its range in pyproject.toml would make pip refuse the install; a dependency
added to pyproject.toml without a pin would be installed at whatever release is newest that
day (a new ruff or mypy release can fail a clean tree). Both are caught here, before CI.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).resolve().parent.parent


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (REPO / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        name, version = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)", line).groups()  # type: ignore[union-attr]
        pins[canonicalize_name(name)] = Version(version)
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    listed = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        listed += extra
    return [Requirement(text) for text in listed]


def test_every_dependency_is_pinned_within_its_range() -> None:
    pins = _pins()
    for requirement in _requirements():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in constraints.txt (make lock)"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {requirement.name} {pins[name]}, outside {requirement}"
        )


def test_every_install_uses_the_constraints() -> None:
    """The Makefile's install (which CI runs) and the Docker image's both read the file."""
    makefile = (REPO / "Makefile").read_text()
    (install,) = re.findall(r"^\t\$\(BIN\)/pip install .*-e .*$", makefile, re.MULTILINE)
    assert "-c constraints.txt" in install
    dockerfile = (REPO / "Dockerfile").read_text()
    assert "COPY pyproject.toml README.md constraints.txt ./" in dockerfile
    (install,) = re.findall(r"pip install [^&\n]*'\.\[postgres\]'", dockerfile)
    assert "-c constraints.txt" in install
