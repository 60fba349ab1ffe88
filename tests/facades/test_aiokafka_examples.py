"""The examples of aiokafka's documentation, run on the aiokafka facade against tansu.

Each example keeps the seed's code; only the broker address, the topic and group names (made
unique per test), endless loops (bounded here) and prints (collected into lists) differ.
"""
from __future__ import annotations

import asyncio
import json
import pathlib
import random
import time
import uuid
from collections import Counter, defaultdict
from typing import Any, Dict, List

import pytest

from aio_support import run
from confluent_kafka.admin import AdminClient, NewTopic
from confluent_kafka.compat.aiokafka import (AIOKafkaConsumer, AIOKafkaProducer, ConsumerRebalanceListener,
                                             TopicPartition)
from confluent_kafka.compat.aiokafka.errors import OffsetOutOfRangeError
from consumer_helpers import produce_values

pytestmark = pytest.mark.integration

FAST_GROUP = {"session_timeout_ms": 6000, "heartbeat_interval_ms": 1000}


def _create(bootstrap: str, topic: str, partitions: int) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    try:
        for fut in admin.create_topics([NewTopic(topic, partitions, 1)]).values():
            fut.result(30)
    finally:
        admin.close()


def _count_records(bootstrap: str, topic: str, want: int) -> int:
    async def count() -> int:
        consumer = AIOKafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest")
        await consumer.start()
        n = 0
        deadline = time.monotonic() + 60
        try:
            while n < want:
                assert time.monotonic() < deadline, f"{n} of {want} records read in 60 s"
                n += sum(len(v) for v in (await consumer.getmany(timeout_ms=1000)).values())
            n += sum(len(v) for v in (await consumer.getmany(timeout_ms=200)).values())
        finally:
            await consumer.stop()
        return n
    return run(count)


def test_getting_started_producer_and_consumer(kafka_bootstrap: str, unique_topic: str) -> None:
    seen: List[Any] = []

    async def send_one() -> None:
        producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap)
        await producer.start()
        try:
            await producer.send_and_wait(unique_topic, b"Super message")
        finally:
            await producer.stop()

    async def consume() -> None:
        consumer = AIOKafkaConsumer(unique_topic, "my_other_topic-" + unique_topic, bootstrap_servers=kafka_bootstrap,
                                    group_id="my-group-" + unique_topic, auto_offset_reset="earliest", **FAST_GROUP)
        await consumer.start()
        try:
            async for msg in consumer:
                seen.append((msg.topic, msg.partition, msg.offset, msg.key, msg.value, msg.timestamp))
                break  # the seed loops forever
        finally:
            await consumer.stop()

    run(send_one)
    run(consume)
    assert len(seen) == 1
    topic, _, offset, key, value, ts = seen[0]
    assert (topic, offset, key, value) == (unique_topic, 0, None, b"Super message") and ts > 0


def test_serialization_and_compression(kafka_bootstrap: str, unique_topic: str) -> None:
    def serializer(value: Any) -> bytes:
        return json.dumps(value).encode()

    def deserializer(serialized: bytes) -> Any:
        return json.loads(serialized)

    out: List[Any] = []

    async def produce() -> None:
        producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap, value_serializer=serializer,
                                    compression_type="gzip")
        await producer.start()
        data: Any = {"a": 123.4, "b": "some string"}
        await producer.send(unique_topic, data, partition=0)  # partition: one order for the check
        data = [1, 2, 3, 4]
        await producer.send(unique_topic, data, partition=0)
        await producer.stop()

    async def consume() -> None:
        consumer = AIOKafkaConsumer(unique_topic, bootstrap_servers=kafka_bootstrap,
                                    value_deserializer=deserializer, auto_offset_reset="earliest")
        await consumer.start()
        deadline = time.monotonic() + 60
        while len(out) < 2:  # the seed makes one getmany(timeout_ms=10000) call
            assert time.monotonic() < deadline, f"read in 60 s: {out}"
            data = await consumer.getmany(timeout_ms=10000)
            for tp, messages in data.items():
                for message in messages:
                    out.append((type(message.value), message.value))
        await consumer.stop()

    run(produce)
    run(consume)
    assert out == [(dict, {"a": 123.4, "b": "some string"}), (list, [1, 2, 3, 4])]


