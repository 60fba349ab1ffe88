"""Runs fork_scenarios.py in a fresh interpreter, so its fork() scenarios fork a quiet parent
(see the note there), and requires every scenario in it to pass."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.mock, pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")]

MODULE = pathlib.Path(__file__).with_name("fork_scenarios.py")


def test_fork_scenarios_in_a_fresh_interpreter() -> None:
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(MODULE)],
                          cwd=MODULE.parents[2], capture_output=True, text=True, timeout=600)
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) >= 3 and "skipped" not in summary, summary
