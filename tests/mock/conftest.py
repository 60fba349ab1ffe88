"""Fixtures for tests against librdkafka's in-process mock cluster.

``mock_cluster`` (a three-broker ``MockCluster``) comes from the top-level
conftest. Everything here builds clients pointed at it and cleans them up.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, List

import pytest

from clients import Reports, client_factory, partition_reader
from confluent_kafka import Consumer, Message, Producer



@pytest.fixture
def reports() -> Callable[[], Reports]:
    """Factory of delivery-report collectors."""
    return Reports


@pytest.fixture
def bootstrap(mock_cluster: Any) -> str:
    return str(mock_cluster.bootstrap_servers)


@pytest.fixture
def make_producer(bootstrap: str) -> Iterator[Callable[..., Producer]]:
    """``make_producer(conf=None, **conf)``: a Producer on the mock cluster, closed at the end.

    A ``bootstrap.servers`` of None removes the key (use with ``test.mock.num.brokers``).
    """
    yield from client_factory(Producer, lambda: {"bootstrap.servers": bootstrap})


@pytest.fixture
def make_consumer(bootstrap: str) -> Iterator[Callable[..., Consumer]]:
    yield from client_factory(Consumer, lambda: {
        "bootstrap.servers": bootstrap,
        "group.id": "mock-tests",
        "enable.auto.commit": False,
        "auto.offset.reset": "earliest",
        "session.timeout.ms": 6000,
        "heartbeat.interval.ms": 1000,
    })


@pytest.fixture
def read_back(make_consumer: Callable[..., Consumer]) -> Callable[..., List[Message]]:
    """``read_back(topic, partition, count, timeout=30, **conf)``: see partition_reader."""
    return partition_reader(make_consumer, 30.0)
