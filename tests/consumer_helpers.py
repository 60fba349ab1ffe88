"""Helpers shared by the consumer tests of every tier (tests/*/test_consumer_*.py).

Everything here waits with a deadline: a helper that cannot reach its goal in time raises
AssertionError with what it saw, never blocks the run.
"""

from __future__ import annotations

import struct
import time
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition

GROUP_TIMEOUTS = {"session.timeout.ms": 6000, "heartbeat.interval.ms": 1000}


def produce_values(bootstrap: str, topic: str, values: Dict[int, Sequence[bytes]],
                   conf: Optional[dict] = None, timeout: float = 30.0) -> None:
    """Produce ``values[partition]`` in order to each partition and wait until all are acked."""
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, **(conf or {})})
    try:
        errors: List[KafkaError] = []

        def dr(err: Optional[KafkaError], msg: Message) -> None:
            if err is not None:
                errors.append(err)

        for partition, vals in values.items():
            for v in vals:
                p.produce(topic, v, partition=partition, on_delivery=dr)
        left = p.flush(timeout)
        assert left == 0, f"{left} messages not delivered to {topic} within {timeout}s"
        assert errors == [], f"delivery errors: {errors}"
    finally:
        p.close()


def batch(tag: str, partitions: Iterable[int], per_partition: int) -> Dict[int, List[bytes]]:
    """Distinct values ``b"<tag>-<partition>-<i>"`` for each partition."""
    return {p: [f"{tag}-{p}-{i}".encode() for i in range(per_partition)] for p in partitions}


def flat(values: Dict[int, Sequence[bytes]]) -> List[bytes]:
    return [v for vals in values.values() for v in vals]


def wait_for_topic(client: object, topic: str, partitions: Optional[int] = None,
                   timeout: float = 30.0) -> int:
    """Wait until ``topic`` shows up in the metadata (with ``partitions`` partitions if given)."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        md = client.list_topics(topic, timeout=10)  # type: ignore[attr-defined]
        t = md.topics.get(topic)
        last = t
        if t is not None and t.error is None and t.partitions and (
                partitions is None or len(t.partitions) == partitions):
            return len(t.partitions)
        assert time.monotonic() < deadline, f"topic {topic} not ready: {last!r}"
        time.sleep(0.2)


def read_messages(c: Consumer, count: int, timeout: float, what: str = "",
                  on_message: Optional[Callable[[Message], None]] = None) -> List[Message]:
    """Poll until ``count`` data messages arrived; error events other than end-of-partition fail."""
    out: List[Message] = []
    deadline = time.monotonic() + timeout
    while len(out) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"read {len(out)} of {count} messages {what} in {timeout}s: "
                                 f"{[m.value() for m in out]}")
        m = c.poll(min(left, 0.5))
        if m is None:
            continue
        err = m.error()
        if err is not None:
            if err.code() == KafkaError._PARTITION_EOF:
                continue
            raise AssertionError(f"unexpected error event {err!r} {what}")
        out.append(m)
        if on_message is not None:
            on_message(m)
    return out


def expect_quiet(c: Consumer, wait: float, what: str = "") -> None:
    """Assert that no data message arrives within ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        m = c.poll(min(left, 0.2))
        if m is not None and m.error() is None:
            raise AssertionError(f"unexpected message {m.value()!r} at {m.topic()}[{m.partition()}]"
                                 f"@{m.offset()} {what}")


def tps(topic: str, partitions: Iterable[int], offset: Optional[int] = None) -> List[TopicPartition]:
    if offset is None:
        return [TopicPartition(topic, p) for p in partitions]
    return [TopicPartition(topic, p, offset) for p in partitions]


def offsets_of(parts: Iterable[TopicPartition]) -> Dict[Tuple[str, int], int]:
    return {(tp.topic, tp.partition): tp.offset for tp in parts}


