"""Helpers for the parallel consumer's tests: a topic of keyed records, a recorder that checks
the guarantees while handlers run, and bounded runs of consumers on threads."""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from confluent_kafka import Consumer, Producer, TopicPartition

Record = Tuple[int, int]  # (partition, offset)


def produce_keyed(bootstrap: str, topic: str, count: int, keys: int, partitions: int = 4) -> Dict[int, int]:
    """``count`` records with ``keys`` keys spread by the default partitioner; the end offset of
    each partition."""
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    ends: Dict[int, int] = defaultdict(int)

    def delivered(err: Any, msg: Any) -> None:
        assert err is None, err
        ends[msg.partition()] = max(ends[msg.partition()], msg.offset() + 1)

    for i in range(count):
        producer.produce(topic, key=f"key-{i % keys}", value=f"{i}".encode(), on_delivery=delivered)
        if i % 1000 == 0:
            producer.poll(0)
    assert producer.flush(30) == 0
    producer.close()
    return {p: ends.get(p, 0) for p in range(partitions)}


def committed(bootstrap: str, group: str, topic: str, partitions: int = 4) -> List[TopicPartition]:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group})
    try:
        return consumer.committed([TopicPartition(topic, p) for p in range(partitions)], 30)
    finally:
        consumer.close()


class Recorder:
    """Watches handler calls: overlaps of one key (or partition), order, what ran how often."""

    def __init__(self, scope: str = "key") -> None:
        self.scope = scope
        self.lock = threading.Lock()
        self.active: Set[Any] = set()
        self.overlaps: List[Any] = []
        self.finished: Dict[Any, List[int]] = defaultdict(list)
        self.runs: Dict[Record, int] = defaultdict(int)
        self.done = threading.Condition(self.lock)

    def _slot(self, msg: Any) -> Any:
        if self.scope == "partition":
            return msg.partition()
        return (msg.partition(), msg.key())

    def start(self, msg: Any) -> None:
        if self.scope == "unordered":
            return
        with self.lock:
            slot = self._slot(msg)
            if slot in self.active:
                self.overlaps.append(slot)
            self.active.add(slot)

    def end(self, msg: Any) -> None:
        with self.lock:
            if self.scope != "unordered":
                slot = self._slot(msg)
                self.active.discard(slot)
                self.finished[slot].append(msg.offset())
            self.runs[(msg.partition(), msg.offset())] += 1
            self.done.notify_all()

    def wait_for(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` distinct records finished."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while len(self.runs) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.done.wait(left)
            return True

    def handler(self, seconds: float = 0.0, then: Optional[Callable[[Any], None]] = None) -> Callable[[Any], None]:
        def handle(msg: Any) -> None:
            self.start(msg)
            try:
                if seconds:
                    time.sleep(seconds)
                if then is not None:
                    then(msg)
            finally:
                self.end(msg)
        return handle

    def out_of_order(self) -> List[Any]:
        """Keys (or partitions) with a record that finished before an earlier one that had not yet
        run. Running an already finished record again (a restart from an earlier commit) is not
        a reordering."""
        bad = []
        for slot, offsets in self.finished.items():
            seen: Set[int] = set()
            high = -1
            for offset in offsets:
                if offset < high and offset not in seen:
                    bad.append(slot)
                    break
                high = max(high, offset)
                seen.add(offset)
        return bad

    def twice(self) -> int:
        return sum(n - 1 for n in self.runs.values())

    def missing(self, ends: Dict[int, int]) -> List[Record]:
        return [(p, o) for p, end in ends.items() for o in range(end) if (p, o) not in self.runs]


class Running:
    """``pc.run(handler)`` on a thread, with what it raised; stop() and join bounded."""

    def __init__(self, pc: Any, handler: Callable[[Any], None]) -> None:
        self.pc = pc
        self.error: Optional[BaseException] = None
        self.thread = threading.Thread(target=self._run, args=(handler,), daemon=True)
        self.thread.start()

    def _run(self, handler: Callable[[Any], None]) -> None:
        try:
            self.pc.run(handler)
        except BaseException as exc:  # noqa: B902 - kept for the test to assert on
            self.error = exc

    # run() may wait revoke_timeout (30 s) twice on its way out, for records in process and then in
    # the revoke that closing the consumer runs, before the consumer leaves its group.
    def stop(self, timeout: float = 150.0) -> None:
        self.pc.stop()
        self.join(timeout)

    def join(self, timeout: float = 150.0) -> None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "run() did not return"


def members_come_and_go(bootstrap: str, topic: str, group: str, strategy: str, count: int,
                        ends: Dict[int, int], step: float = 60.0, settle: bool = False,
                        seconds: float = 0.003) -> Recorder:
    """Members of one group join and leave while ``count`` records are processed; checks that
    nothing is lost, no key runs on two members at once, each key keeps its order, and the
    group's commits reach the ends. Returns the recorder, for what ran twice.

    Each change waits for a tenth of the records more to finish; with ``settle`` it first waits
    for every member to hold partitions (for a broker whose rebalances take seconds)."""
    from confluent_kafka.parallel import ParallelConsumer

    # One recorder for every member: an overlap or a reordering across members shows too.
    rec = Recorder("key")
    handler = rec.handler(seconds)
    members: List[Running] = []

    def join() -> Running:
        pc = ParallelConsumer({"bootstrap.servers": bootstrap, "group.id": group,
                               "auto.offset.reset": "earliest", "session.timeout.ms": 6000,
                               "heartbeat.interval.ms": 500, "partition.assignment.strategy": strategy},
                              max_concurrency=4, commit_interval=0.1)
        pc.subscribe([topic])
        members.append(Running(pc, handler))
        return members[-1]

    def where() -> str:
        """Each member's partitions and records in process, for a failure's message."""
        return "; ".join(f"member {i}: {sorted(m.pc.stats()['partitions'])}, in flight "
                         f"{m.pc.stats()['in_flight']}" for i, m in enumerate(members)) + f"; {len(rec.runs)} done"

    def progress() -> None:
        if settle:
            deadline = time.monotonic() + step
            live = [m for m in members if m.thread.is_alive()]
            while not all(m.pc.stats()["partitions"] for m in live) and time.monotonic() < deadline:
                time.sleep(0.1)
        with rec.lock:
            goal = min(count, len(rec.runs) + count // 10)
        assert rec.wait_for(goal, step), where()

    try:
        first = join()
        progress()
        join()
        progress()
        join()
        progress()
        first.stop()  # leaves mid-run: its partitions move to the others
        assert first.error is None, repr(first.error)
        progress()
        members[1].stop()
        progress()
        assert rec.wait_for(count, step * 1.5), where()
    finally:
        for member in members:
            member.stop()
    assert [m.error for m in members] == [None] * len(members)
    assert rec.missing(ends) == []
    assert rec.overlaps == [], f"two records of one key at once: {rec.overlaps[:5]}"
    assert rec.out_of_order() == []
    assert [(p.partition, p.offset) for p in committed(bootstrap, group, topic)] == sorted(ends.items())
    assert all(m.pc.stats()["processed"] > 0 for m in members), [m.pc.stats()["processed"] for m in members]
    return rec
