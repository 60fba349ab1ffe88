"""scripts/tansu_broker.py: a broker does not outlive the process that started it.

A test worker that crashes (a native abort) never runs its fixtures' teardown, so before this
its session broker kept running, holding its memory, until the machine went away.
"""

from __future__ import annotations

import os
import pathlib
import select
import signal
import subprocess
import sys
import time

import pytest

SCRIPTS = pathlib.Path(__file__).resolve().parents[2] / "scripts"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a parent-death signal is Linux's")

STARTER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from tansu_broker import TansuBroker
broker = TansuBroker(log_dir=sys.argv[2]).start()
print(broker.proc.pid, flush=True)
time.sleep(120)  # killed by the test long before
"""


def _running(pid: int) -> bool:
    """The process exists and is not a zombie waiting to be reaped."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_broker_stops_when_the_process_that_started_it_dies(tmp_path: pathlib.Path) -> None:
    starter = subprocess.Popen([sys.executable, "-c", STARTER, str(SCRIPTS), str(tmp_path)],
                               stdout=subprocess.PIPE, text=True)
    broker_pid = None
    try:
        ready, _, _ = select.select([starter.stdout], [], [], 60)
        assert ready, "the starter printed no broker pid within 60 s"
        broker_pid = int(starter.stdout.readline())
        assert _running(broker_pid)
        starter.kill()  # as a crash: no teardown runs
        starter.wait(timeout=10)
        deadline = time.monotonic() + 10
        while _running(broker_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(broker_pid), "the broker outlived the process that started it"
    finally:
        if starter.poll() is None:
            starter.kill()
            starter.wait(timeout=10)
        if broker_pid is not None and _running(broker_pid):
            os.kill(broker_pid, signal.SIGKILL)
        if starter.stdout is not None:
            starter.stdout.close()
