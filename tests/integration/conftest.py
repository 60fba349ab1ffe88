"""Fixtures for tests against the tansu broker (``kafka_bootstrap`` from the top-level conftest)."""

from __future__ import annotations

import os
import time
import uuid
from typing import Any, Callable, Iterator, List

import pytest

from clients import Reports, client_factory, partition_reader
from confluent_kafka.admin import AdminClient
from confluent_kafka import OFFSET_BEGINNING, Consumer, Message, Producer, TopicPartition


@pytest.fixture
def reports() -> Callable[[], Reports]:
    return Reports


@pytest.fixture
def admin(kafka_bootstrap: str) -> Iterator[AdminClient]:
    """An AdminClient on the test broker, closed when the test ends."""
    a = AdminClient({"bootstrap.servers": kafka_bootstrap})
    yield a
    a.close()


@pytest.fixture
def make_producer(kafka_bootstrap: str) -> Iterator[Callable[..., Producer]]:
    yield from client_factory(Producer, lambda: {"bootstrap.servers": kafka_bootstrap})


@pytest.fixture
def make_consumer(kafka_bootstrap: str) -> Iterator[Callable[..., Consumer]]:
    """Consumers on the test broker. ``IT_CONSUMER_DEBUG=cgrp`` (any librdkafka ``debug`` value)
    in the environment makes them log to stderr, e.g. to see why a group rebalanced."""
    yield from client_factory(Consumer, lambda: {
        "bootstrap.servers": kafka_bootstrap,
        "group.id": f"it-{uuid.uuid4().hex[:12]}",
        "enable.auto.commit": False,
        "auto.offset.reset": "earliest",
        "session.timeout.ms": 6000,
        "heartbeat.interval.ms": 1000,
        **({"debug": os.environ["IT_CONSUMER_DEBUG"]} if os.environ.get("IT_CONSUMER_DEBUG") else {}),
    })


@pytest.fixture
def read_back(make_consumer: Callable[..., Consumer]) -> Callable[..., List[Message]]:
    """``read_back(topic, partition, count, timeout=60, **conf)``: see partition_reader."""
    return partition_reader(make_consumer, 60.0)


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
