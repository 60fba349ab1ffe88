"""The dispatcher: which record runs next, what each partition may commit, which to pause.

It does no I/O and calls no client: the owner of the Consumer feeds it records and asks it what to
commit, pause and resume; workers (threads or asyncio tasks) take records from it and hand them
back. One lock of its own guards everything, so it stays correct on free-threaded builds.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any, Deque, Dict, Hashable, Iterable, List, Optional, Sequence, Tuple

from ._offsets import DEFAULT_METADATA_LIMIT, OffsetTracker
from ._stats import Counters

TP = Tuple[str, int]

# How many latencies the percentiles of stats() are taken over: the most recent ones.
_LATENCY_WINDOW = 4096


class Work:
    """One record on its way through a handler."""

    __slots__ = ("msg", "tp", "offset", "okey", "size", "tracker", "attempts")

    def __init__(self, msg: Any, tp: TP, okey: Optional[Hashable], size: int, tracker: OffsetTracker) -> None:
        self.msg = msg
        self.tp = tp
        self.offset: int = msg.offset()
        self.okey = okey
        self.size = size
        self.tracker = tracker
        self.attempts = 0


def _size(msg: Any) -> int:
    value, key = msg.value(), msg.key()
    return (len(value) if value is not None else 0) + (len(key) if key is not None else 0) + 100


class Dispatcher:
    """Per-partition offset trackers, per-key queues and the records ready to run."""

    def __init__(self, ordering: str, max_waiting: int, max_waiting_bytes: int,
                 metadata_limit: int = DEFAULT_METADATA_LIMIT) -> None:
        self._ordering = ordering
        self._max_waiting = max_waiting
        self._max_waiting_bytes = max_waiting_bytes
        self._metadata_limit = metadata_limit
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._parts: Dict[TP, OffsetTracker] = {}
        # Partitions released with progress the broker did not take, kept until assigned again.
        self._held: Dict[TP, OffsetTracker] = {}
        # Records whose key is free, oldest first; for each key with a record ready or running,
        # the records of that key waiting behind it.
        self._ready: Deque[Work] = deque()
        self._behind: Dict[Hashable, Deque[Work]] = {}
        self._waiting_bytes = 0
        self._in_flight = 0
        self._closed = False
        self.failure: Optional[Tuple[Work, BaseException]] = None
        self.counters = Counters(_LATENCY_WINDOW)

    # -- the owner's side ------------------------------------------------------------------

    def assign(self, committed: Iterable[Tuple[TP, Optional[int], Optional[str]]]) -> None:
        """Take partitions on, each from its group commit (offset and metadata)."""
        with self._lock:
            for tp, offset, metadata in committed:
                tracker = OffsetTracker()
                tracker.restore(offset, metadata)
                held = self._held.pop(tp, None)
                if held is not None:
                    tracker.take_over(held)
                self._parts[tp] = tracker

    def add(self, messages: Sequence[Any]) -> int:
        """Queue consumed records; those of unassigned partitions or finished before are dropped."""
        added = 0
        with self._lock:
            parts, ordering = self._parts, self._ordering
            for msg in messages:
                tp = (msg.topic(), msg.partition())
                tracker = parts.get(tp)
                if tracker is None:
                    continue
                if not tracker.receive(msg.offset()):
                    self.counters.skipped_on_restart += 1
                    continue
                if ordering == "key":
                    key = msg.key()
                    okey: Optional[Hashable] = None if key is None else (tp, key)
                elif ordering == "partition":
                    okey = tp
                else:
                    okey = None
                work = Work(msg, tp, okey, _size(msg), tracker)
                tracker.waiting += 1
                tracker.waiting_bytes += work.size
                self._waiting_bytes += work.size
                behind = self._behind.get(okey) if okey is not None else None
                if behind is not None:
                    behind.append(work)
                else:
                    if okey is not None:
                        self._behind[okey] = deque()
                    self._ready.append(work)
                added += 1
            if added:
                self._changed.notify(added)
        return added

    def revoke(self, tps: Iterable[TP]) -> None:
        """Stop handing out these partitions' records and drop those not yet started."""
        with self._lock:
            gone = {tp for tp in tps if tp in self._parts}
            if not gone:
                return
            keep: Deque[Work] = deque()
            for work in self._ready:
                if work.tp in gone:
                    self._unwait(work)
                    if work.okey is not None:
                        for dropped in self._behind.pop(work.okey, ()):
                            self._unwait(dropped)
                else:
                    keep.append(work)
            self._ready = keep
            for okey, behind in self._behind.items():
                if behind and behind[0].tp in gone:
                    for dropped in behind:
                        self._unwait(dropped)
                    behind.clear()
            for tp in gone:
                self._parts[tp].paused = False

    def release(self, tps: Iterable[TP]) -> None:
        """Forget these partitions; a record of theirs finishing later changes nothing.

        A partition with progress not committed is held: if this member gets it back before
        anyone else commits it, what it finished is skipped (see OffsetTracker.take_over)."""
        with self._lock:
            for tp in tps:
                tracker = self._parts.pop(tp, None)
                if tracker is not None and tracker.commit() is not None:
                    self._held[tp] = tracker
                else:
                    self._held.pop(tp, None)

    def wait_idle(self, tps: Optional[Iterable[TP]], timeout: float) -> bool:
        """Wait until no record of these partitions (of any, for None) runs; False on timeout."""
        deadline = time.monotonic() + timeout
        tps = None if tps is None else list(tps)
        with self._changed:
            while self._busy(tps):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.5))
            return True

    def busy(self, tps: Optional[Iterable[TP]]) -> bool:
        """Whether a record of these partitions (of any, for None) is running."""
        with self._lock:
            return self._busy(None if tps is None else list(tps))

    def _busy(self, tps: Optional[List[TP]]) -> bool:
        if tps is None:
            return self._in_flight > 0
        return any(self._parts[tp].in_flight for tp in tps if tp in self._parts)

    def commits(self, tps: Optional[Iterable[TP]] = None) -> List[Tuple[TP, int, str]]:
        """(partition, offset, metadata) for each partition with progress not yet committed."""
        with self._lock:
            chosen = self._parts.keys() if tps is None else [tp for tp in tps if tp in self._parts]
            out = []
            for tp in chosen:
                commit = self._parts[tp].commit(self._metadata_limit)
                if commit is not None:
                    out.append((tp, commit[0], commit[1]))
            return out

    def committed(self, tp: TP, offset: int, metadata: str) -> None:
        """Note an acknowledged commit."""
        with self._lock:
            tracker = self._parts.get(tp)
            if tracker is not None:
                tracker.committed, tracker.committed_metadata = offset, metadata
                self.counters.commits += 1

    def backpressure(self) -> Tuple[List[TP], List[TP]]:
        """Partitions to pause (too much waiting) and to resume (drained to half the bound)."""
        pause: List[TP] = []
        resume: List[TP] = []
        with self._lock:
            bytes_full = self._waiting_bytes >= self._max_waiting_bytes
            bytes_low = self._waiting_bytes <= self._max_waiting_bytes // 2
            for tp, tracker in self._parts.items():
                if not tracker.paused:
                    if tracker.waiting >= self._max_waiting or (bytes_full and tracker.waiting):
                        tracker.paused = True
                        pause.append(tp)
                elif tracker.waiting <= self._max_waiting // 2 and bytes_low:
                    tracker.paused = False
                    resume.append(tp)
            self.counters.pauses += len(pause)
        return pause, resume

    def count(self, name: str) -> None:
        """One more of a counter of stats() (retries, skipped, dead_lettered)."""
        with self._lock:
            setattr(self.counters, name, getattr(self.counters, name) + 1)

    def set_high_watermarks(self, marks: Dict[TP, int]) -> None:
        with self._lock:
            for tp, high in marks.items():
                tracker = self._parts.get(tp)
                if tracker is not None:
                    tracker.high_watermark = high

    def assigned(self) -> List[TP]:
        with self._lock:
            return list(self._parts)

    def close(self) -> None:
        """Hand out nothing more; workers waiting in take() get None."""
        with self._lock:
            self._closed = True
            self._changed.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def in_flight(self) -> int:
        return self._in_flight

    # -- the workers' side -----------------------------------------------------------------

    def take(self, timeout: Optional[float] = None) -> Optional[Work]:
        """The next record whose key is free; None once closed (or, with a timeout, when none came)."""
        with self._lock:
            while not self._ready:
                if self._closed or timeout == 0:
                    return None
                if not self._changed.wait(timeout) and timeout is not None:
                    return None
            if self._closed:
                return None
            work = self._ready.popleft()
            self._unwait(work)
            work.tracker.in_flight += 1
            self._in_flight += 1
            return work

    def finish(self, work: Work, latency: Optional[float] = None) -> None:
        """A record is done (handled, skipped or dead-lettered): its offset may be committed."""
        with self._lock:
            work.tracker.finish(work.offset)
            if latency is not None:
                self.counters.latency(latency)
            self._done(work)

    def fail(self, work: Work, error: BaseException) -> None:
        """A record failed for good: nothing is committed past it and dispatching stops."""
        with self._lock:
            work.tracker.failed_offset = work.offset
            if self.failure is None:
                self.failure = (work, error)
            self._closed = True
            self.counters.failed += 1
            self._done(work)
            self._changed.notify_all()

    def abandon(self, work: Work) -> None:
        """A record left unfinished (stopping mid-retry): it runs again after a restart."""
        with self._lock:
            self._done(work)

    def _done(self, work: Work) -> None:
        work.tracker.in_flight -= 1
        self._in_flight -= 1
        if work.okey is not None:
            behind = self._behind.get(work.okey)
            if behind:
                self._ready.append(behind.popleft())
            else:
                self._behind.pop(work.okey, None)
        self._changed.notify_all()

    def _unwait(self, work: Work) -> None:
        work.tracker.waiting -= 1
        work.tracker.waiting_bytes -= work.size
        self._waiting_bytes -= work.size

    # -- what stats() shows ----------------------------------------------------------------

    def snapshot(self) -> Dict[str, Any]:
        with self._lock:
            partitions = {}
            waiting = 0
            for (topic, partition), t in self._parts.items():
                point = t.commit_point()
                waiting += t.waiting
                partitions[f"{topic}[{partition}]"] = {
                    "topic": topic, "partition": partition,
                    "committed": t.committed, "finished": point,
                    "finished_above": len(t.finished_above()),
                    "in_flight": t.in_flight, "waiting": t.waiting, "paused": t.paused,
                    "lag": None if t.high_watermark is None or t.high_watermark < 0 else
                    max(0, t.high_watermark - (t.committed if t.committed is not None else 0)),
                }
            out = self.counters.snapshot()
            out.update(in_flight=self._in_flight, waiting=waiting, waiting_bytes=self._waiting_bytes,
                       partitions=partitions)
            return out
