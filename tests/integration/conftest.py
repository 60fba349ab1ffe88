"""Fixtures for tests against the tansu broker (``kafka_bootstrap`` from the top-level conftest)."""

from __future__ import annotations

import time
import uuid
from typing import Any, Callable, Iterator, List, Optional, Tuple

import pytest

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Message, Producer, TopicPartition


class Reports:
    """A delivery callback that records ``(err, msg)`` pairs."""

    def __init__(self) -> None:
        self.calls: List[Tuple[Optional[KafkaError], Message]] = []

    def __call__(self, err: Optional[KafkaError], msg: Message) -> None:
        self.calls.append((err, msg))

    def __len__(self) -> int:
        return len(self.calls)

    @property
    def errors(self) -> List[Optional[KafkaError]]:
        return [e for e, _ in self.calls]

    @property
    def messages(self) -> List[Message]:
        return [m for _, m in self.calls]


@pytest.fixture
def reports() -> Callable[[], Reports]:
    return Reports


@pytest.fixture
def make_producer(kafka_bootstrap: str) -> Iterator[Callable[..., Producer]]:
    made: List[Producer] = []

    def factory(conf: Optional[dict] = None, **kwargs: Any) -> Producer:
        base: dict = {"bootstrap.servers": kafka_bootstrap}
        base.update(conf or {})
        base.update(kwargs)
        p = Producer(base)
        made.append(p)
        return p

    yield factory
    for p in made:
        try:
            p.purge()
            p.poll(0)
        except Exception:
            pass
        try:
            p.close()
        except Exception:
            pass


@pytest.fixture
def make_consumer(kafka_bootstrap: str) -> Iterator[Callable[..., Consumer]]:
    made: List[Consumer] = []

    def factory(conf: Optional[dict] = None, **kwargs: Any) -> Consumer:
        base: dict = {
            "bootstrap.servers": kafka_bootstrap,
            "group.id": f"it-{uuid.uuid4().hex[:12]}",
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "session.timeout.ms": 6000,
            "heartbeat.interval.ms": 1000,
        }
        base.update(conf or {})
        base.update(kwargs)
        c = Consumer(base)
        made.append(c)
        return c

    yield factory
    for c in made:
        try:
            c.close()
        except Exception:
            pass


def _read(c: Consumer, count: int, timeout: float, what: str) -> List[Message]:
    out: List[Message] = []
    deadline = time.monotonic() + timeout
    while len(out) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"read {len(out)} of {count} messages from {what}")
        for m in c.consume(min(count - len(out), 10_000), min(left, 1.0)):
            err = m.error()
            if err is not None:
                if err.code() == KafkaError._PARTITION_EOF:
                    continue
                raise AssertionError(f"consume error: {err!r}")
            out.append(m)
    return out


@pytest.fixture
def read_back(make_consumer: Callable[..., Consumer]) -> Callable[..., List[Message]]:
    """``read_back(topic, partition, count, timeout=60, **conf)``: the first ``count``
    messages of one partition, read with assign() from the beginning."""

    def read(topic: str, partition: int, count: int, timeout: float = 60.0,
             **conf: Any) -> List[Message]:
        c = make_consumer(conf)
        c.assign([TopicPartition(topic, partition, OFFSET_BEGINNING)])
        try:
            return _read(c, count, timeout, f"{topic}[{partition}]")
        finally:
            c.close()

    return read


@pytest.fixture
def expect_nothing(make_consumer: Callable[..., Consumer]) -> Callable[..., None]:
    """``expect_nothing(topic, partition, start=OFFSET_BEGINNING, wait=3, **conf)``:
    assert that no message at or after offset ``start`` arrives within ``wait`` seconds."""

    def check(topic: str, partition: int, start: int = OFFSET_BEGINNING, wait: float = 3.0,
              **conf: Any) -> None:
        c = make_consumer(conf)
        c.assign([TopicPartition(topic, partition, start)])
        try:
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                m = c.poll(0.2)
                if m is not None and m.error() is None:
                    raise AssertionError(f"unexpected message {m.value()!r} at {m.offset()}")
        finally:
            c.close()

    return check


@pytest.fixture
def partition_count(make_producer: Callable[..., Producer]) -> Callable[[str], int]:
    """Make sure a topic exists (auto-creation) and return its partition count."""

    def count(topic: str) -> int:
        p = make_producer()
        deadline = time.monotonic() + 30
        while True:
            md = p.list_topics(topic, timeout=10)
            t = md.topics.get(topic)
            if t is not None and t.error is None and t.partitions:
                return len(t.partitions)
            assert time.monotonic() < deadline, f"topic {topic} did not appear: {t!r}"
            time.sleep(0.2)

    return count
