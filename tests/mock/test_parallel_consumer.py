"""The parallel consumer on librdkafka's mock cluster: ordering, commits, failure policies."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from typing import Any

import pytest

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, TopicPartition
from confluent_kafka.testing import ApiKey
from confluent_kafka.parallel import AIOParallelConsumer, DeadLetterError, HandlerError, ParallelConsumer
from confluent_kafka.parallel._failures import HEADER_ERROR, HEADER_OFFSET, HEADER_PARTITION, HEADER_TOPIC
from confluent_kafka.parallel._offsets import decode_finished
from parallel_support import Recorder, Running, committed, produce_keyed

GROUP_CONF = {"auto.offset.reset": "earliest", "session.timeout.ms": 6000, "heartbeat.interval.ms": 1000}


@pytest.fixture
def topic(mock_cluster) -> str:
    name = f"parallel-{uuid.uuid4().hex[:8]}"
    mock_cluster.create_topic(name, partitions=4)
    return name


def conf(bootstrap: str, group: str) -> dict:
    return {"bootstrap.servers": bootstrap, "group.id": group, **GROUP_CONF}


@pytest.mark.parametrize("ordering", ["key", "partition", "unordered"])
def test_every_record_once_in_order_and_committed_to_the_end(mock_cluster, topic, ordering) -> None:
    bs = mock_cluster.bootstrap_servers
    ends = produce_keyed(bs, topic, 2000, keys=50)
    rec = Recorder(ordering)
    pc = ParallelConsumer(conf(bs, "g"), ordering=ordering, max_concurrency=16)
    pc.subscribe([topic])
    run = Running(pc, rec.handler(0.002))
    try:
        assert rec.wait_for(2000, 60), f"only {len(rec.runs)} of 2000 processed"
    finally:
        run.stop()
    assert run.error is None
    assert rec.overlaps == [] and rec.out_of_order() == [] and rec.twice() == 0
    assert rec.missing(ends) == []
    assert [(p.partition, p.offset) for p in committed(bs, "g", topic)] == sorted(ends.items())
    stats = pc.stats()
    assert stats["processed"] == 2000 and stats["in_flight"] == 0 and not stats["running"]
    if ordering == "key":
        # 50 keys and 16 slots: the handler really ran concurrently.
        assert stats["latency_ms"]["count"] == 2000


def test_async_handlers_keep_key_order_and_commit_to_the_end(mock_cluster, topic) -> None:
    bs = mock_cluster.bootstrap_servers
    ends = produce_keyed(bs, topic, 1500, keys=40)
    rec = Recorder("key")
    most = [0]

    async def main() -> AIOParallelConsumer:
        pc = AIOParallelConsumer(conf(bs, "ga"), max_concurrency=32)
        pc.subscribe([topic])
        running = [0]

        async def handle(msg: Any) -> None:
            rec.start(msg)
            running[0] += 1
            most[0] = max(most[0], running[0])
            await asyncio.sleep(0.002)
            running[0] -= 1
            rec.end(msg)
            if len(rec.runs) == 1500:
                pc.stop()

        asyncio.get_running_loop().call_later(60, pc.stop)
        await pc.run(handle)
        return pc

    pc = asyncio.run(main())
    assert rec.missing(ends) == [] and rec.overlaps == [] and rec.out_of_order() == []
    assert 1 < most[0] <= 32
    assert [(p.partition, p.offset) for p in committed(bs, "ga", topic)] == sorted(ends.items())
    assert pc.stats()["processed"] == 1500


def failing_at(partition: int, offset: int, times: float = float("inf")):
    """A handler body that raises on one record, ``times`` times."""
    calls = [0]

    def then(msg: Any) -> None:
        if (msg.partition(), msg.offset()) == (partition, offset) and calls[0] < times:
            calls[0] += 1
            raise ValueError(f"bad record {offset}")
    return then


def test_stop_policy_raises_naming_the_record_and_commits_nothing_past_it(mock_cluster, topic) -> None:
    bs = mock_cluster.bootstrap_servers
    ends = produce_keyed(bs, topic, 800, keys=800)  # every key distinct: records after it finish
    rec = Recorder("unordered")
    pc = ParallelConsumer(conf(bs, "gs"), max_concurrency=8, max_attempts=2, retry_backoff=0.01)
    pc.subscribe([topic])
    with pytest.raises(HandlerError) as caught:
        pc.run(rec.handler(0.001, failing_at(1, 50)))
    error = caught.value
    assert (error.topic, error.partition, error.offset, error.attempts) == (topic, 1, 50, 2)
    assert isinstance(error.__cause__, ValueError) and "bad record 50" in str(error)
    assert error.record.offset() == 50
    stats = pc.stats()
    assert stats["failed"] == 1 and stats["retries"] == 1
    got = {p.partition: p for p in committed(bs, "gs", topic)}
    assert got[1].offset == 50  # nothing past the failed record
    finished_above = decode_finished(50, got[1].metadata)
    assert 50 not in finished_above
    assert all((1, o) in rec.runs for o in finished_above)

    # A restart runs the failed record again and skips what finished above it.
    rec2 = Recorder("unordered")
    pc2 = ParallelConsumer(conf(bs, "gs"), max_concurrency=8)
    pc2.subscribe([topic])
    run = Running(pc2, rec2.handler())
    try:
        assert rec2.wait_for(1, 30)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and [c.offset for c in committed(bs, "gs", topic)] != [
                ends[p] for p in range(4)]:
            time.sleep(0.2)
    finally:
        run.stop()
    assert (1, 50) in rec2.runs
    assert not any((1, o) in rec2.runs for o in finished_above)
    assert pc2.stats()["skipped_on_restart"] >= len(finished_above)
    assert rec.missing(ends) == [(1, 50)] or set(rec.missing(ends)) <= set(rec2.runs)


def test_a_retry_that_succeeds_commits_everything(mock_cluster, topic) -> None:
    bs = mock_cluster.bootstrap_servers
    ends = produce_keyed(bs, topic, 400, keys=20)
    rec = Recorder("key")
    pc = ParallelConsumer(conf(bs, "gr"), max_attempts=3, retry_backoff=0.01)
    pc.subscribe([topic])
    run = Running(pc, rec.handler(0, failing_at(2, 10, times=2)))
    try:
        assert rec.wait_for(400, 60)
    finally:
        run.stop()
    assert run.error is None and rec.out_of_order() == [] and rec.missing(ends) == []
    assert pc.stats()["retries"] == 2
    assert [(p.partition, p.offset) for p in committed(bs, "gr", topic)] == sorted(ends.items())


def test_skip_policy_commits_past_the_failed_record(mock_cluster, topic) -> None:
    bs = mock_cluster.bootstrap_servers
    ends = produce_keyed(bs, topic, 400, keys=20)
    rec = Recorder("key")
    pc = ParallelConsumer(conf(bs, "gk"), on_failure="skip", max_attempts=1)
    pc.subscribe([topic])
    run = Running(pc, rec.handler(0, failing_at(0, 5)))
    try:
        assert rec.wait_for(400, 60)
    finally:
        run.stop()
    assert run.error is None and pc.stats()["skipped"] == 1
    assert [(p.partition, p.offset) for p in committed(bs, "gk", topic)] == sorted(ends.items())


def read_all(bs: str, topic: str, count: int, partitions: int = 4) -> list:
    consumer = Consumer({"bootstrap.servers": bs, "group.id": "reader", "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(partitions)])
    got = []
    deadline = time.monotonic() + 30
    try:
        while len(got) < count and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is not None and msg.error() is None:
                got.append(msg)
    finally:
        consumer.close()
    return got


@pytest.mark.parametrize("form", ["thread", "async"])
def test_dead_letter_policy_writes_the_record_and_then_commits(mock_cluster, topic, form) -> None:
    bs = mock_cluster.bootstrap_servers
    ends = produce_keyed(bs, topic, 300, keys=30)
    dlt = f"{topic}.dlt"
    mock_cluster.create_topic(dlt, partitions=1)
    rec = Recorder("key")
    options = dict(on_failure="dead_letter", dead_letter_topic=dlt, max_attempts=2, retry_backoff=0.01)
    fail = failing_at(3, 7)
    if form == "thread":
        pc = ParallelConsumer(conf(bs, "gd"), **options)
        pc.subscribe([topic])
        run = Running(pc, rec.handler(0, fail))
        try:
            assert rec.wait_for(300, 60)
        finally:
            run.stop()
        assert run.error is None
    else:
        async def main() -> AIOParallelConsumer:
            apc = AIOParallelConsumer(conf(bs, "gd"), **options)
            apc.subscribe([topic])

            async def handle(msg: Any) -> None:
                rec.start(msg)
                try:
                    fail(msg)
                finally:
                    rec.end(msg)
                    if len(rec.runs) == 300:
                        apc.stop()
            asyncio.get_running_loop().call_later(60, apc.stop)
            await apc.run(handle)
            return apc
        pc = asyncio.run(main())
    assert pc.stats()["dead_lettered"] == 1
    [copy] = read_all(bs, dlt, 1, partitions=1)
    headers = dict(copy.headers())
    assert headers[HEADER_TOPIC] == topic.encode() and headers[HEADER_PARTITION] == b"3"
    assert headers[HEADER_OFFSET] == b"7" and headers[HEADER_ERROR] == b"ValueError: bad record 7"
    original = read_all(bs, topic, sum(ends.values()))
    [source] = [m for m in original if (m.partition(), m.offset()) == (3, 7)]
    assert (copy.key(), copy.value()) == (source.key(), source.value())
    assert [(p.partition, p.offset) for p in committed(bs, "gd", topic)] == sorted(ends.items())


def test_a_dead_letter_write_that_fails_stops_without_committing_the_record(mock_cluster, topic) -> None:
    bs = mock_cluster.bootstrap_servers
    produce_keyed(bs, topic, 50, keys=50)
    # The broker refuses the dead-letter write for good.
    mock_cluster.push_request_errors(ApiKey.PRODUCE, [KafkaError.MSG_SIZE_TOO_LARGE] * 5)
    pc = ParallelConsumer(conf(bs, "gf"), on_failure="dead_letter", dead_letter_topic=f"{topic}.dlt",
                          max_attempts=1)
    pc.subscribe([topic])
    with pytest.raises(HandlerError) as caught:
        pc.run(Recorder("unordered").handler(0, failing_at(0, 3)))
    assert isinstance(caught.value.__cause__, DeadLetterError)
    assert caught.value.offset == 3
    assert {p.partition: p.offset for p in committed(bs, "gf", topic)}[0] <= 3


def test_a_handler_hanging_past_the_bound_is_left_uncommitted_and_runs_again(mock_cluster, topic) -> None:
    bs = mock_cluster.bootstrap_servers
    ends = produce_keyed(bs, topic, 200, keys=200)
    release = threading.Event()
    rec = Recorder("unordered")

    def hang(msg: Any) -> None:
        if (msg.partition(), msg.offset()) == (0, 10):
            release.wait(30)

    pc = ParallelConsumer(conf(bs, "gh"), revoke_timeout=1.0)
    pc.subscribe([topic])
    run = Running(pc, rec.handler(0, hang))
    try:
        assert rec.wait_for(199, 60)
        started = time.monotonic()
        run.stop(30)
        assert 0.9 <= time.monotonic() - started < 20  # the bound, not the hang
    finally:
        release.set()
    assert run.error is None
    got = {p.partition: p.offset for p in committed(bs, "gh", topic)}
    assert got[0] == 10 and all(got[p] == ends[p] for p in (1, 2, 3))

    rec2 = Recorder("unordered")
    pc2 = ParallelConsumer(conf(bs, "gh"))
    pc2.subscribe([topic])
    run2 = Running(pc2, rec2.handler())
    try:
        assert rec2.wait_for(1, 30)
    finally:
        run2.stop()
    assert (0, 10) in rec2.runs and len(rec2.runs) == 1  # only the hung record ran again


def test_stats_cb_reports_progress_and_lag(mock_cluster, topic) -> None:
    bs = mock_cluster.bootstrap_servers
    produce_keyed(bs, topic, 400, keys=10)
    reports = []
    rec = Recorder("key")
    pc = ParallelConsumer(conf(bs, "gt"), stats_cb=reports.append, stats_interval=0.2)
    pc.subscribe([topic])
    run = Running(pc, rec.handler(0.001))
    try:
        assert rec.wait_for(400, 60)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(
                r["partitions"] and all(p["lag"] == 0 for p in r["partitions"].values()) for r in reports):
            time.sleep(0.1)
    finally:
        run.stop()
    assert reports, "stats_cb never called"
    last = reports[-1]
    assert set(last["partitions"]) == {f"{topic}[{p}]" for p in range(4)}
    assert all(p["lag"] == 0 for p in last["partitions"].values())
    assert last["latency_ms"]["p50"] >= 1.0
