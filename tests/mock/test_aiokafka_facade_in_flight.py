"""The aiokafka facade's producer keeps five requests in flight per broker (docs/aiokafka.md,
"Options"): librdkafka's request holds one partition, so with one in flight the partitions would
take turns, a round trip each. The documented cost: without ``enable_idempotence`` a request
retried after a retriable error can land after a later one for the same partition, which
aiokafka's single request per broker never does.
"""

from __future__ import annotations

import asyncio
from typing import Any, List, Tuple

import pytest

from confluent_kafka import KafkaError
from confluent_kafka.compat.aiokafka import AIOKafkaProducer
from confluent_kafka.testing import ApiKey

pytestmark = pytest.mark.mock

ROUND_TRIP_MS = 1000  # long enough that the second record surely leaves while the first is out


async def _send_during_a_failed_request(cluster: Any, topic: str) -> Tuple[Any, Any]:
    """Sends ``a``, then ``b`` while ``a``'s request is in flight; ``a``'s request fails once."""
    producer = AIOKafkaProducer(bootstrap_servers=cluster.bootstrap_servers, retry_backoff_ms=100)
    await producer.start()
    try:
        await producer.send_and_wait(topic, b"first", partition=0)
        cluster.set_rtt(1, ROUND_TRIP_MS)
        cluster.push_request_errors(ApiKey.PRODUCE, [KafkaError.NOT_ENOUGH_REPLICAS])
        sent_a = await producer.send(topic, b"a", partition=0)
        await asyncio.sleep(0.05)
        sent_b = await producer.send(topic, b"b", partition=0)
        return tuple(await asyncio.wait_for(asyncio.gather(sent_a, sent_b), 30))  # type: ignore[return-value]
    finally:
        cluster.set_rtt(1, 0)
        await producer.stop()


def test_a_retried_request_can_land_after_a_later_one(mock_cluster: Any, read_back: Any) -> None:
    topic = "in-flight-order"
    mock_cluster.create_topic(topic, 1, 1)
    mock_cluster.set_partition_leader(topic, 0, 1)
    a, b = asyncio.run(_send_during_a_failed_request(mock_cluster, topic))
    # b's request went out while a's was in flight, and was appended first
    assert (b.offset, a.offset) == (1, 2)
    values: List[bytes] = [m.value() for m in read_back(topic, 0, 3)]
    assert values == [b"first", b"b", b"a"]
