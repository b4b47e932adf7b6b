""".ci/run on a clean machine: what it installs, and how, without installing anything.

CI runs ``bash .ci/run`` on a fresh clone of a clean machine, so the script installs what the
project needs (``make``, ``python3-venv``, PostgreSQL) when it is missing: with apt-get as root,
with ``sudo -n`` when that works, and otherwise it names the packages in one sentence and stops.
``--dry-run`` stops after saying so. Before that it picks a Python new enough for
pyproject.toml, or says there is none. Each case here runs it with a PATH of our own making,
where ``make``, ``python3`` (and ``python3.N``), ``apt-get``, ``sudo`` and ``id`` are there or
not, real or fake, and PostgreSQL's folder is an empty one (JUNCTION_CI_PG_LIB) when it should
look missing. The Makefile's own check of the Python is run on a copy of it.
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
BASIC_TOOLS = ("dirname", "find", "sort", "tail", "env", "sed")


def _fake(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!{BASH}\n{body}\n")
    path.chmod(0o755)


def _fake_python(folder: Path, name: str, version: str, *, venv: bool = True) -> None:
    """A ``name`` that is Python ``version`` to the script: it asks for the version and whether
    ensurepip is there, nothing else."""
    _fake(
        folder,
        name,
        f'case "$2" in *version_info*) echo {version} ;;'
        f" *ensurepip*) exit {0 if venv else 1} ;; *) exit 1 ;; esac",
    )


def _run(
    tmp_path: Path,
    *,
    root: bool = True,
    make: bool = True,
    venv: bool = True,
    postgres: bool = True,
    apt: bool = True,
    sudo: str | None = None,
    pythons: dict[str, str] | None = None,
    args: tuple[str, ...] = ("--dry-run",),
    env: dict[str, str] | None = None,
    python3: bool = True,
) -> subprocess.CompletedProcess[str]:
    """Run .ci/run as the given machine would; sudo is None (absent), "ok", "apt-get" (a
    sudoers entry for apt-get alone) or "password"; ``pythons``: fakes by name and version
    (``_fake_python``), python3 among them standing in for the real one."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    for tool in BASIC_TOOLS:
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    user, uid = ("root", 0) if root else ("alice", 1000)
    _fake(bin_dir, "id", f'[ "$1" = -un ] && echo {user} || echo {uid}')
    if make:
        # Notes the interpreter the Makefile is handed (its PYTHON ?= python3).
        _fake(bin_dir, "make", 'echo "make $*"\necho "${PYTHON-}" >"$HOME/make.python"')
    for name, version in (pythons or {}).items():
        _fake_python(bin_dir, name, version, venv=venv)
    if "python3" in (pythons or {}) or not python3:
        pass  # a fake of its own version, or none at all
    elif venv:
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
    elif sudo == "apt-get":
        # `sudo -n -l apt-get` names it; anything else, env or true, is refused.
        _fake(
            bin_dir,
            "sudo",
            '[ "$1" = -n ] || exit 1\nshift\n'
            'if [ "$1" = -l ]; then [ "$2" = apt-get ] && echo /usr/bin/apt-get; exit $?; fi\n'
            '[ "$1" = apt-get ] || { echo "Sorry, user alice may not run $1" >&2; exit 1; }\n'
            'echo "sudo $*" >>"$HOME/sudo.log"',
        )
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


def test_a_user_with_sudo_for_apt_get_alone_installs_with_it(tmp_path: Path) -> None:
    """A sudoers entry for apt-get alone: `sudo -n true` is refused, and the script said
    "alice may not install packages"; now it asks sudo whether apt-get may run, and runs it
    (not through env, which that entry refuses)."""
    done = _run(tmp_path, root=False, make=False, postgres=False, sudo="apt-get")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "ci: installing make postgresql from the OS packages",
        "ci: would run: sudo -n apt-get update -qq",
        "ci: would run: sudo -n apt-get install -y -qq --no-install-recommends make postgresql",
    ]
    done = _run(
        tmp_path / "run",
        root=False,
        venv=False,
        sudo="apt-get",
        args=(),
        env={"JUNCTION_TEST_PG": "postgresql://x"},
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "ci: installing python3-venv from the OS packages",
        "make test",
    ]
    assert (tmp_path / "run" / "sudo.log").read_text().splitlines() == [
        "sudo apt-get update -qq",
        "sudo apt-get install -y -qq --no-install-recommends python3-venv",
    ]


