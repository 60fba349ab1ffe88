"""Every method of the aiokafka facade's clients against tansu (the examples are in
test_aiokafka_examples.py, refused arguments in test_aiokafka_surface.py)."""
from __future__ import annotations

import asyncio
import time
from typing import Any, List, Set

import pytest

from aio_support import LOOPS, run
from confluent_kafka.compat.aiokafka import (AIOKafkaConsumer, AIOKafkaProducer, ConsumerRebalanceListener,
                                             ConsumerStoppedError, OffsetAndMetadata, TopicPartition, errors)
from confluent_kafka.compat.aiokafka.partitioner import DefaultPartitioner
from confluent_kafka.compat.aiokafka.structs import ConsumerRecord, RecordMetadata
from consumer_helpers import produce_values

pytestmark = pytest.mark.integration

FAST_GROUP = {"session_timeout_ms": 6000, "heartbeat_interval_ms": 1000}


@pytest.mark.parametrize("loop", LOOPS)
def test_producer_methods(kafka_bootstrap: str, unique_topic: str, loop: str) -> None:
    async def main() -> None:
        producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap, key_serializer=lambda k: None if k is None else k.encode())
        await producer.start()
        await producer.start()  # a second start changes nothing
        try:
            fut = await producer.send(unique_topic, b"v0", key="k", partition=1, timestamp_ms=1234567,
                                      headers=[("h", b"1")])
            assert isinstance(fut, asyncio.Future)
            md = await fut
            assert isinstance(md, RecordMetadata)
            assert (md.topic, md.partition, md.offset, md.timestamp, md.timestamp_type) == \
                (unique_topic, 1, 0, 1234567, 0)
            assert md.topic_partition == TopicPartition(unique_topic, 1)
            md2 = await producer.send_and_wait(unique_topic, b"v1", partition=1)
            assert md2.offset == 1
            # Same key, same partition: the one aiokafka's DefaultPartitioner (Java's murmur2) picks.
            a = await producer.send_and_wait(unique_topic, b"x", key="same")
            b = await producer.send_and_wait(unique_topic, b"y", key="same")
            assert a.partition == b.partition == DefaultPartitioner()(b"same", [0, 1, 2, 3], [0, 1, 2, 3])
            assert await producer.partitions_for(unique_topic) == {0, 1, 2, 3}
            for i in range(20):  # flush() waits for the futures nobody awaited
                await producer.send(unique_topic, b"f%d" % i, partition=2)
            await producer.flush()
            batch = producer.create_batch()
            assert batch.append(key="bk", value=b"bv", timestamp=None, headers=[("h", b"2")]) is not None
            assert batch.append(key=None, value=b"bv2", timestamp=None) is not None
            first = await (await producer.send_batch(batch, unique_topic, partition=3))
            assert first.partition == 3 and first.offset == 0
            # No partition: the partitioner picks one for the whole batch, as aiokafka's does.
            anywhere = producer.create_batch()
            for value in (b"any0", b"any1"):
                anywhere.append(key=None, value=value, timestamp=None)
            picked = await (await producer.send_batch(anywhere, unique_topic, partition=None))
            assert picked.partition in {0, 1, 2, 3}
            with pytest.raises(AssertionError, match="Unrecognized partition"):
                await producer.send_batch(producer.create_batch(), unique_topic, partition=99)
            with pytest.raises(AssertionError, match="Unrecognized partition"):
                await producer.send(unique_topic, b"nowhere", partition=99)
        finally:
            await producer.stop()

        async with AIOKafkaConsumer(unique_topic, bootstrap_servers=kafka_bootstrap,
                                    auto_offset_reset="earliest") as consumer:
            got: List[ConsumerRecord] = []
            while len(got) < 2 + 2 + 20 + 2 + 2:
                for msgs in (await consumer.getmany(timeout_ms=5000)).values():
                    got.extend(msgs)
        by_value = {r.value: r for r in got}
        r0 = by_value[b"v0"]
        assert (r0.key, r0.timestamp, r0.headers, r0.serialized_key_size) == (b"k", 1234567, (("h", b"1"),), 1)
        assert by_value[b"bv"].headers == (("h", b"2"),) and by_value[b"bv2"].key is None
        assert by_value[b"bv2"].serialized_key_size == -1
        assert by_value[b"any0"].partition == by_value[b"any1"].partition == picked.partition

    run(main, loop)