def test_manual_commit(kafka_bootstrap: str, unique_topic: str) -> None:
    produce_values(kafka_bootstrap, unique_topic, {0: [b"m%d" % i for i in range(12)]})
    group = "some-consumer-group-" + unique_topic
    tp = TopicPartition(unique_topic, 0)
    got: List[bytes] = []

    async def consume() -> int:
        consumer = AIOKafkaConsumer(unique_topic, bootstrap_servers=kafka_bootstrap, auto_offset_reset="earliest",
                                    group_id=group, enable_auto_commit=False, **FAST_GROUP)
        await consumer.start()
        for _ in range(10):
            msg = await consumer.getone()
            got.append(msg.value)
            await consumer.commit()
        committed = await consumer.committed(tp)
        await consumer.stop()
        return committed

    assert run(consume) == 10
    assert got == [b"m%d" % i for i in range(10)]


def test_group_consumer(kafka_bootstrap: str, unique_topic: str) -> None:
    _create(kafka_bootstrap, unique_topic, 2)

    async def produce(value: bytes, partition: int) -> None:
        producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap)
        await producer.start()
        await producer.send(unique_topic, value, partition=partition)
        await producer.stop()

    async def consume(group_id: str, msg_cnt: int, lines: List[str]) -> None:
        consumer = AIOKafkaConsumer(unique_topic, group_id=group_id, bootstrap_servers=kafka_bootstrap,
                                    auto_offset_reset="earliest", **FAST_GROUP)
        await consumer.start()
        for _ in range(msg_cnt):
            msg = await consumer.getone()
            lines.append(f"Message from partition [{msg.partition}]: {msg.value!r}")
        await consumer.stop()

    for partition, text in ((0, "message #1"), (0, "message #2"), (1, "message #3"), (1, "message #4")):
        run(lambda: produce(text.encode(), partition))
    other: List[str] = []
    run(lambda: consume("OTHER_GROUP-" + unique_topic, 4, other))
    assert sorted(other) == ["Message from partition [0]: b'message #1'", "Message from partition [0]: b'message #2'",
                             "Message from partition [1]: b'message #3'", "Message from partition [1]: b'message #4'"]
    # Within a partition the order is kept.
    assert [line for line in other if "[0]" in line] == ["Message from partition [0]: b'message #1'",
                                                        "Message from partition [0]: b'message #2'"]


def test_custom_partitioner(kafka_bootstrap: str, unique_topic: str) -> None:
    _create(kafka_bootstrap, unique_topic, 10)
    lines: List[str] = []

    def my_partitioner(key: bytes, all_partitions: List[int], available_partitions: List[int]) -> int:
        if key == b"first":
            return all_partitions[0]
        elif key == b"last":
            return all_partitions[-1]
        return random.choice(all_partitions)

    async def produce_one(producer: AIOKafkaProducer, key: bytes, value: bytes) -> None:
        future = await producer.send(unique_topic, value, key=key)
        resp = await future
        lines.append("%s produced in partition: %i" % (value.decode(), resp.partition))

    async def produce_task() -> None:
        producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap, partitioner=my_partitioner)
        await producer.start()
        await produce_one(producer, b"last", b"1")
        await produce_one(producer, b"some", b"2")
        await produce_one(producer, b"first", b"3")
        await producer.stop()

    run(produce_task)
    assert lines[0] == "1 produced in partition: 9" and lines[2] == "3 produced in partition: 0"
    assert lines[1].startswith("2 produced in partition: ")


def test_batch_producer(kafka_bootstrap: str, unique_topic: str) -> None:
    _create(kafka_bootstrap, unique_topic, 3)
    sent: List[tuple] = []

    async def send_many(num: int) -> None:
        topic = unique_topic
        producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap)
        await producer.start()

        batch = producer.create_batch()

        i = 0
        while i < num:
            msg = ("Test message %d" % i).encode("utf-8")
            metadata = batch.append(key=None, value=msg, timestamp=None)
            if metadata is None:
                partitions = await producer.partitions_for(topic)
                partition = random.choice(tuple(partitions))
                await producer.send_batch(batch, topic, partition=partition)
                sent.append((batch.record_count(), partition))
                batch = producer.create_batch()
                continue
            i += 1
        partitions = await producer.partitions_for(topic)
        partition = random.choice(tuple(partitions))
        await producer.send_batch(batch, topic, partition=partition)
        sent.append((batch.record_count(), partition))
        await producer.stop()

    run(lambda: send_many(1000))
    assert sum(n for n, _ in sent) == 1000
    assert len(sent) > 1 and all(0 < n < 1000 for n, _ in sent)  # 16 KB batches of ~35 B records
    # (tansu's ListOffsets reports the end of a many-record batch wrongly: count by reading.)
    assert _count_records(kafka_bootstrap, unique_topic, 1000) == 1000


