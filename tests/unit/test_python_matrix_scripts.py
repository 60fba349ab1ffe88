"""scripts/install-python.sh and scripts/matrix.sh: the interface `make matrix` relies on, checked
without building anything (no network, no compiler): argument handling, reuse of a finished
build from the cache, the versions the matrix covers, and that the matrix stays out of
`make test`."""
from __future__ import annotations

import os
import pathlib
import re
import subprocess
from typing import Dict

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
INSTALL = ROOT / "scripts" / "install-python.sh"
MATRIX = ROOT / "scripts" / "matrix.sh"


def run_install(*args: str, cache: pathlib.Path) -> subprocess.CompletedProcess:
    env: Dict[str, str] = {k: v for k, v in os.environ.items() if k != "XDG_CACHE_HOME"}
    env["CFL_PYTHONS_DIR"] = str(cache)
    return subprocess.run(["bash", str(INSTALL), *args], env=env, capture_output=True, text=True,
                          timeout=60)


def fake_build(cache: pathlib.Path, tag: str, exe: str) -> pathlib.Path:
    """A finished build as the script leaves it: an interpreter that starts, and READY."""
    bindir = cache / tag / "bin"
    bindir.mkdir(parents=True)
    python = bindir / exe
    python.write_text("#!/bin/sh\nexit 0\n")
    python.chmod(0o755)
    (cache / tag / "READY").write_text("3.99.0 free-threaded=True gil-enabled=False\nbuild_seconds=1\n")
    return python


@pytest.mark.parametrize("script", [INSTALL, MATRIX])
def test_scripts_are_executable_bash(script: pathlib.Path) -> None:
    assert os.access(script, os.X_OK)
    subprocess.run(["bash", "-n", str(script)], check=True)


@pytest.mark.parametrize("args", [[], ["3"], ["three"], ["3.14", "--enable-gil"], ["3.14tt"]])
def test_install_python_rejects_bad_arguments(args: list, tmp_path: pathlib.Path) -> None:
    proc = run_install(*args, cache=tmp_path)
    assert proc.returncode == 2
    assert "usage:" in proc.stderr
    assert proc.stdout == ""
    assert not any(tmp_path.iterdir())  # nothing fetched or made


@pytest.mark.parametrize("args", [["3.99t"], ["3.99", "--disable-gil"]])
def test_install_python_reuses_a_ready_free_threaded_build(args: list, tmp_path: pathlib.Path) -> None:
    python = fake_build(tmp_path, "3.99t", "python3.99t")
    proc = run_install(*args, cache=tmp_path)
    assert proc.returncode == 0, proc.stderr
    # stdout is the interpreter's path and nothing else, for `py="$(install-python.sh X.Y)"`.
    assert proc.stdout == f"{python}\n"
    assert "already built" in proc.stderr


def test_install_python_keeps_gil_and_free_threaded_builds_apart(tmp_path: pathlib.Path) -> None:
    fake_build(tmp_path, "3.99t", "python3.99t")
    gil = fake_build(tmp_path, "3.99", "python3.99")
    proc = run_install("3.99", cache=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{gil}\n"


def test_install_python_does_not_reuse_a_build_without_ready(tmp_path: pathlib.Path) -> None:
    # An interpreter left by an interrupted build is not taken as finished: the script goes on
    # to (re)build it, which fails here at once because PATH has none of the tools it needs.
    python = fake_build(tmp_path, "3.99t", "python3.99t")
    (tmp_path / "3.99t" / "READY").unlink()
    env = dict(os.environ, CFL_PYTHONS_DIR=str(tmp_path), PATH="/nonexistent")
    proc = subprocess.run(["/bin/bash", str(INSTALL), "3.99t"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode != 0
    assert str(python) not in proc.stdout


def test_matrix_covers_310_to_315_and_free_threaded_builds() -> None:
    text = MATRIX.read_text()
    default = re.search(r'VERSIONS="\$\{MATRIX_VERSIONS:-([^}]*)\}"', text)
    assert default is not None
    versions = default.group(1).split()
    for v in ["3.10", "3.11", "3.12", "3.13", "3.14", "3.15", "3.14t", "3.15t"]:
        assert v in versions
    assert "3.9" not in versions
    # The table reports the GIL state after import, and the tests run with it really off.
    assert "sys._is_gil_enabled()" in text
    assert "PYTHON_GIL=0" in text


def test_matrix_is_not_part_of_make_test() -> None:
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^test: (.*?)\n((?:\t.*\n)+)", makefile, re.M)
    assert recipe is not None
    assert "matrix" not in recipe.group(1) and "matrix" not in recipe.group(2)
    assert re.search(r"^matrix: .*\n\tscripts/matrix\.sh$", makefile, re.M)