def test_producer_start_fails_without_broker() -> None:
    async def main() -> None:
        producer = AIOKafkaProducer(bootstrap_servers="127.0.0.1:1", request_timeout_ms=300)
        with pytest.raises(errors.KafkaConnectionError, match="Unable to bootstrap"):
            await producer.start()
        await producer.stop()
        consumer = AIOKafkaConsumer(bootstrap_servers="127.0.0.1:1", request_timeout_ms=300)
        with pytest.raises(errors.KafkaConnectionError):
            await consumer.start()
        await consumer.stop()

    run(main)


def test_transactions_commit_and_abort(kafka_bootstrap: str, unique_topic: str) -> None:
    """A long linger keeps each record queued until its transaction ends: a commit sends it, an
    abort purges it. (A record already written when its transaction aborts would stay visible:
    tansu's read_committed does not filter aborted data, see shared/reference/test-brokers.md.)"""
    async def main() -> List[bytes]:
        async with AIOKafkaProducer(bootstrap_servers=kafka_bootstrap, linger_ms=2000,
                                    transactional_id="txn-" + unique_topic) as producer:
            async with producer.transaction():
                await producer.send(unique_topic, b"kept", partition=0)
            with pytest.raises(RuntimeError, match="boom"):
                async with producer.transaction():
                    aborted = await producer.send(unique_topic, b"aborted", partition=0)
                    raise RuntimeError("boom")
            await producer.begin_transaction()
            aborted_too = await producer.send(unique_topic, b"aborted too", partition=0)
            await producer.abort_transaction()
            assert aborted.done() and aborted_too.done()
            assert aborted.exception() is not None and aborted_too.exception() is not None
            await producer.begin_transaction()
            await producer.send(unique_topic, b"kept too", partition=0)
            await producer.commit_transaction()
            with pytest.raises(errors.IllegalOperation):
                await producer.send(unique_topic, b"outside", partition=0)
        values: List[bytes] = []
        async with AIOKafkaConsumer(bootstrap_servers=kafka_bootstrap, isolation_level="read_committed",
                                    auto_offset_reset="earliest") as consumer:
            consumer.assign([TopicPartition(unique_topic, 0)])
            deadline = time.monotonic() + 20
            while len(values) < 2 and time.monotonic() < deadline:
                for msgs in (await consumer.getmany(timeout_ms=1000)).values():
                    values.extend(m.value for m in msgs)
            for msgs in (await consumer.getmany(timeout_ms=500)).values():
                values.extend(m.value for m in msgs)
        return values

    assert run(main) == [b"kept", b"kept too"]