@pytest.mark.parametrize("args", [(), ("--dry-run",)])
def test_a_python_older_than_the_project_s_is_said(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Ubuntu 22.04's python3 is 3.10, and pyproject.toml asks for 3.11: the script found
    nothing missing and `make` then failed in pip's words ("requires a different Python"),
    naming neither version. Now one sentence, before anything is installed or run."""
    done = _run(tmp_path, make=False, pythons={"python3": "3.10"}, args=args)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "ci: python3 is Python 3.10 and Junction needs Python 3.11 or newer (requires-python"
        " in pyproject.toml), and no python3.N of 3.11 or newer is on PATH: install one (on"
        " Debian and Ubuntu python3.11 and python3.11-venv, where the release has them) or"
        " name one with PYTHON=/path/to/python3, then run this again.\n"
    )
    assert not (tmp_path / "apt.log").exists()


def test_a_python_named_older_than_the_project_s_is_said(tmp_path: Path) -> None:
    done = _run(tmp_path, pythons={"python3.9": "3.9"}, env={"PYTHON": "python3.9"})
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "ci: python3.9 is Python 3.9 and Junction needs Python 3.11 or newer (requires-python"
        " in pyproject.toml): set PYTHON to a newer one, then run this again.\n"
    )


def test_the_newest_python_new_enough_is_handed_to_make(tmp_path: Path) -> None:
    """python3 too old, python3.11 and python3.12 beside it (Ubuntu with deadsnakes'): make
    runs python3.12, and its venv package is python3.12-venv."""
    pythons = {"python3": "3.10", "python3.11": "3.11", "python3.12": "3.12", "python3.9": "3.9"}
    done = _run(tmp_path, pythons=pythons, args=(), env={"JUNCTION_TEST_PG": "postgresql://x"})
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "ci: nothing to install\nmake test\n"
    assert (tmp_path / "make.python").read_text() == "python3.12\n"
    done = _run(tmp_path / "bare", pythons=pythons, venv=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[0] == "ci: installing python3.12-venv from the OS packages"


def test_python3_new_enough_is_kept(tmp_path: Path) -> None:
    done = _run(
        tmp_path,
        pythons={"python3": "3.11", "python3.13": "3.13"},
        args=(),
        env={"JUNCTION_TEST_PG": "postgresql://x"},
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert (tmp_path / "make.python").read_text() == "python3\n"


def test_a_machine_without_python3_takes_a_python3_n_or_installs_python3(
    tmp_path: Path,
) -> None:
    """No python3 at all: a python3.N new enough on PATH is handed to make (its -config
    beside it is no interpreter), else python3-venv (which brings python3) is installed;
    --dry-run installs nothing either way."""
    pythons = {"python3.12": "3.12", "python3.13-config": "3.13"}
    done = _run(tmp_path, pythons=pythons, python3=False, args=(), env={"JUNCTION_TEST_PG": "x"})
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "ci: nothing to install\nmake test\n"
    assert (tmp_path / "make.python").read_text() == "python3.12\n"
    done = _run(tmp_path / "bare", python3=False, postgres=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "ci: installing python3-venv postgresql from the OS packages",
        "ci: would run: apt-get update -qq",
        "ci: would run: apt-get install -y -qq --no-install-recommends python3-venv postgresql",
    ]
    assert not (tmp_path / "bare" / "apt.log").exists()


def test_an_unknown_argument_is_refused(tmp_path: Path) -> None:
    done = _run(tmp_path, args=("--dry",))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "ci: usage: bash .ci/run [--dry-run]\n"


def test_the_readme_says_what_it_installs() -> None:
    readme = " ".join((REPO / "README.md").read_text().split())
    assert "`bash .ci/run --dry-run`" in readme
    for package in ("`make`", "`python3-venv`"):
        assert package in readme


def _make(tmp_path: Path, requires: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`make` in a copy of the project's Makefile beside a pyproject.toml asking ``requires``,
    run with this interpreter as PYTHON."""
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make on this machine")
    for name in ("Makefile", "constraints.txt"):
        shutil.copy(REPO / name, tmp_path / name)
    pyproject = (REPO / "pyproject.toml").read_text()
    assert 'requires-python = ">=3.11"' in pyproject
    (tmp_path / "pyproject.toml").write_text(
        pyproject.replace('requires-python = ">=3.11"', f'requires-python = "{requires}"')
    )
    return subprocess.run(
        [make, "-s", "-C", str(tmp_path), f"PYTHON={sys.executable}", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_make_says_the_python_is_too_old_before_pip_does(tmp_path: Path) -> None:
    """`make test` (or `make run`) with a Python older than pyproject.toml asks: pip refused it
    after the venv was made, in its own words ("requires a different Python"). Now one
    sentence naming both versions, and no .venv."""
    done = _make(tmp_path, ">=3.99", "test")
    found = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == (
        f"make: {sys.executable} is Python {found} and Junction needs Python 3.99 or newer"
        " (requires-python in pyproject.toml): name a newer one, e.g. make test"
        " PYTHON=python3.99."
    )
    assert not (tmp_path / ".venv").exists()


def test_make_lets_a_python_new_enough_by(tmp_path: Path) -> None:
    """The same check on the project's own requires-python and the Python running the tests."""
    check = "checked: ; @$(PYTHON) -c '$(CHECK_PYTHON)' && echo ok"
    done = _make(tmp_path, ">=3.11", "--eval", check, "checked")
    assert (done.returncode, done.stdout, done.stderr) == (0, "ok\n", "")
