"""Fixtures for tests against librdkafka's in-process mock cluster.

``mock_cluster`` (a three-broker ``MockCluster``) comes from the top-level
conftest. Everything here builds clients pointed at it and cleans them up.
"""

from __future__ import annotations

import time
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

    def wait(self, p: Producer, n: int, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.calls) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"only {len(self.calls)} of {n} delivery reports arrived")
            p.poll(min(left, 0.5))


@pytest.fixture
def reports() -> Callable[[], Reports]:
    """Factory of delivery-report collectors."""
    return Reports


@pytest.fixture
def bootstrap(mock_cluster: Any) -> str:
    return str(mock_cluster.bootstrap_servers)


def _dispose(p: Producer) -> None:
    try:
        p.purge(in_queue=True, in_flight=True)
        p.poll(0)
    except Exception:
        pass
    try:
        p.close()
    except Exception:
        pass


@pytest.fixture
def make_producer(bootstrap: str) -> Iterator[Callable[..., Producer]]:
    """``make_producer(conf=None, **conf)``: a Producer on the mock cluster, closed at the end.

    A ``bootstrap.servers`` of None removes the key (use with ``test.mock.num.brokers``).
    """
    made: List[Producer] = []

    def factory(conf: Optional[dict] = None, **kwargs: Any) -> Producer:
        base: dict = {"bootstrap.servers": bootstrap}
        base.update(conf or {})
        base.update(kwargs)
        p = Producer({k: v for k, v in base.items() if v is not None})
        made.append(p)
        return p

    yield factory
    for p in made:
        _dispose(p)


@pytest.fixture
def make_consumer(bootstrap: str) -> Iterator[Callable[..., Consumer]]:
    made: List[Consumer] = []

    def factory(conf: Optional[dict] = None, **kwargs: Any) -> Consumer:
        base: dict = {
            "bootstrap.servers": bootstrap,
            "group.id": "mock-tests",
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "session.timeout.ms": 6000,
            "heartbeat.interval.ms": 1000,
        }
        base.update(conf or {})
        base.update(kwargs)
        c = Consumer({k: v for k, v in base.items() if v is not None})
        made.append(c)
        return c

    yield factory
    for c in made:
        try:
            c.close()
        except Exception:
            pass


@pytest.fixture
def read_back(make_consumer: Callable[..., Consumer]) -> Callable[..., List[Message]]:
    """``read_back(topic, partition, count, timeout=30, **conf)``: the first ``count``
    messages of one partition, read with assign() from the beginning."""

    def read(topic: str, partition: int, count: int, timeout: float = 30.0,
             **conf: Any) -> List[Message]:
        c = make_consumer(conf)
        c.assign([TopicPartition(topic, partition, OFFSET_BEGINNING)])
        out: List[Message] = []
        deadline = time.monotonic() + timeout
        while len(out) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"read {len(out)} of {count} messages from {topic}[{partition}]")
            for m in c.consume(count - len(out), min(left, 1.0)):
                if m.error() is not None:
                    if m.error().code() == KafkaError._PARTITION_EOF:
                        continue
                    raise AssertionError(f"consume error: {m.error()!r}")
                out.append(m)
        c.close()
        return out

    return read
