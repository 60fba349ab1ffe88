"""The aiokafka facade's hot paths (send(), getone(), getmany()) keep aiokafka's behaviour: the
shortcuts they take (a remembered loop, reports served while sending, records made in C) are
checked here against the librdkafka mock cluster."""
from __future__ import annotations

import asyncio
import gc
import time
from typing import Any, List

import pytest

from confluent_kafka import Producer
from confluent_kafka.compat.aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition, errors
from confluent_kafka.compat.aiokafka.producer.producer import _SERVE_EVERY
from confluent_kafka.compat.aiokafka.structs import ConsumerRecord, RecordMetadata

pytestmark = pytest.mark.mock


@pytest.fixture
def topic(mock_cluster: Any, unique_topic: str) -> str:
    mock_cluster.create_topic(unique_topic, partitions=2)
    return unique_topic


def test_a_long_run_of_sends_lets_the_loop_run(mock_cluster: Any, topic: str) -> None:
    """send() never awaiting anything would starve every other task (and keep every future and
    done-callback pending) until flush(): it yields once per _SERVE_EVERY messages."""
    async def main() -> None:
        producer = AIOKafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers)
        await producer.start()
        ticks = 0

        async def other() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0)

        task = asyncio.create_task(other())
        await asyncio.sleep(0)
        start = ticks
        futs = [await producer.send(topic, b"v%d" % i, partition=0) for i in range(3 * _SERVE_EVERY)]
        during = ticks - start
        await producer.flush()
        task.cancel()
        mds = [f.result() for f in futs]
        await producer.stop()
        assert during >= 2
        assert all(type(md) is RecordMetadata for md in mds)
        assert [md.offset for md in mds] == list(range(mds[0].offset, mds[0].offset + len(mds)))
        assert mds[0].topic_partition is mds[-1].topic_partition == TopicPartition(topic, 0)

    asyncio.run(main())


def test_a_cancelled_send_sent_nothing(mock_cluster: Any, topic: str) -> None:
    """The yield comes before the message is handed over: cancelled there, nothing was sent."""
    async def main() -> int:
        producer = AIOKafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers)
        await producer.start()
        for i in range(_SERVE_EVERY):
            await producer.send(topic, b"v", partition=1)
        task = asyncio.create_task(producer.send(topic, b"cancelled", partition=1))
        await asyncio.sleep(0)  # the task runs up to its yield
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        last = await (await producer.send(topic, b"last", partition=1))
        await producer.stop()
        return last.offset

    assert asyncio.run(main()) == _SERVE_EVERY


class MarkingLoop(asyncio.SelectorEventLoop):
    """A loop of its own create_future(), which send() must keep using."""

    def create_future(self) -> "asyncio.Future[Any]":
        fut = super().create_future()
        fut.marked = True  # type: ignore[attr-defined]
        return fut


def test_futures_belong_to_the_running_loop(mock_cluster: Any, topic: str) -> None:
    producer = AIOKafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers)

    async def send() -> "asyncio.Future[RecordMetadata]":
        await producer.start()
        futs = [await producer.send(topic, b"v", partition=0), await producer.send(topic, b"v"),
                await producer.send(topic, b"v")]  # the full path, then the one-call path
        for fut in futs:
            assert fut.get_loop() is asyncio.get_running_loop()
            await fut
        return futs[-1]

    first = asyncio.run(send())
    second = asyncio.run(send())  # a new loop: the remembered one is not running any more
    assert first.get_loop() is not second.get_loop()
    loop = MarkingLoop()
    try:
        third = loop.run_until_complete(send())
        assert third.marked  # type: ignore[attr-defined]
        loop.run_until_complete(producer.stop())
    finally:
        loop.close()


def test_the_one_call_send_keeps_every_check(mock_cluster: Any, topic: str) -> None:
    """The common send() (bytes, no partition, no headers, on the loop of the last send) is one C
    call; every check of the full path still applies, before and after the state it depends on
    changes (stop(), a transaction's end)."""
    async def main() -> None:
        producer = AIOKafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, max_request_size=1000)
        await producer.start()
        futs = [await producer.send(topic, b"v%d" % i) for i in range(3)]  # the loop is known from the 2nd
        futs.append(await producer.send(topic, None, key=b"k"))
        for fut in futs:
            md = await fut
            assert type(md) is RecordMetadata and fut.get_loop() is asyncio.get_running_loop()
        with pytest.raises(TypeError, match="value must be bytes"):
            await producer.send(topic, "text")
        with pytest.raises(TypeError, match="key must be bytes"):
            await producer.send(topic, b"v", key="k")
        with pytest.raises(AssertionError):
            await producer.send(topic, None)
        with pytest.raises(errors.MessageSizeTooLargeError):
            await producer.send(topic, b"v" * 600, key=b"k" * 401)
        with pytest.raises(TypeError):
            await producer.send(topic, b"v", timestamp_ms="now")
        md = await (await producer.send(topic, b"v" * 500, key=b"k" * 400, timestamp_ms=1234))
        assert type(md) is RecordMetadata and md.topic == topic
        await producer.stop()
        with pytest.raises(errors.ProducerClosed):
            await producer.send(topic, b"v")

    asyncio.run(main())


