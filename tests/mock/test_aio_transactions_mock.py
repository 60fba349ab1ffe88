"""AIOProducer transactions on the mock cluster: consume-process-produce with offsets in the txn."""

from __future__ import annotations

import asyncio
import logging
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


class _Lines(logging.Handler):
    """A logger for the client's ``logger`` setting that keeps the messages it gets."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: List[str] = []
        self.logger = logging.getLogger(f"txn-calls-{uuid.uuid4().hex}")
        self.logger.setLevel(logging.DEBUG)
        self.logger.propagate = False
        self.logger.addHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def count(self, text: str) -> int:
        return sum(text in line for line in self.lines)


def test_commits_and_aborts_against_a_late_coordinator(mock_cluster: Any, read_back: Any) -> None:
    """commit/abort answered late: each is one librdkafka call, and delivery reports reach the loop.

    Sliced zero-timeout commits broke here: a resumed commit timed out in its first step, which
    librdkafka does not resume, so the EndTxn answer that came next found no commit call and
    was taken for an abort's (an assertion stopped the process), or a stale step result made
    the commit fail with _STATE ("Operation not valid in state CommittingTransaction").
    """
    bootstrap = mock_cluster.bootstrap_servers
    mock_cluster.create_topic("late", 1)
    rounds = 3

    async def main() -> Tuple[List[Any], List[Optional[int]]]:
        loop_thread = threading.get_ident()
        report_threads: List[int] = []
        # A long linger keeps the messages queued until commit_transaction() flushes them (on the
        # loop), and keeps the aborted one queued until the abort purges it (on the abort's
        # thread, which hands its report to the loop).
        # librdkafka's log of the transactional API calls shows how often each call was made.
        calls = _Lines()
        p = AIOProducer({"bootstrap.servers": bootstrap, "transactional.id": f"txn-{uuid.uuid4().hex}",
                         "linger.ms": 2000, "debug": "eos", "logger": calls.logger})
        await p.init_transactions(30)
        _rtt(mock_cluster, 150)
        try:
            futures = []
            for r in range(rounds):
                await p.begin_transaction()
                fut = await p.produce("late", b"c%d" % r, partition=0,
                                      on_delivery=lambda err, msg: report_threads.append(threading.get_ident()))
                assert not fut.done()
                await p.commit_transaction(30)
                assert fut.done()  # its report was served before the commit returned
                futures.append(fut)
            await p.begin_transaction()
            aborted = await p.produce("late", b"aborted", partition=0,
                                      on_delivery=lambda err, msg: report_threads.append(threading.get_ident()))
            await p.abort_transaction(30)
            with pytest.raises(KafkaException) as ei:
                await aborted
            codes: List[Optional[int]] = [ei.value.args[0].code()]
        finally:
            _rtt(mock_cluster, 0)
            await p.close()
        assert report_threads == [loop_thread] * (rounds + 1)
        # Each commit and abort is one call to librdkafka: never resumed in slices.
        assert calls.count("Transactional API called: commit_transaction") == rounds
        assert calls.count("Transactional API called: abort_transaction") == 1
        return [f.result() for f in futures], codes

    delivered, codes = run(main)
    assert [m.offset() for m in delivered] == sorted(m.offset() for m in delivered)
    assert all(m.error() is None for m in delivered)
    assert codes == [KafkaError._PURGE_QUEUE]
    got = read_back("late", 0, rounds, **{"isolation.level": "read_committed"})
    assert [m.value() for m in got][:rounds] == [b"c%d" % r for r in range(rounds)]
