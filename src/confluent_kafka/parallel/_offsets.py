"""Per-partition offset tracking and the commit metadata that carries finished offsets.

No I/O and no locking here: the dispatcher owns the trackers and holds its lock around every call.

A partition's *commit point* is the lowest offset received and not yet finished (or one past the
last received when everything received has finished): committing it never skips unfinished work.
Records finished above it are written into the commit's metadata, so a member that takes the
partition over (or this one after a crash) skips them instead of processing them again.
"""

from __future__ import annotations

import base64
import zlib
from collections import deque
from typing import Deque, Iterable, List, Optional, Set, Tuple

# Metadata written by this package starts with this tag; anything else is left alone on read.
_TAG = "pc1"
# Kafka brokers refuse commit metadata over offset.metadata.max.bytes (4096 by default).
DEFAULT_METADATA_LIMIT = 4000


def _varint(value: int, out: bytearray) -> None:
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def _runs(base: int, offsets: Iterable[int]) -> List[Tuple[int, int]]:
    """Sorted offsets above ``base`` as (gap from the previous run's end, run length) pairs."""
    runs: List[Tuple[int, int]] = []
    end = base
    start = -1
    length = 0
    for offset in sorted(offsets):
        if offset < base:
            continue
        if length and offset == start + length:
            length += 1
            continue
        if length:
            runs.append((start - end, length))
            end = start + length
        start, length = offset, 1
    if length:
        runs.append((start - end, length))
    return runs


def _pack(base: int, runs: List[Tuple[int, int]]) -> str:
    raw = bytearray()
    for gap, length in runs:
        _varint(gap, raw)
        _varint(length, raw)
    packed = zlib.compress(bytes(raw), 9)
    body, form = (packed, "z") if len(packed) < len(raw) else (bytes(raw), "r")
    return f"{_TAG}:{base}:{form}:" + base64.urlsafe_b64encode(body).decode("ascii").rstrip("=")


def encode_finished(base: int, finished: Iterable[int], limit: int = DEFAULT_METADATA_LIMIT) -> str:
    """The metadata string for a commit at ``base`` with ``finished`` offsets above it.

    When the full set does not fit in ``limit`` characters, the highest runs are left out: those
    records are then processed again after a restart, which is safe, never a skip of unfinished work.
    """
    runs = _runs(base, finished)
    if not runs:
        return ""
    text = _pack(base, runs)
    keep = len(runs)
    while len(text) > limit and keep > 0:
        keep = keep * 3 // 4
        text = _pack(base, runs[:keep]) if keep else ""
    return text


def decode_finished(base: int, metadata: Optional[str]) -> Set[int]:
    """The finished offsets that metadata written at commit point ``base`` names.

    Metadata of another writer, of another commit point, or damaged, names none: the records are
    then simply processed again.
    """
    if not metadata or not metadata.startswith(_TAG + ":"):
        return set()
    try:
        _, written_base, form, body = metadata.split(":", 3)
        if int(written_base) != base:
            return set()
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        if form == "z":
            raw = zlib.decompress(raw)
        elif form != "r":
            return set()
        numbers: List[int] = []
        value = shift = 0
        for byte in raw:
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                numbers.append(value)
                value = shift = 0
        if shift or len(numbers) % 2:
            return set()
    except (ValueError, zlib.error):
        return set()
    finished: Set[int] = set()
    end = base
    for gap, length in zip(numbers[::2], numbers[1::2]):
        start = end + gap
        finished.update(range(start, start + length))
        end = start + length
    return finished


class OffsetTracker:
    """What one partition handed out and what finished, in offset order."""

    __slots__ = ("_pending", "_finished", "_first", "_next", "_skip", "committed", "committed_metadata", "failed_offset",
                 "in_flight", "waiting", "waiting_bytes", "paused", "high_watermark")

    def __init__(self) -> None:
        # Offsets received and not yet behind the commit point, in offset order (a partition's
        # records arrive in offset order); those of them that finished.
        self._pending: Deque[int] = deque()
        self._finished: Set[int] = set()
        self._first: Optional[int] = None
        self._next: Optional[int] = None
        self._skip: Set[int] = set()
        self.committed: Optional[int] = None
        self.committed_metadata: str = ""
        self.failed_offset: Optional[int] = None
        self.in_flight = 0
        self.waiting = 0
        self.waiting_bytes = 0
        self.paused = False
        self.high_watermark: Optional[int] = None

    def restore(self, committed: Optional[int], metadata: Optional[str]) -> None:
        """Start from the group's commit: its offset, and the finished offsets its metadata names."""
        if committed is None or committed < 0:
            return
        self.committed = committed
        self.committed_metadata = metadata or ""
        self._skip = decode_finished(committed, metadata)

    def receive(self, offset: int) -> bool:
        """Note a record; False when it must not run (finished before a restart, or seen already)."""
        if self._next is not None and offset < self._next:
            return False
        if self._first is None:
            self._first = offset
        self._next = offset + 1
        self._pending.append(offset)
        if offset in self._skip:
            self._skip.discard(offset)
            self.finish(offset)
            return False
        return True

    def finish(self, offset: int) -> None:
        pending, finished = self._pending, self._finished
        if not pending or offset < pending[0]:
            return
        finished.add(offset)
        while pending and pending[0] in finished:
            finished.discard(pending.popleft())

    def commit_point(self) -> Optional[int]:
        """The offset to commit: below it every record received has finished."""
        if self._pending:
            return self._pending[0]
        if self._next is not None:
            return self._next
        return self.committed

    def finished_above(self) -> List[int]:
        """Finished offsets above the commit point, including those restored and not yet reached."""
        return [*self._finished, *self._skip]

    def take_over(self, previous: "OffsetTracker") -> None:
        """Start again from this member's own earlier run of the partition, whose last commit the
        broker refused (a rebalance in progress): what that run finished is skipped, not redone.

        Only when the group's commit is still the one that run last made, so nobody else has
        processed the partition since."""
        if previous.committed != self.committed or previous._first is None:
            return
        point = previous.commit_point()
        base = self.committed if self.committed is not None else previous._first
        if point is not None and point > base:
            self._skip.update(range(base, point))
        self._skip.update(previous.finished_above())

    def commit(self, limit: int = DEFAULT_METADATA_LIMIT) -> Optional[Tuple[int, str]]:
        """(offset, metadata) to commit, or None when there is nothing new since the last commit."""
        point = self.commit_point()
        if point is None:
            return None
        metadata = encode_finished(point, self.finished_above(), limit)
        if point == self.committed and metadata == self.committed_metadata:
            return None
        return point, metadata