def test_local_state_consumer(kafka_bootstrap: str, unique_topic: str, tmp_path: pathlib.Path) -> None:
    """The rebalance-listener example: counts per key, saved to files on revoke, reloaded on assign."""
    _create(kafka_bootstrap, unique_topic, 3)
    FILE_NAME_TMPL = str(tmp_path / "my-partition-state-{tp.topic}-{tp.partition}.json")
    events: List[tuple] = []

    class RebalanceListener(ConsumerRebalanceListener):

        def __init__(self, consumer: AIOKafkaConsumer, local_state: "LocalState") -> None:
            self.consumer = consumer
            self.local_state = local_state

        async def on_partitions_revoked(self, revoked: Any) -> None:
            events.append(("Revoked", set(revoked)))
            self.local_state.dump_local_state()

        async def on_partitions_assigned(self, assigned: Any) -> None:
            events.append(("Assigned", set(assigned)))
            self.local_state.load_local_state(assigned)
            for tp in assigned:
                last_offset = self.local_state.get_last_offset(tp)
                if last_offset < 0:
                    await self.consumer.seek_to_beginning(tp)
                else:
                    self.consumer.seek(tp, last_offset + 1)

    class LocalState:

        def __init__(self) -> None:
            self._counts: Dict[Any, Counter] = {}
            self._offsets: Dict[Any, int] = {}

        def dump_local_state(self) -> None:
            for tp in self._counts:
                fpath = pathlib.Path(FILE_NAME_TMPL.format(tp=tp))
                with fpath.open("w+") as f:
                    json.dump({"last_offset": self._offsets[tp], "counts": dict(self._counts[tp])}, f)

        def load_local_state(self, partitions: Any) -> None:
            self._counts.clear()
            self._offsets.clear()
            for tp in partitions:
                fpath = pathlib.Path(FILE_NAME_TMPL.format(tp=tp))
                state: Dict[str, Any] = {"last_offset": -1, "counts": {}}  # Non existing, will reset
                if fpath.exists():
                    with fpath.open("r+") as f:
                        try:
                            state = json.load(f)
                        except json.JSONDecodeError:
                            pass
                self._counts[tp] = Counter(state["counts"])
                self._offsets[tp] = state["last_offset"]

        def add_counts(self, tp: Any, counts: Counter, last_offset: int) -> None:
            self._counts[tp] += counts
            self._offsets[tp] = last_offset

        def get_last_offset(self, tp: Any) -> int:
            return self._offsets[tp]

        def discard_state(self, tps: Any) -> None:
            for tp in tps:
                self._offsets[tp] = -1
                self._counts[tp] = Counter()

    async def save_state_every_second(local_state: LocalState) -> None:
        while True:
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                break
            local_state.dump_local_state()

    async def consume(want: int) -> Dict[Any, Counter]:
        consumer = AIOKafkaConsumer(
            bootstrap_servers=kafka_bootstrap,
            group_id="my_group-" + unique_topic,  # Consumer must be in a group to commit
            enable_auto_commit=False,  # Will disable autocommit
            auto_offset_reset="none",
            key_deserializer=lambda key: key.decode("utf-8") if key else "",
            **FAST_GROUP,
        )
        await consumer.start()

        local_state = LocalState()
        listener = RebalanceListener(consumer, local_state)
        consumer.subscribe(topics=[unique_topic], listener=listener)

        save_task = asyncio.create_task(save_state_every_second(local_state))
        seen = 0
        deadline = time.monotonic() + 60
        try:
            while seen < want:  # the seed loops forever
                assert time.monotonic() < deadline, f"{seen} of {want} records read in 60 s"
                try:
                    msg_set = await consumer.getmany(timeout_ms=1000)
                except OffsetOutOfRangeError as err:
                    # This means that saved file is outdated and should be discarded
                    tps = err.args[0].keys()
                    local_state.discard_state(tps)
                    await consumer.seek_to_beginning(*tps)
                    continue

                for tp, msgs in msg_set.items():
                    counts: Counter = Counter()
                    for msg in msgs:
                        counts[msg.key] += 1
                        seen += 1
                    local_state.add_counts(tp, counts, msg.offset)
        finally:
            await consumer.stop()
            save_task.cancel()
            await save_task
        local_state.dump_local_state()
        return dict(local_state._counts)

    keys = [b"123", b"9999", b"1111", b"4444", b"123123", b"5555"]
    produce_values(kafka_bootstrap, unique_topic, {p: [] for p in range(3)})
    from confluent_kafka import Producer
    prod = Producer({"bootstrap.servers": kafka_bootstrap, "partitioner": "murmur2_random"})
    for k in keys * 2:
        prod.produce(unique_topic, b"x", key=k)
    assert prod.flush(30) == 0
    counts = run(lambda: consume(12))
    assert events[0] == ("Revoked", set()) and events[1][0] == "Assigned"
    assert events[1][1] == {TopicPartition(unique_topic, p) for p in range(3)}
    assert sum(sum(c.values()) for c in counts.values()) == 12
    assert {k for c in counts.values() for k in c} == {k.decode() for k in keys}
    # Saved state: a second run starts after the saved offsets and sees only the new records.
    for k in keys[:2]:
        prod.produce(unique_topic, b"y", key=k)
    assert prod.flush(30) == 0
    prod.close()
    counts2 = run(lambda: consume(2))
    total = Counter()
    for c in counts2.values():
        total.update(c)
    assert total["123"] == 3 and total["9999"] == 3 and total["1111"] == 2


