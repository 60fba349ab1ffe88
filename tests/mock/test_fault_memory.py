"""No per-message leak: producing, delivering and consuming many messages leaves Python's
traced memory (tracemalloc sees every object the extension creates) where it was after a
warm-up round. Leaks outside Python's allocator are the sanitizer run's job
(scripts/sanitize.sh)."""

from __future__ import annotations

import gc
import tracemalloc
from typing import Any, Callable, List

import pytest

from confluent_kafka import OFFSET_BEGINNING, TopicPartition
from confluent_kafka.testing import MockCluster

pytestmark = pytest.mark.mock

ROUND = 20_000  # messages per round
BYTES_PER_MESSAGE = 1.0  # allowed traced growth per message, far below one object (~50 B)


def produce_round(p: Any, topic: str, reports: List[int]) -> None:
    def dr(err: Any, msg: Any) -> None:
        reports[0] += 1
        msg.value(), msg.headers(), msg.key()  # build the lazily made parts too

    for i in range(ROUND):
        while True:
            try:
                p.produce(topic, b"v" * 100, b"k", headers=[("h", b"1")], on_delivery=dr)
                break
            except BufferError:
                p.poll(0.01)
    assert p.flush(60) == 0


def consume_round(c: Any, n: int) -> None:
    got = 0
    while got < n:
        for m in c.consume(1000, 5):
            if m.error() is None:
                m.value(), m.key(), m.headers(), m.timestamp()  # noqa: B018
                got += 1


def test_no_per_message_growth(mock_cluster: MockCluster, unique_topic: str,
                               make_producer: Callable, make_consumer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, 1, 1)
    p = make_producer({"linger.ms": 5, "log_level": 0})
    c = make_consumer({"log_level": 0})
    c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
    reports = [0]
    # Warm up: caches, interned topic names, librdkafka's buffers reach their steady size.
    produce_round(p, unique_topic, reports)
    consume_round(c, ROUND)
    gc.collect()
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        rounds = 3
        for _ in range(rounds):
            produce_round(p, unique_topic, reports)
            consume_round(c, ROUND)
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    messages = rounds * ROUND
    growth = after - base
    print(f"\ntraced growth {growth} B over {messages} messages "
          f"({growth / messages:.3f} B/message)")
    assert reports[0] == (rounds + 1) * ROUND
    assert growth < messages * BYTES_PER_MESSAGE, f"{growth / messages:.2f} B per message"
