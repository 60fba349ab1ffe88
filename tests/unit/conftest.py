"""Fixtures for the broker-less unit tests.

Nothing here talks to a Kafka broker. Clients that need a ``bootstrap.servers``
point at a loopback port where nothing listens (connections are refused at
once), so they stay in a predictable "cannot deliver" state.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, List

import pytest

from confluent_kafka import Consumer, Producer

# Nothing listens on port 1 of the loopback interface: connects fail immediately.
UNREACHABLE = "127.0.0.1:1"


@pytest.fixture
def unreachable() -> str:
    """A loopback bootstrap address where no broker listens."""
    return UNREACHABLE


def _dispose_producer(p: Producer) -> None:
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
def make_producer() -> Iterator[Callable[..., Producer]]:
    """Factory for Producers that are purged and closed when the test ends.

    ``make_producer(conf=None, broker=True, **conf)`` merges ``conf`` (keys verbatim)
    over a quiet default config pointing at an unreachable loopback port. With
    ``broker=False`` there is no bootstrap server at all: the client then sends no
    requests and serves no events by itself, so ``len(p)`` counts only messages.
    """
    made: List[Producer] = []

    def factory(conf: Any = None, *, broker: bool = True, **kwargs: Any) -> Producer:
        base: dict = {"log_level": 0}
        if broker:
            base["bootstrap.servers"] = UNREACHABLE
        if conf:
            base.update(conf)
        base.update(kwargs)
        base = {k: v for k, v in base.items() if v is not None}
        p = Producer(base)
        made.append(p)
        return p

    yield factory
    for p in made:
        _dispose_producer(p)


@pytest.fixture
def make_consumer() -> Iterator[Callable[..., Consumer]]:
    """Factory for Consumers (with a group.id) that are closed when the test ends."""
    made: List[Consumer] = []

    def factory(conf: Any = None, **kwargs: Any) -> Consumer:
        base: dict = {
            "bootstrap.servers": UNREACHABLE,
            "group.id": "unit-test-group",
            "log_level": 0,
            "session.timeout.ms": 6000,
            "heartbeat.interval.ms": 1000,
        }
        if conf:
            base.update(conf)
        base.update(kwargs)
        base = {k: v for k, v in base.items() if v is not None}
        c = Consumer(base)
        made.append(c)
        return c

    yield factory
    for c in made:
        try:
            c.close()
        except Exception:
            pass