def test_consumer_positions_and_fetching(kafka_bootstrap: str, unique_topic: str) -> None:
    produce_values(kafka_bootstrap, unique_topic, {0: [b"a%d" % i for i in range(10)], 1: [b"b%d" % i for i in range(5)]})
    tp0, tp1 = TopicPartition(unique_topic, 0), TopicPartition(unique_topic, 1)

    async def main() -> None:
        consumer = AIOKafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id="g-" + unique_topic,
                                    enable_auto_commit=False, auto_offset_reset="earliest", max_poll_records=3)
        await consumer.start()
        try:
            consumer.assign([tp0, tp1])
            assert consumer.assignment() == {tp0, tp1}
            assert await consumer.position(tp0) == 0  # no commit: auto_offset_reset earliest
            await consumer.seek_to_beginning()
            # getone(*partitions): only from those; the others wait for later calls.
            r = await consumer.getone(tp1)
            assert (r.partition, r.value) == (1, b"b0")
            assert consumer.last_poll_timestamp(tp1) is not None
            many = await consumer.getmany(tp0, timeout_ms=5000)
            assert set(many) == {tp0} and 1 <= len(many[tp0]) <= 3  # max_poll_records
            assert [m.value for m in many[tp0]] == [b"a%d" % i for i in range(len(many[tp0]))]
            one = await consumer.getmany(tp0, timeout_ms=5000, max_records=1)
            assert len(one[tp0]) == 1
            consumer.seek(tp0, 7)
            nxt = await consumer.getone(tp0)
            assert nxt.offset == 7 and await consumer.position(tp0) == 8
            assert consumer.highwater(tp0) == 10
            assert consumer.last_stable_offset(tp0) == 10
            await consumer.seek_to_end(tp0)
            assert await consumer.getmany(tp0, timeout_ms=300) == {}
            # Commits: a dict, with OffsetAndMetadata, then the current positions.
            await consumer.commit({tp0: 4, tp1: OffsetAndMetadata(2, "meta")})
            assert await consumer.committed(tp0) == 4 and await consumer.committed(tp1) == 2
            assert await consumer.seek_to_committed(tp0) == {tp0: 4}
            assert (await consumer.getone(tp0)).offset == 4
            await consumer.commit()
            assert await consumer.committed(tp0) == 5
            with pytest.raises(ValueError):
                await consumer.commit({tp0: -5})
            with pytest.raises(ValueError):
                await consumer.commit([tp0])  # type: ignore[arg-type]
            # pause / resume
            consumer.pause(tp1)
            assert consumer.paused() == {tp1}
            consumer.resume(tp1)
            assert consumer.paused() == set()
            assert unique_topic in await consumer.topics()
            assert consumer.partitions_for_topic(unique_topic) == {0, 1, 2, 3}
            assert consumer.partitions_for_topic("no-such-topic-" + unique_topic) is None
            lows = await consumer.beginning_offsets([tp0, tp1])
            assert lows == {tp0: 0, tp1: 0}
            ends = await consumer.end_offsets([tp0])
            assert ends[tp0] >= 1  # (tansu reports the end of a many-record batch as its start + 1)
            times = await consumer.offsets_for_times({tp0: 0})
            assert times[tp0] is not None and times[tp0].offset == 0
            with pytest.raises(ValueError, match="cannot be negative"):
                await consumer.offsets_for_times({tp0: -1})
            consumer.unsubscribe()
            assert consumer.assignment() == set()
        finally:
            await consumer.stop()

    run(main)


def test_async_for_ends_and_pending_getone_raises_on_stop(kafka_bootstrap: str, unique_topic: str) -> None:
    produce_values(kafka_bootstrap, unique_topic, {0: [b"x0", b"x1", b"x2"]})

    async def main() -> None:
        consumer = AIOKafkaConsumer(bootstrap_servers=kafka_bootstrap, auto_offset_reset="earliest")
        await consumer.start()
        consumer.assign([TopicPartition(unique_topic, 0)])
        seen: List[bytes] = []
        async for msg in consumer:
            seen.append(msg.value)
            if len(seen) == 3:
                break
        assert seen == [b"x0", b"x1", b"x2"]
        waiting = asyncio.ensure_future(consumer.getone())
        await asyncio.sleep(0.2)
        await consumer.stop()
        with pytest.raises(ConsumerStoppedError):
            await asyncio.wait_for(waiting, 10)

    run(main)


def test_offset_out_of_range_with_reset_none(kafka_bootstrap: str, unique_topic: str) -> None:
    produce_values(kafka_bootstrap, unique_topic, {0: [b"only"]})

    async def main() -> Any:
        consumer = AIOKafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id="g-" + unique_topic,
                                    auto_offset_reset="none", enable_auto_commit=False)
        await consumer.start()
        try:
            tp = TopicPartition(unique_topic, 0)
            consumer.assign([tp])
            with pytest.raises(errors.OffsetOutOfRangeError) as info:
                for _ in range(20):
                    await consumer.getmany(timeout_ms=500)
            assert list(info.value.args[0]) == [tp]
            await consumer.seek_to_beginning(tp)
            return (await consumer.getone()).value
        finally:
            await consumer.stop()

    assert run(main) == b"only"