class Member:
    """One group member driven from the test thread: records its rebalance callbacks and the
    messages it receives, checks each message is from a partition it owns, and commits each
    message synchronously once "processed"."""

    def __init__(self, name: str, consumer: Consumer, cooperative: bool = False,
                 commit_each: bool = True) -> None:
        self.name = name
        self.c = consumer
        self.cooperative = cooperative
        self.commit_each = commit_each
        self.events: List[Tuple[str, Set[int]]] = []
        self.received: List[Message] = []
        self.expected: Set[Tuple[str, int]] = set()  # assignment replayed from the callbacks
        # The group generation this member was in when its last on_assign ran (None after a
        # revoke or loss): the generation whose assignment the application has taken up.
        self.assigned_generation: Optional[int] = None
        self.closed = False

    # rebalance callbacks ------------------------------------------------------------------
    def on_assign(self, consumer: Consumer, parts: List[TopicPartition]) -> None:
        assert consumer is self.c, "on_assign got another consumer"
        assert all(isinstance(p, TopicPartition) for p in parts)
        self.events.append(("assign", {p.partition for p in parts}))
        self.assigned_generation = self.generation()
        keys = {(p.topic, p.partition) for p in parts}
        if self.cooperative:
            assert not (keys & self.expected), f"{self.name}: re-assigned owned {keys & self.expected}"
            self.expected |= keys
        else:
            self.expected = keys

    def on_revoke(self, consumer: Consumer, parts: List[TopicPartition]) -> None:
        assert consumer is self.c, "on_revoke got another consumer"
        self.events.append(("revoke", {p.partition for p in parts}))
        self.assigned_generation = None
        keys = {(p.topic, p.partition) for p in parts}
        if self.cooperative:
            assert keys <= self.expected, f"{self.name}: revoked {keys - self.expected} it did not own"
            self.expected -= keys
        else:
            self.expected = set()

    def on_lost(self, consumer: Consumer, parts: List[TopicPartition]) -> None:
        self.events.append(("lost", {p.partition for p in parts}))
        self.assigned_generation = None
        self.expected -= {(p.topic, p.partition) for p in parts}

    def subscribe(self, topics: List[str]) -> None:
        self.c.subscribe(topics, on_assign=self.on_assign, on_revoke=self.on_revoke,
                         on_lost=self.on_lost)

    # driving ----------------------------------------------------------------------------
    def owned(self) -> Set[int]:
        return {tp.partition for tp in self.c.assignment()}

    def generation(self) -> int:
        """The classic-protocol group generation this member is in (-1 outside a group): the id
        its commits carry, taken from librdkafka's serialized group metadata ("CGMDv2:", then
        the generation as a native int32), which has no other accessor."""
        md = self.c.consumer_group_metadata()
        assert md[:7] == b"CGMDv2:", f"unknown consumer group metadata layout {md!r}"
        return struct.unpack_from("=i", md, 7)[0]

    def state(self) -> str:
        """Where the member stands, for failure messages."""
        if self.closed:
            return f"{self.name}: closed, events {self.events}, received {len(self.received)}"
        return (f"{self.name}: owns {sorted(self.owned())}, generation {self.generation()}, "
                f"assigned in generation {self.assigned_generation}, events {self.events}, "
                f"received {len(self.received)}")

    def step(self, timeout: float) -> None:
        if self.closed:
            return
        m = self.c.poll(timeout)
        if m is None:
            return
        err = m.error()
        if err is not None:
            if err.code() == KafkaError._PARTITION_EOF:
                return
            raise AssertionError(f"{self.name}: unexpected error event {err!r}")
        assigned = {(tp.topic, tp.partition) for tp in self.c.assignment()}
        assert (m.topic(), m.partition()) in assigned, (
            f"{self.name} got {m.topic()}[{m.partition()}]@{m.offset()} outside its assignment "
            f"{sorted(assigned)}")
        self.received.append(m)
        if self.commit_each:
            try:
                committed = self.c.commit(message=m, asynchronous=False)
            except KafkaException as e:
                # Say where the group stood: a commit refused for its generation means a
                # rebalance the test did not ask for started after the last one settled.
                raise AssertionError(
                    f"commit of {m.topic()}[{m.partition()}]@{m.offset()} failed: {e}; "
                    f"{self.state()}") from e
            assert [(tp.partition, tp.offset) for tp in committed] == [(m.partition(), m.offset() + 1)]

    def close(self) -> None:
        self.closed = True
        self.c.close()


def drive(members: Sequence[Member], until: Callable[[], bool], timeout: float, what: str) -> float:
    """Poll every open member in turn until ``until()`` holds; returns the seconds it took."""
    t0 = time.monotonic()
    deadline = t0 + timeout
    while not until():
        if time.monotonic() > deadline:
            detail = "; ".join(m.state() for m in members)
            raise AssertionError(f"timed out after {timeout}s waiting for {what}: {detail}")
        for m in members:
            m.step(0.05)
    return time.monotonic() - t0


def balanced(members: Sequence[Member], partitions: Set[int]) -> Callable[[], bool]:
    """True once the open members' assignments are disjoint, non-empty, cover ``partitions``,
    differ in size by at most one, and match what their callbacks told them."""

    def check() -> bool:
        sets = [m.owned() for m in members if not m.closed]
        if any(not s for s in sets):
            return False
        union: Set[int] = set()
        for s in sets:
            if union & s:
                return False
            union |= s
        if union != partitions:
            return False
        sizes = [len(s) for s in sets]
        if max(sizes) - min(sizes) > 1:
            return False
        return all({p for _, p in m.expected} == m.owned() for m in members if not m.closed)

    return check


def settled(members: Sequence[Member], partitions: Set[int]) -> Callable[[], bool]:
    """True once the rebalance is over for every open member of a classic-protocol group: the
    assignments are ``balanced``, and all members are in the same generation and have taken up
    their assignment of that generation (their last on_assign ran in it).

    Balanced assignments alone do not say that: a member whose partitions do not move keeps them
    (cooperative) or may not have rejoined yet, so the assignments can look final while that
    member still waits for its JoinGroup answer in the old generation, and a commit it makes then
    is refused (ILLEGAL_GENERATION or REBALANCE_IN_PROGRESS), as the protocol allows."""
    is_balanced = balanced(members, partitions)

    def check() -> bool:
        if not is_balanced():
            return False
        open_members = [m for m in members if not m.closed]
        gens = {m.generation() for m in open_members}
        if len(gens) != 1:
            return False
        gen = gens.pop()
        return gen >= 0 and all(m.assigned_generation == gen for m in open_members)

    return check
