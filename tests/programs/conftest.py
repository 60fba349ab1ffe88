"""The programs tier: programs written for upstream confluent-kafka, run unchanged on this package.

Each program (quixstreams 3.28 and its dependencies, installed by scripts/install-programs.sh
into ``programs/`` of each virtualenv, on ``PYTHONPATH`` for the programs' processes only) runs
as a subprocess twice: under this project's interpreter (.venv, this worktree's ``src`` first on
``PYTHONPATH``) and under the upstream wheel's (.compat-venv, found as tests/compat does). The two runs use their own topics, consumer groups and state directories,
and the tests compare what they observed. Without either interpreter, or without quixstreams in
one of them, the tier skips, saying why.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from programs_support import QUIXSTREAMS_VERSION, Sides, upstream_python


@pytest.fixture(scope="session")
def program_sides() -> Sides:
    upstream, why = upstream_python()
    if upstream is None:
        pytest.skip(why)
    sides = Sides({"ours": sys.executable, "upstream": upstream})
    for side, python in sides.pythons.items():
        probe = subprocess.run([python, "-c", "import importlib.metadata as m; print(m.version('quixstreams'))"],
                               capture_output=True, text=True, timeout=60, cwd="/", env=sides.env(side))
        found = probe.stdout.strip()
        if probe.returncode != 0 or found != QUIXSTREAMS_VERSION:
            pytest.skip(f"quixstreams {QUIXSTREAMS_VERSION} is not in {sides.programs[side]} for {side} "
                        f"({found or probe.stderr.strip()[-200:]}); `make programs` installs it there "
                        "(scripts/install-programs.sh)")
    return sides
