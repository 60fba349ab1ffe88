"""How ``produce | consume`` shares an embedded mock cluster across two processes.

A mock cluster lives inside the process that started it. When ``produce`` runs without
bootstrap servers and its stdout is a pipe, it starts the cluster and writes two control lines
to that pipe: the cluster's address as soon as the topic exists, and a "done" line once every
message has been delivered. ``consume`` (or ``topics``/``groups``) without bootstrap servers
reads the address from its stdin, and after the "done" line it stops once it has read up to the
end. ``produce`` keeps the cluster alive until the reading side closes the pipe.
"""

from __future__ import annotations

import os
import select
import stat
import time
from typing import Optional

__all__ = ["ADDRESS", "DONE", "HandoffReader", "HandoffWriter", "fd_is_pipe"]

ADDRESS = b"%confluent-kafka mock-cluster "
DONE = b"%confluent-kafka produced "


def fd_is_pipe(fd: int) -> bool:
    """True when ``fd`` is a pipe or a socket (something another process reads or writes)."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class HandoffWriter:
    """The producing side: announces the cluster on ``fd`` and waits for the reader to go."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def _write(self, line: bytes) -> bool:
        """Write one line; False when the reader has already gone."""
        try:
            view = memoryview(line)
            while view:
                view = view[os.write(self.fd, view):]
            return True
        except BrokenPipeError:
            return False

    def announce(self, bootstrap: str) -> bool:
        """Tell the reader where the cluster is."""
        return self._write(ADDRESS + bootstrap.encode() + b"\n")

    def done(self, count: int) -> bool:
        """Tell the reader that all ``count`` messages are in the cluster."""
        return self._write(DONE + str(count).encode() + b"\n")

    def wait_for_reader_to_close(self, poll_ms: int = 200) -> None:
        """Block until the other end of the pipe is closed (Ctrl-C/KeyboardInterrupt ends it)."""
        p = select.poll()
        p.register(self.fd, select.POLLERR | select.POLLHUP)
        while not p.poll(poll_ms):
            pass


class HandoffReader:
    """The consuming side: finds the cluster address at the head of stdin, then watches for
    the "done" line without blocking."""

    def __init__(self, bootstrap: str, fd: int, rest: bytes) -> None:
        self.bootstrap = bootstrap
        self.fd = fd
        self._buf = rest
        self._eof = False
        self.produced: Optional[int] = None

    @classmethod
    def from_fd(cls, fd: int, timeout: float) -> Optional["HandoffReader"]:
        """Read the address line from ``fd`` if it is a pipe; None when it is not a pipe, it
        ends first, or its first line is something else. Waits at most ``timeout`` seconds."""
        if not fd_is_pipe(fd):
            return None
        buf = b""
        deadline = time.monotonic() + timeout
        while b"\n" not in buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                return None
            buf += chunk
            if not ADDRESS.startswith(buf[:len(ADDRESS)]):
                return None
        line, rest = buf.split(b"\n", 1)
        if not line.startswith(ADDRESS):
            return None
        reader = cls(line[len(ADDRESS):].decode().strip(), fd, rest)
        reader._parse()
        return reader

    def _parse(self) -> None:
        while b"\n" in self._buf:
            line, self._buf = self._buf.split(b"\n", 1)
            if line.startswith(DONE):
                try:
                    self.produced = int(line[len(DONE):])
                except ValueError:
                    self.produced = 0

    def producer_done(self) -> bool:
        """True once the producer said every message is in (checks stdin without blocking).
        A producer that went away without saying so counts as done too."""
        while self.produced is None and not self._eof:
            ready, _, _ = select.select([self.fd], [], [], 0)
            if not ready:
                break
            chunk = os.read(self.fd, 4096)
            if not chunk:
                self._eof = True
                break
            self._buf += chunk
            self._parse()
        return self.produced is not None or self._eof
