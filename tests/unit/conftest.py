"""Fixtures for the broker-less unit tests.

Nothing here talks to a Kafka broker. Clients that need a ``bootstrap.servers``
point at a loopback port where nothing listens (connections are refused at
once), so they stay in a predictable "cannot deliver" state.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import pytest

from clients import client_factory
from confluent_kafka import Consumer, Producer

# Nothing listens on port 1 of the loopback interface: connects fail immediately.
UNREACHABLE = "127.0.0.1:1"


@pytest.fixture
def unreachable() -> str:
    """A loopback bootstrap address where no broker listens."""
    return UNREACHABLE


@pytest.fixture
def make_producer() -> Iterator[Callable[..., Producer]]:
    """``make_producer(conf=None, broker=True, **conf)``: a quiet Producer pointed at an
    unreachable loopback port, disposed of when the test ends. With ``broker=False`` there is no
    bootstrap server at all: the client then sends no requests and serves no events by itself,
    so ``len(p)`` counts only messages."""
    factories = client_factory(Producer, lambda: {"log_level": 0, "bootstrap.servers": UNREACHABLE})
    make = next(factories)

    def factory(conf: Any = None, *, broker: bool = True, **kwargs: Any) -> Producer:
        if not broker:
            kwargs["bootstrap.servers"] = None
        return make(conf, **kwargs)

    yield factory
    next(factories, None)


@pytest.fixture
def make_consumer() -> Iterator[Callable[..., Consumer]]:
    """Factory for Consumers (with a group.id) that are closed when the test ends."""
    yield from client_factory(Consumer, lambda: {
        "bootstrap.servers": UNREACHABLE,
        "group.id": "unit-test-group",
        "log_level": 0,
        "session.timeout.ms": 6000,
        "heartbeat.interval.ms": 1000,
    })


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Report how many calls the fuzz tests made (tests/unit/test_fuzz_*.py)."""
    from fuzzing import CASES, EXAMPLES

    if CASES:
        total = sum(v for k, v in CASES.items() if k != "cleanup")
        terminalreporter.write_line(
            f"fuzz: {total} calls over {len(CASES) - ('cleanup' in CASES)} entry points "
            f"({EXAMPLES} examples per test; CFL_FUZZ_EXAMPLES for more)")
