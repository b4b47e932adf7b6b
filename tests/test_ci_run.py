""".ci/run on a clean machine: what it installs, and how, without installing anything.

CI runs ``bash .ci/run`` on a fresh clone of a clean machine, so the script installs what the
project needs (``make``, ``python3-venv``, PostgreSQL) when it is missing: with apt-get as root,
with ``sudo -n`` when that works, and otherwise it names the packages in one sentence and stops.
``--dry-run`` stops after saying so. Each case here runs it with a PATH of our own making, where
``make``, ``python3``, ``apt-get``, ``sudo`` and ``id`` are there or not, real or fake, and
PostgreSQL's folder is an empty one (JUNCTION_CI_PG_LIB) when it should look missing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / ".ci" / "run"
BASH = shutil.which("bash") or "/bin/bash"
# What the script runs before it installs anything, besides the tools each case decides on.
BASIC_TOOLS = ("dirname", "find", "sort", "tail", "env")


def _fake(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!{BASH}\n{body}\n")
    path.chmod(0o755)


def _run(
    tmp_path: Path,
    *,
    root: bool = True,
    make: bool = True,
    venv: bool = True,
    postgres: bool = True,
    apt: bool = True,
    sudo: str | None = None,
    args: tuple[str, ...] = ("--dry-run",),
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run .ci/run as the given machine would; sudo is None (absent), "ok" or "password"."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in BASIC_TOOLS:
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    user, uid = ("root", 0) if root else ("alice", 1000)
    _fake(bin_dir, "id", f'[ "$1" = -un ] && echo {user} || echo {uid}')
    if make:
        _fake(bin_dir, "make", 'echo "make $*"')
    if venv:
        (bin_dir / "python3").symlink_to(sys.executable)
    else:
        # Debian's python3 without python3-venv: no ensurepip, so `python3 -m venv` fails.
        _fake(bin_dir, "python3", 'echo "No module named ensurepip" >&2; exit 1')
    if apt:
        _fake(
            bin_dir,
            "apt-get",
            '[ "$(id -u)" = 0 ] || {'
            ' echo "E: Could not open lock file - open (13: Permission denied)"; exit 100; }'
            '\necho "apt-get $*" >>"$HOME/apt.log"',
        )
    if sudo == "ok":
        _fake(bin_dir, "sudo", '[ "$1" = -n ] || exit 1\nshift\necho "sudo $*"')
    elif sudo == "password":
        _fake(bin_dir, "sudo", 'echo "sudo: a password is required" >&2; exit 1')
    pg_lib = tmp_path / "postgresql"
    if postgres:
        (pg_lib / "15" / "bin").mkdir(parents=True)
        for program in ("initdb", "pg_ctl"):
            _fake(pg_lib / "15" / "bin", program, "exit 0")
    else:
        pg_lib.mkdir()
    run_env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "JUNCTION_CI_PG_LIB": str(pg_lib)}
    run_env.update(env or {})
    return subprocess.run(
        [BASH, str(SCRIPT), *args],
        env=run_env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )


def test_the_script_parses() -> None:
    assert subprocess.run([BASH, "-n", str(SCRIPT)], capture_output=True).returncode == 0


def test_a_machine_with_everything_installs_nothing(tmp_path: Path) -> None:
    done = _run(tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "ci: nothing to install\n"


@pytest.mark.parametrize(
    ("lacking", "packages"),
    [
        ({"make": False}, "make"),
        ({"venv": False}, "python3-venv"),
        ({"postgres": False}, "postgresql"),
        ({"make": False, "venv": False, "postgres": False}, "make python3-venv postgresql"),
    ],
)
def test_root_installs_what_is_missing_with_apt_get(
    tmp_path: Path, lacking: dict[str, bool], packages: str
) -> None:
    done = _run(tmp_path, **lacking)  # type: ignore[arg-type]
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        f"ci: installing {packages} from the OS packages",
        "ci: would run: apt-get update -qq",
        f"ci: would run: apt-get install -y -qq --no-install-recommends {packages}",
    ]


def test_root_installs_them_for_real_without_dry_run(tmp_path: Path) -> None:
    # The fake apt-get notes what it was asked; the fake make then "runs the tests".
    done = _run(tmp_path, venv=False, args=(), env={"JUNCTION_TEST_PG": "postgresql://x"})
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "ci: installing python3-venv from the OS packages",
        "make test",
    ]
    assert (tmp_path / "apt.log").read_text().splitlines() == [
        "apt-get update -qq",
        "apt-get install -y -qq --no-install-recommends python3-venv",
    ]


def test_a_server_of_ones_own_needs_no_postgresql(tmp_path: Path) -> None:
    done = _run(tmp_path, postgres=False, env={"JUNCTION_TEST_PG": "postgresql://x"})
    assert (done.returncode, done.stdout) == (0, "ci: nothing to install\n")


def test_a_user_with_sudo_installs_with_sudo(tmp_path: Path) -> None:
    done = _run(tmp_path, root=False, make=False, postgres=False, sudo="ok")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "ci: installing make postgresql from the OS packages",
        "ci: would run: sudo -n apt-get update -qq",
        "ci: would run: sudo -n apt-get install -y -qq --no-install-recommends make postgresql",
    ]


@pytest.mark.parametrize("sudo", [None, "password"])
@pytest.mark.parametrize("args", [(), ("--dry-run",)])
def test_a_user_who_cannot_install_is_told_what_to_install(
    tmp_path: Path, sudo: str | None, args: tuple[str, ...]
) -> None:
    done = _run(tmp_path, root=False, make=False, venv=False, postgres=False, sudo=sudo, args=args)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "ci: this machine lacks make, python3-venv and postgresql, and alice may not install"
        " packages (not root, and no sudo -n): install them first"
        " (apt-get install make python3-venv postgresql), then run this again.\n"
    )


def test_a_machine_without_apt_get_is_told_what_to_install(tmp_path: Path) -> None:
    done = _run(tmp_path, postgres=False, apt=False)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "ci: this machine lacks postgresql and has no apt-get to install it with:"
        " install it first, then run this again.\n"
    )


def test_an_unknown_argument_is_refused(tmp_path: Path) -> None:
    done = _run(tmp_path, args=("--dry",))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "ci: usage: bash .ci/run [--dry-run]\n"


def test_the_readme_says_what_it_installs() -> None:
    readme = " ".join((REPO / "README.md").read_text().split())
    assert "`bash .ci/run --dry-run`" in readme
    for package in ("`make`", "`python3-venv`"):
        assert package in readme
