"""logger, stats_cb and error_cb are forwarded from poll() (mock cluster)."""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any, Callable, List

import pytest

from confluent_kafka import KafkaError, Producer
from confluent_kafka.testing import MockCluster

pytestmark = pytest.mark.mock


class ListHandler(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: List[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def captured_logger() -> Any:
    logger = logging.getLogger(f"ck-test-{time.monotonic_ns()}")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    handler = ListHandler()
    logger.addHandler(handler)
    yield logger, handler
    logger.removeHandler(handler)


def test_logger_records_are_emitted_from_the_polling_thread(
        unique_topic: str, make_producer: Callable, captured_logger: Any) -> None:
    logger, handler = captured_logger
    p = make_producer({"debug": "broker,topic,msg", "logger": logger})
    time.sleep(0.5)  # librdkafka threads log meanwhile; nothing must reach Python yet
    from_other_threads = [r for r in handler.records if r.thread != threading.get_ident()]
    assert from_other_threads == []
    p.produce(unique_topic, b"x")
    assert p.flush(30) == 0
    deadline = time.monotonic() + 10
    while len(handler.records) < 5 and time.monotonic() < deadline:
        p.poll(0.2)
    assert len(handler.records) >= 5
    assert {r.thread for r in handler.records} == {threading.get_ident()}
    assert any(r.levelno == logging.DEBUG for r in handler.records)
    assert all(r.getMessage() for r in handler.records)


def test_logger_as_keyword_argument(unique_topic: str, bootstrap: str,
                                    captured_logger: Any) -> None:
    logger, handler = captured_logger
    p = Producer({"bootstrap.servers": bootstrap, "debug": "broker"}, logger=logger)
    try:
        deadline = time.monotonic() + 10
        while not handler.records and time.monotonic() < deadline:
            p.poll(0.2)
        assert handler.records
    finally:
        p.close()


def test_consumer_logger(make_consumer: Callable, unique_topic: str, captured_logger: Any) -> None:
    logger, handler = captured_logger
    c = make_consumer({"debug": "consumer,broker", "logger": logger})
    c.subscribe([unique_topic])
    deadline = time.monotonic() + 10
    while not handler.records and time.monotonic() < deadline:
        c.poll(0.2)
    assert handler.records
    assert {r.thread for r in handler.records} == {threading.get_ident()}


def test_logger_exception_surfaces_from_poll(make_producer: Callable) -> None:
    class Exploding(logging.Logger):
        def log(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
            raise RuntimeError("logger broke")

        def _log(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
            raise RuntimeError("logger broke")

    exploding = Exploding("exploding")
    exploding.setLevel(logging.DEBUG)
    p = make_producer({"debug": "broker", "logger": exploding})
    deadline = time.monotonic() + 10
    with pytest.raises(RuntimeError, match="logger broke"):
        while time.monotonic() < deadline:
            p.poll(0.2)


def test_stats_cb(mock_cluster: Any, unique_topic: str, make_producer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=2)
    stats: List[dict] = []
    threads: List[int] = []

    def cb(s: str) -> None:
        threads.append(threading.get_ident())
        stats.append(json.loads(s))

    p = make_producer({"statistics.interval.ms": 100, "stats_cb": cb})
    for i in range(25):
        p.produce(unique_topic, b"x")
    assert p.flush(30) == 0
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        p.poll(0.2)
        if stats and stats[-1].get("txmsgs", 0) >= 25:
            break
    assert stats, "stats_cb never called"
    last = stats[-1]
    assert last["type"] == "producer"
    assert last["txmsgs"] >= 25
    assert unique_topic in last["topics"]
    assert len([b for b in last["brokers"].values() if b.get("nodeid", -1) >= 0]) == 3
    assert set(threads) == {threading.get_ident()}


def test_error_cb_on_cluster_loss(unique_topic: str) -> None:
    errors: List[KafkaError] = []
    cluster = MockCluster(num_brokers=1)
    p = Producer({"bootstrap.servers": cluster.bootstrap_servers, "error_cb": errors.append,
                  "log_level": 0, "reconnect.backoff.max.ms": 200})
    try:
        p.produce(unique_topic, b"x")
        assert p.flush(30) == 0
        assert errors == []
        cluster.close()
        deadline = time.monotonic() + 30
        while not errors and time.monotonic() < deadline:
            p.poll(0.5)
        assert errors, "error_cb not called after the cluster went away"
        assert all(isinstance(e, KafkaError) for e in errors)
        assert {e.code() for e in errors} & {KafkaError._TRANSPORT, KafkaError._ALL_BROKERS_DOWN}
    finally:
        p.purge()
        p.close()
        cluster.close()
