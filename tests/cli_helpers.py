"""Run the command-line tool the way a shell user does: as a separate process."""

from __future__ import annotations

import os
import pathlib
import shlex
import subprocess
import sys
import time
from typing import Dict, List, Optional, Sequence

PY = sys.executable
CLI = [PY, "-m", "confluent_kafka"]
# The installed console script sits next to the interpreter in the virtualenv.
SCRIPT = pathlib.Path(PY).with_name("confluent-kafka")


def cli_env(**extra: str) -> Dict[str, str]:
    """The environment of a user with no cluster configured and no colour preferences."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("KAFKA_BOOTSTRAP_SERVERS", "NO_COLOR", "FORCE_COLOR")}
    env.update(extra)
    return env


def run(args: Sequence[str], input: Optional[bytes] = None, timeout: float = 120,
        env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    """``python -m confluent_kafka ARGS`` with ``input`` on stdin (default: /dev/null)."""
    return subprocess.run(CLI + list(args), input=input, stdin=None if input is not None else subprocess.DEVNULL,
                          capture_output=True, timeout=timeout, env=env or cli_env())


def shell(script: str, timeout: float = 120, env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    """Run ``script`` with bash (pipefail on); ``confluent-kafka`` in it is the console script of
    this interpreter's environment and ``$PY`` is the interpreter."""
    e = env or cli_env()
    e["PATH"] = f"{SCRIPT.parent}{os.pathsep}{e.get('PATH', '')}"
    e["PY"] = PY
    return subprocess.run(["bash", "-o", "pipefail", "-c", script], capture_output=True, timeout=timeout,
                          env=e, stdin=subprocess.DEVNULL)


class MockServer:
    """``confluent-kafka mock`` running in the background; ``bootstrap`` is its address."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(CLI + ["mock", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL, env=cli_env())
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode().strip()
        assert line.startswith("127.0.0.1:"), (line, self.proc.stderr.read() if self.proc.poll() is not None else "")
        self.bootstrap = line

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM, then wait; returns the exit status."""
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
            raise
        finally:
            for f in (self.proc.stdout, self.proc.stderr):
                if f is not None:
                    f.close()


def wait_for(predicate, timeout: float = 30, what: str = "condition") -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def q(*args: str) -> str:
    """Shell-quote and join."""
    return " ".join(shlex.quote(a) for a in args)


def lines(out: bytes) -> List[str]:
    return out.decode().splitlines()
