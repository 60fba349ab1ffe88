"""What a person sees: colours only on a terminal (and never with NO_COLOR), progress bars on a
terminal's stderr, plain text when the output goes to a pipe or a file."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import time
from typing import Dict, Iterator, Optional, Tuple

import pytest

from cli_helpers import CLI, MockServer, cli_env, run

ANSI = b"\x1b["


@pytest.fixture
def server() -> Iterator[MockServer]:
    s = MockServer("--topic", "t:2")
    try:
        yield s
    finally:
        s.stop()


def run_on_tty(args: list, which: str, env: Optional[Dict[str, str]] = None, timeout: float = 60
               ) -> Tuple[int, bytes, bytes]:
    """Run the tool with ``which`` ("stdout" or "stderr") on a pseudo-terminal; returns
    (exit status, what the terminal showed, the other stream)."""
    master, slave = pty.openpty()
    # A terminal of 100x30 (a new pseudo-terminal is 0x0, where progress bars have no room).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    streams[which] = slave
    proc = subprocess.Popen(CLI + args, stdin=subprocess.DEVNULL, env=env or cli_env(), **streams)
    os.close(slave)
    shown = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                shown += chunk
            elif proc.poll() is not None:
                break
        other = (proc.stderr if which == "stdout" else proc.stdout)
        rest = other.read() if other is not None else b""
        return proc.wait(30), shown, rest
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for f in (proc.stdout, proc.stderr):
            if f is not None:
                f.close()


def test_tables_are_coloured_on_a_terminal_only(server: MockServer) -> None:
    code, shown, _ = run_on_tty(["topics", "list", "-b", server.bootstrap], "stdout")
    assert code == 0
    assert ANSI + b"1mTOPIC" in shown  # bold header
    plain = run(["topics", "list", "-b", server.bootstrap])
    assert plain.returncode == 0 and ANSI not in plain.stdout
    assert plain.stdout.decode().split() == ["TOPIC", "PARTITIONS", "t", "2"]


def test_no_color_and_color_flags(server: MockServer) -> None:
    code, shown, _ = run_on_tty(["topics", "list", "-b", server.bootstrap], "stdout",
                                env=cli_env(NO_COLOR="1"))
    assert code == 0 and ANSI not in shown and b"TOPIC" in shown
    code, shown, _ = run_on_tty(["topics", "list", "--color", "never", "-b", server.bootstrap], "stdout")
    assert code == 0 and ANSI not in shown
    forced = run(["topics", "list", "--color", "always", "-b", server.bootstrap])
    assert ANSI in forced.stdout


def test_errors_are_red_on_a_terminal_and_plain_in_a_pipe() -> None:
    code, shown, _ = run_on_tty(["consume", "-t", "x"], "stderr")
    assert code == 2 and ANSI + b"31;1merror: " in shown
    r = run(["consume", "-t", "x"])
    assert r.stderr.startswith(b"error: ") and ANSI not in r.stderr


def test_consumed_data_is_never_coloured(server: MockServer) -> None:
    r = run(["produce", "-q", "-b", server.bootstrap, "-t", "t", "-p", "0"], input=b"payload\n")
    assert r.returncode == 0
    code, shown, _ = run_on_tty(["consume", "-q", "-b", server.bootstrap, "-t", "t", "-e", "--color", "always"],
                                "stdout")
    assert code == 0 and shown.replace(b"\r\n", b"\n") == b"payload\n"


def test_progress_bar_on_a_terminal_only() -> None:
    pytest.importorskip("tqdm")
    code, shown, out = run_on_tty(["bench", "-n", "20000"], "stderr")
    assert code == 0, shown
    assert b"\rproducing:" in shown and b"/20.0k" in shown  # tqdm's bar, with the total
    assert b"consuming" in shown
    assert out.split(b"\n")[0].split() == [b"PHASE", b"MESSAGES", b"MB", b"SECONDS", b"MSGS/S", b"MB/S"]
    r = run(["bench", "-n", "20000"])
    assert r.returncode == 0 and b"producing" not in r.stderr and b"\r" not in r.stderr
    code, shown, _ = run_on_tty(["bench", "-n", "2000", "-q"], "stderr")
    assert code == 0 and shown == b""


def test_progress_without_tqdm_degrades_to_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A tqdm that cannot be imported: the tool must work the same, just without bars.
    (tmp_path / "tqdm.py").write_text("raise ImportError('tqdm hidden by the test')\n")
    env = cli_env(PYTHONPATH=str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    code, shown, out = run_on_tty(["bench", "-n", "2000"], "stderr", env=env)
    assert code == 0, shown
    assert b"producing" not in shown and b"PHASE" in out