def test_listener_pattern_subscription_and_revoke(kafka_bootstrap: str, unique_topic: str,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    produce_values(kafka_bootstrap, unique_topic, {0: [b"p"]})
    calls: List[Any] = []

    class Listener(ConsumerRebalanceListener):
        def on_partitions_revoked(self, revoked: Set[TopicPartition]) -> None:  # a plain function
            calls.append(("revoked", revoked))

        async def on_partitions_assigned(self, assigned: Set[TopicPartition]) -> None:
            await asyncio.sleep(0)
            calls.append(("assigned", assigned, holder[0].assignment()))
            # What programs read of aiokafka's internals (FastStream logs them on each assignment).
            coordinator = holder[0]._coordinator
            membership.append((coordinator.group_id, coordinator.member_id, coordinator.generation,
                               holder[0]._subscription.topics, holder[0]._c.memberid()))
            raise RuntimeError("a failing listener is logged, as in aiokafka")

    async def main() -> None:
        consumer = AIOKafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id="g-" + unique_topic,
                                    auto_offset_reset="earliest", **FAST_GROUP)
        holder.append(consumer)
        assert consumer._coordinator is None  # until start(), as in aiokafka
        await consumer.start()
        assert (consumer._coordinator.member_id, consumer._coordinator.generation) == ("", -1)  # not joined yet
        try:
            consumer.subscribe(pattern=unique_topic + ".*", listener=Listener())
            r = await consumer.getone()
            assert r.value == b"p"
            assert consumer.subscription() == {unique_topic}
            with pytest.raises(errors.IllegalStateError):
                consumer.assign([TopicPartition(unique_topic, 0)])
            consumer.unsubscribe()
            for _ in range(50):
                if calls[-1][0] == "revoked" and calls[-1][1]:
                    break
                await asyncio.wait_for(consumer.getmany(timeout_ms=100), 5)
        finally:
            await consumer.stop()
        assert (consumer._coordinator.member_id, consumer._coordinator.generation) == ("", -1)
        assert consumer._subscription.topics == frozenset()

    holder: List[AIOKafkaConsumer] = []
    membership: List[Any] = []
    run(main)
    group, member, generation, topics, native_member = membership[0]
    assert (group, topics) == ("g-" + unique_topic, {unique_topic})
    assert member and member == native_member and generation >= 0
    everything = {TopicPartition(unique_topic, p) for p in range(4)}
    assert calls[0] == ("revoked", set())
    assert calls[1] == ("assigned", everything, everything)
    assert calls[-1] == ("revoked", everything)
    assert any("failed on on_partitions_assigned" in r.getMessage() for r in caplog.records)


def test_buffered_records_respect_pause_position_and_commit(kafka_bootstrap: str, unique_topic: str) -> None:
    """getone() takes a batch from librdkafka; what it has not returned yet is neither returned for a
    paused partition, nor counted by position() or commit()."""
    produce_values(kafka_bootstrap, unique_topic, {0: [b"r%d" % i for i in range(10)]})
    tp = TopicPartition(unique_topic, 0)

    async def main() -> None:
        consumer = AIOKafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id="g-" + unique_topic,
                                    enable_auto_commit=False, auto_offset_reset="earliest")
        await consumer.start()
        try:
            consumer.assign([tp])
            first = await consumer.getone()
            assert first.offset == 0
            assert await consumer.position(tp) == 1
            consumer.pause(tp)
            assert await consumer.getmany(timeout_ms=300) == {}
            consumer.resume(tp)
            assert (await consumer.getone()).offset == 1
            await consumer.commit()
            assert await consumer.committed(tp) == 2  # not the end of what was fetched
            rest = await consumer.getmany(timeout_ms=2000, max_records=3)
            assert [r.offset for r in rest[tp]] == [2, 3, 4]
            await consumer.commit()
            assert await consumer.committed(tp) == 5
        finally:
            await consumer.stop()

    run(main)
