"""AIOProducer transactions on the mock cluster: consume-process-produce with offsets in the txn."""

from __future__ import annotations

import asyncio
import threading
import uuid
from typing import Any, List, Optional, Tuple

import pytest

from aio_support import run
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.aio import AIOConsumer, AIOProducer

pytestmark = pytest.mark.mock

N = 20
RTT_MS = 600  # the brokers' answer delay while send_offsets_to_transaction runs, in the slow test


def _fill(bootstrap: str, topic: str) -> None:
    p = Producer({"bootstrap.servers": bootstrap})
    for i in range(N):
        p.produce(topic, b"m%d" % i, partition=0)
    assert p.flush(30) == 0


def _rtt(cluster: Any, ms: int) -> None:
    for broker in (1, 2, 3):
        cluster.set_rtt(broker, ms)


async def _process(bootstrap: str, group: str, src: str, dst: str,
                   slow: Optional[Any] = None) -> Tuple[List[TopicPartition], float, float]:
    """Read src, write upper-cased copies to dst and commit the read offsets in one transaction.

    Returns the group's committed offsets afterwards, how long send_offsets_to_transaction
    took, and the longest the loop went without running a 10 ms ticker meanwhile. Given a mock
    cluster as ``slow``, every broker answers RTT_MS late during that call.
    """
    cconf = {"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False,
             "auto.offset.reset": "earliest", "session.timeout.ms": 6000}
    pconf = {"bootstrap.servers": bootstrap, "transactional.id": f"txn-{uuid.uuid4().hex}"}
    async with AIOConsumer(cconf) as c, AIOProducer(pconf) as p:
        await p.init_transactions(30)
        await c.subscribe([src])
        seen: List[Any] = []
        while len(seen) < N:
            m = await c.poll(10)
            assert m is not None and m.error() is None
            seen.append(m)
        await p.begin_transaction()
        for m in seen:
            await p.produce(dst, m.value().upper(), partition=0)
        positions = await c.position([TopicPartition(src, 0)])
        assert positions[0].offset == N

        gaps = [0.0]
        loop = asyncio.get_running_loop()

        async def tick() -> None:
            last = loop.time()
            while True:
                await asyncio.sleep(0.01)
                now = loop.time()
                gaps[0] = max(gaps[0], now - last)
                last = now

        metadata = await c.consumer_group_metadata()
        if slow is not None:
            _rtt(slow, RTT_MS)
        ticker = asyncio.ensure_future(tick())
        await asyncio.sleep(0.02)
        started = loop.time()
        try:
            await p.send_offsets_to_transaction(positions, metadata, 30)
            took = loop.time() - started
        finally:
            ticker.cancel()
            if slow is not None:
                _rtt(slow, 0)
        await p.commit_transaction(30)
        committed = await c.committed([TopicPartition(src, 0)], timeout=30)
        return committed, took, gaps[0]


def _check_dst(bootstrap: str, dst: str, read_back: Any) -> None:
    got = read_back(dst, 0, N, **{"isolation.level": "read_committed"})
    assert [m.value() for m in got] == [b"M%d" % i for i in range(N)]


def test_consume_process_produce_commits_offsets_in_the_transaction(mock_cluster: Any, read_back: Any) -> None:
    bootstrap = mock_cluster.bootstrap_servers
    mock_cluster.create_topic("src", 1)
    mock_cluster.create_topic("dst", 1)
    _fill(bootstrap, "src")
    # Before the fix every zero-timeout attempt timed its own AddOffsetsToTxn request out,
    # and the call failed with _TIMED_OUT at its deadline.
    # (The mock cluster answers TxnOffsetCommit without storing the offsets, so the group's
    # committed offsets are checked against tansu, in tests/integration/test_aio_producer.py.)
    run(lambda: _process(bootstrap, "cpp", "src", "dst"))
    _check_dst(bootstrap, "dst", read_back)


def test_slow_coordinators_do_not_block_the_loop(mock_cluster: Any, read_back: Any) -> None:
    bootstrap = mock_cluster.bootstrap_servers
    mock_cluster.create_topic("src", 1)
    mock_cluster.create_topic("dst", 1)
    _fill(bootstrap, "src")
    threads = threading.active_count()

    _, took, gap = run(lambda: _process(bootstrap, "slow", "src", "dst", slow=mock_cluster))
    # The exchange took at least two slow round trips (AddOffsetsToTxn, TxnOffsetCommit), which
    # a call on the loop's thread would have held the loop for; the loop kept ticking instead
    # (bounds generous for a loaded machine).
    assert took >= 2 * RTT_MS / 1000, took
    assert gap < RTT_MS / 1000, (gap, took)
    _check_dst(bootstrap, "dst", read_back)
    assert threading.active_count() == threads  # the call's thread is gone


def test_send_offsets_errors_surface_and_close_waits_for_a_cancelled_call(mock_cluster: Any) -> None:
    bootstrap = mock_cluster.bootstrap_servers
    mock_cluster.create_topic("src", 1)

    threads = threading.active_count()

    async def main() -> None:
        c = Consumer({"bootstrap.servers": bootstrap, "group.id": "g-cancel"})
        metadata = c.consumer_group_metadata()
        c.close()
        p = AIOProducer({"bootstrap.servers": bootstrap, "transactional.id": f"txn-{uuid.uuid4().hex}"})
        await p.init_transactions(30)
        # Not in a transaction: librdkafka's _STATE error comes out of the await.
        with pytest.raises(KafkaException) as ei:
            await p.send_offsets_to_transaction([TopicPartition("src", 0, 1)], metadata, 5)
        assert ei.value.args[0].code() == KafkaError._STATE
        with pytest.raises(TypeError):
            await p.send_offsets_to_transaction([TopicPartition("src", 0, 1)], metadata, "5")  # type: ignore[arg-type]
        await p.begin_transaction()
        _rtt(mock_cluster, 300)
        task = asyncio.ensure_future(p.send_offsets_to_transaction([TopicPartition("src", 0, 1)], metadata, 30))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await p.close()  # waits for the call to end, then aborts the transaction
        assert threading.active_count() == threads
        _rtt(mock_cluster, 0)
        with pytest.raises(RuntimeError):
            await p.send_offsets_to_transaction([TopicPartition("src", 0, 1)], metadata)

    run(main)
