"""Both facades' default partitioners keep records without a key on one partition for a while
(librdkafka's ``sticky.partitioning.linger.ms``, at least 10 ms; docs/aiokafka.md, "Options").

librdkafka's default would be twice ``linger_ms``, and both clients' ``linger_ms`` defaults to 0,
which spreads a burst of such records over every partition, one small request each. A burst
sent within a few milliseconds lands on one or two partitions here (two when it straddles the
end of a sticky period); records sent over many periods still reach several partitions.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, List, Set, Tuple

import pytest

from confluent_kafka.compat._partitioning import STICKY_PARTITIONING_MIN_MS, sticky_partitioning_ms
from confluent_kafka.compat.aiokafka import AIOKafkaProducer
from confluent_kafka.compat.kafka import KafkaProducer
from confluent_kafka.compat.kafka.errors import IllegalArgumentError
from confluent_kafka.compat.kafka.partitioner import DefaultPartitioner, StickyPartitioner

pytestmark = pytest.mark.mock

PARTITIONS = 16
BURST = 64
PERIODS = 30  # bursts of one record, each a sticky period apart


def _most_partitions(seconds: float) -> int:
    """How many partitions a burst lasting ``seconds`` may reach: one per sticky period it
    touches, plus one for the period already running when it started."""
    return 2 + int(seconds * 1000 // STICKY_PARTITIONING_MIN_MS)


async def _aiokafka_bursts(bootstrap: str, topic: str) -> Tuple[Set[int], float, Set[int]]:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap)
    await producer.start()
    try:
        await producer.send_and_wait(topic, b"warm-up")
        t0 = time.perf_counter()
        futures = [await producer.send(topic, b"v") for _ in range(BURST)]
        burst = time.perf_counter() - t0
        in_burst = {m.partition for m in await asyncio.wait_for(asyncio.gather(*futures), 30)}
        spread: Set[int] = set()
        for _ in range(PERIODS):
            spread.add((await producer.send_and_wait(topic, b"v")).partition)
            await asyncio.sleep(1.5 * STICKY_PARTITIONING_MIN_MS / 1000)
        return in_burst, burst, spread
    finally:
        await producer.stop()


def _kafka_python_bursts(bootstrap: str, topic: str, **configs: Any) -> Tuple[Set[int], float, Set[int]]:
    producer = KafkaProducer(bootstrap_servers=bootstrap, **configs)
    try:
        producer.send(topic, b"warm-up").get(30)
        t0 = time.perf_counter()
        futures = [producer.send(topic, b"v") for _ in range(BURST)]
        burst = time.perf_counter() - t0
        in_burst = {f.get(30).partition for f in futures}
        spread: Set[int] = set()
        for _ in range(PERIODS):
            spread.add(producer.send(topic, b"v").get(30).partition)
            time.sleep(1.5 * STICKY_PARTITIONING_MIN_MS / 1000)
        return in_burst, burst, spread
    finally:
        producer.close(5)


def _check(in_burst: Set[int], burst: float, spread: Set[int]) -> None:
    assert 1 <= len(in_burst) <= _most_partitions(burst), (in_burst, burst)
    # 30 periods all on one partition of 16 would be a chance of 16**-29
    assert len(spread) > 1, spread


def test_aiokafka_facade_keeps_a_burst_without_keys_on_one_partition(mock_cluster: Any) -> None:
    topic = "sticky-aiokafka"
    mock_cluster.create_topic(topic, PARTITIONS, 1)
    _check(*asyncio.run(_aiokafka_bursts(mock_cluster.bootstrap_servers, topic)))


@pytest.mark.parametrize("partitioner", [None, DefaultPartitioner, StickyPartitioner],
                         ids=["default", "DefaultPartitioner", "StickyPartitioner"])
def test_kafka_python_facade_keeps_a_burst_without_keys_on_one_partition(
        mock_cluster: Any, partitioner: Callable[[], Any]) -> None:
    topic = f"sticky-kafka-python-{partitioner.__name__ if partitioner else 'default'}"
    mock_cluster.create_topic(topic, PARTITIONS, 1)
    configs = {} if partitioner is None else {"partitioner": partitioner()}
    _check(*_kafka_python_bursts(mock_cluster.bootstrap_servers, topic, **configs))


def test_keyed_records_keep_the_hash_partition(mock_cluster: Any) -> None:
    """Stickiness is for records without a key: a keyed record's partition is murmur2's."""
    from confluent_kafka.compat.kafka.partitioner import murmur2

    topic = "sticky-keyed"
    mock_cluster.create_topic(topic, PARTITIONS, 1)
    keys: List[bytes] = [b"key-%d" % i for i in range(BURST)]

    async def send() -> List[int]:
        producer = AIOKafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers)
        await producer.start()
        try:
            futures = [await producer.send(topic, b"v", key=k) for k in keys]
            return [m.partition for m in await asyncio.wait_for(asyncio.gather(*futures), 30)]
        finally:
            await producer.stop()

    assert asyncio.run(send()) == [(murmur2(k) & 0x7FFFFFFF) % PARTITIONS for k in keys]


@pytest.mark.parametrize("linger, period", [(0, 10), (4.5, 10), (20, 40), (600_000, 900_000),
                                            (None, None), ("abc", None), (True, None), (float("nan"), None),
                                            (-1, None)])
def test_the_sticky_period_follows_linger_within_librdkafka_range(linger: Any, period: Any) -> None:
    """Twice linger_ms, at least 10 ms, at most librdkafka's 900,000; nothing for a linger_ms
    that is no number of milliseconds, which the check of linger.ms then reports as before."""
    assert sticky_partitioning_ms(linger) == period


def test_a_long_linger_still_makes_a_producer(mock_cluster: Any) -> None:
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms=600_000,
                             delivery_timeout_ms=900_000)
    producer.close(5)


def test_a_linger_that_is_no_number_is_refused_by_its_own_check(mock_cluster: Any) -> None:
    with pytest.raises(IllegalArgumentError, match="queue.buffering.max.ms"):
        KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms="abc")