def test_the_one_call_send_follows_the_transaction(mock_cluster: Any, topic: str) -> None:
    """A transactional producer sends only inside a transaction, whichever path send() takes."""
    async def main() -> None:
        producer = AIOKafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, transactional_id="t-" + topic)
        await producer.start()
        with pytest.raises(errors.IllegalOperation):
            await producer.send(topic, b"outside")
        for end in (producer.commit_transaction, producer.abort_transaction):
            await producer.begin_transaction()
            futs = [await producer.send(topic, b"inside") for _ in range(3)]
            await end()
            assert all(f.done() for f in futs)
            with pytest.raises(errors.IllegalOperation):
                await producer.send(topic, b"outside")
        await producer.stop()

    asyncio.run(main())


def _fill(bootstrap: str, topic: str, n: int) -> None:
    p = Producer({"bootstrap.servers": bootstrap})
    for i in range(n):
        p.produce(topic, b"v%d" % i, key=b"k" if i % 2 else None, partition=i % 2,
                  headers=[("h", b"%d" % i)] if i % 3 == 0 else None)
    assert p.flush(30) == 0


def test_getone_and_getmany_records(mock_cluster: Any, topic: str) -> None:
    bootstrap = mock_cluster.bootstrap_servers
    _fill(bootstrap, topic, 40)

    async def main() -> None:
        consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest")
        await consumer.start()
        tps = [TopicPartition(topic, 0), TopicPartition(topic, 1)]
        consumer.assign(tps)
        before = int(time.time() * 1000)
        one = await consumer.getone()
        after = int(time.time() * 1000)
        polled = consumer.last_poll_timestamp(TopicPartition(one.topic, one.partition))
        assert isinstance(polled, int) and before <= polled <= after
        got: List[ConsumerRecord] = [one]
        while len(got) < 40:
            batch = await consumer.getmany(timeout_ms=5000, max_records=7)
            assert all(type(tp) is TopicPartition for tp in batch)
            assert sum(map(len, batch.values())) <= 7
            for tp, recs in batch.items():
                assert all((r.topic, r.partition) == tp for r in recs)
                got.extend(recs)
        await consumer.stop()
        assert all(type(r) is ConsumerRecord for r in got)
        # made in C of atomic values, headers or not: left out of the garbage collector
        assert not any(gc.is_tracked(r) for r in got[1:])
        for part in (0, 1):
            mine = [r for r in got if r.partition == part]
            assert [r.offset for r in mine] == list(range(20))
            for r in mine:
                i = 2 * r.offset + part
                assert r.value == b"v%d" % i and r.serialized_value_size == len(r.value)
                assert (r.key, r.serialized_key_size) == ((b"k", 1) if i % 2 else (None, -1))
                assert r.headers == ((("h", b"%d" % i),) if i % 3 == 0 else ())
                assert (r.checksum, r.timestamp_type) == (None, 0)

    asyncio.run(main())


def test_getmany_stores_what_it_returned(mock_cluster: Any, topic: str) -> None:
    """With a group, commit() commits the positions after the records returned (not those
    librdkafka holds besides)."""
    bootstrap = mock_cluster.bootstrap_servers
    _fill(bootstrap, topic, 40)

    async def main() -> None:
        consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, group_id=f"g-{topic}",
                                    auto_offset_reset="earliest", enable_auto_commit=False)
        await consumer.start()
        tp = TopicPartition(topic, 0)
        consumer.assign([tp])
        got: List[ConsumerRecord] = []
        while len(got) < 5:
            got += (await consumer.getmany(tp, timeout_ms=5000, max_records=5 - len(got))).get(tp, [])
        one = await consumer.getone()
        await consumer.commit()
        assert await consumer.committed(tp) == one.offset + 1 == 6
        await consumer.stop()

    asyncio.run(main())


def test_getmany_of_some_partitions_keeps_the_others(mock_cluster: Any, topic: str) -> None:
    bootstrap = mock_cluster.bootstrap_servers
    _fill(bootstrap, topic, 40)

    async def main() -> None:
        consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest")
        await consumer.start()
        tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)
        consumer.assign([tp0, tp1])
        seen = {tp0: [], tp1: []}  # type: ignore[var-annotated]
        for tp in (tp0, tp1):
            while len(seen[tp]) < 20:
                batch = await consumer.getmany(tp, timeout_ms=5000, max_records=6)
                assert set(batch) <= {tp}
                seen[tp] += [r.offset for r in batch.get(tp, [])]
        assert (await consumer.getmany(timeout_ms=200)) == {}
        await consumer.stop()
        assert seen == {tp0: list(range(20)), tp1: list(range(20))}

    asyncio.run(main())