def test_transactional_consume_process_produce(kafka_bootstrap: str, unique_topic: str) -> None:
    IN_TOPIC = unique_topic + "-in"
    GROUP_ID = "processing-group-" + unique_topic
    OUT_TOPIC = unique_topic + "-out"
    TRANSACTIONAL_ID = "my-txn-id-" + unique_topic
    produce_values(kafka_bootstrap, IN_TOPIC, {0: [b"a", b"b", b"c"]})
    from confluent_kafka import Producer
    p = Producer({"bootstrap.servers": kafka_bootstrap})
    for key in (b"k1", b"k1", b"k2"):
        p.produce(IN_TOPIC, b"v", key=key, partition=0)
    assert p.flush(30) == 0
    p.close()

    def process_batch(msgs: List[Any]) -> List[tuple]:
        buckets_by_key: Dict[Any, Counter] = defaultdict(Counter)
        for msg in msgs:
            timestamp = (msg.timestamp // 60_000) * 60
            buckets_by_key[msg.key][timestamp] += 1
        res = []
        for key, counts in buckets_by_key.items():
            for timestamp, count in counts.items():
                value = str(count).encode()
                res.append((key, value, timestamp))
        return res

    async def transactional_process() -> None:
        consumer = AIOKafkaConsumer(IN_TOPIC, bootstrap_servers=kafka_bootstrap, enable_auto_commit=False,
                                    group_id=GROUP_ID, isolation_level="read_committed",
                                    auto_offset_reset="earliest", **FAST_GROUP)
        await consumer.start()
        producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap, transactional_id=TRANSACTIONAL_ID)
        await producer.start()
        done = 0
        deadline = time.monotonic() + 60
        try:
            while done < 6:  # the seed loops forever
                assert time.monotonic() < deadline, f"{done} of 6 records processed in 60 s"
                msg_batch = await consumer.getmany(timeout_ms=2000)
                async with producer.transaction():
                    commit_offsets = {}
                    in_msgs = []
                    for tp, msgs in msg_batch.items():
                        in_msgs.extend(msgs)
                        commit_offsets[tp] = msgs[-1].offset + 1
                    done += len(in_msgs)
                    out_msgs = process_batch(in_msgs)
                    for key, value, timestamp in out_msgs:
                        await producer.send(OUT_TOPIC, value=value, key=key, timestamp_ms=int(timestamp * 1000))
                    await producer.send_offsets_to_transaction(commit_offsets, GROUP_ID)
        finally:
            await consumer.stop()
            await producer.stop()

    async def check() -> tuple:
        consumer = AIOKafkaConsumer(OUT_TOPIC, bootstrap_servers=kafka_bootstrap, isolation_level="read_committed",
                                    auto_offset_reset="earliest")
        await consumer.start()
        out: Counter = Counter()
        deadline = time.monotonic() + 60
        while sum(out.values()) < 6:  # the counts of all six input records (3 keyless, 2 k1, 1 k2)
            assert time.monotonic() < deadline, f"counts read in 60 s: {out}"
            for msgs in (await consumer.getmany(timeout_ms=2000)).values():
                for m in msgs:
                    out[m.key] += int(m.value)
        await consumer.stop()
        c2 = AIOKafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id=GROUP_ID)
        await c2.start()
        committed = await c2.committed(TopicPartition(IN_TOPIC, 0))
        await c2.stop()
        return out, committed

    run(transactional_process)
    out, committed = run(check)
    assert committed == 6
    assert out[None] == 3 and out[b"k1"] == 2 and out[b"k2"] == 1
