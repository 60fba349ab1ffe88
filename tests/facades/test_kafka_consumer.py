"""KafkaConsumer of the kafka-python facade on the tansu broker: the seed documents' examples and
every method, with bad arguments."""
from __future__ import annotations

import time
from typing import Any, List

import pytest

from confluent_kafka.compat import kafka
from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka import ConsumerRebalanceListener, OffsetAndMetadata, TopicPartition
from confluent_kafka.compat.kafka.consumer.fetcher import ConsumerRecord

GROUP_OPTS = {"session_timeout_ms": 6000, "heartbeat_interval_ms": 1000, "auto_offset_reset": "earliest"}


def _values(records: List[Any]) -> List[bytes]:
    return [r.value for r in records]


def test_seed_example_iterate_group(kafka_bootstrap, facade_topic, produce_native, capsys):
    """kafka-python docs 3.1.4: a group consumer iterated, printing topic:partition:offset key value."""
    topic = facade_topic()
    produce_native(topic, [b"some message", b"another"], key=b"k")
    consumer = kafka.KafkaConsumer(topic, group_id="my_group", bootstrap_servers=[kafka_bootstrap],
                                   consumer_timeout_ms=15000, **GROUP_OPTS)
    for message in consumer:
        print("%s:%d:%d: key=%s value=%s" % (message.topic, message.partition, message.offset,
                                             message.key, message.value))
        if message.offset == 1:
            break
    consumer.close()
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{topic}:0:0: key=b'k' value=b'some message'", f"{topic}:0:1: key=b'k' value=b'another'"]


def test_seed_example_old_options_refused(kafka_bootstrap):
    """The seed's older example passes auto_commit_enable / deserializer_class, which kafka-python 3
    refuses by name; so does the facade."""
    with pytest.raises(Errors.KafkaConfigurationError, match="auto_commit_enable"):
        kafka.KafkaConsumer("topic1", "topic2", bootstrap_servers=[kafka_bootstrap], group_id="g",
                            auto_commit_enable=True, auto_commit_interval_ms=30 * 1000, auto_offset_reset="smallest")
    with pytest.raises(Errors.KafkaConfigurationError, match="deserializer_class"):
        kafka.KafkaConsumer(bootstrap_servers=kafka_bootstrap, deserializer_class=lambda m: m)


def test_record_fields_deserializers_and_poll(kafka_bootstrap, facade_topic, produce_native):
    topic = facade_topic(2)
    produce_native(topic, [b'{"a": 1}', b'{"a": 2}', b'{"a": 3}'], partition=0, key=b"key",
                   headers=[("h", b"v")], timestamp=1_700_000_000_000)
    produce_native(topic, [b'{"a": 9}'], partition=1)
    import json
    consumer = kafka.KafkaConsumer(bootstrap_servers=kafka_bootstrap, auto_offset_reset="earliest",
                                   key_deserializer=lambda k: k.decode() if k is not None else None,
                                   value_deserializer=lambda v: json.loads(v))
    tps = [TopicPartition(topic, 0), TopicPartition(topic, 1)]
    consumer.assign(tps)
    assert consumer.assignment() == set(tps)
    got: dict = {}
    deadline = time.monotonic() + 20
    while sum(map(len, got.values())) < 4 and time.monotonic() < deadline:
        for tp, records in consumer.poll(timeout_ms=1000, max_records=2).items():
            assert isinstance(tp, TopicPartition) and len(records) <= 2
            got.setdefault(tp, []).extend(records)
    first = got[tps[0]][0]
    assert isinstance(first, ConsumerRecord)
    assert (first.topic, first.partition, first.offset, first.key, first.value) == (topic, 0, 0, "key", {"a": 1})
    assert (first.timestamp, first.timestamp_type, first.headers, first.checksum) == (1_700_000_000_000, 0, [("h", b"v")], None)
    assert (first.serialized_key_size, first.serialized_value_size, first.serialized_header_size) == (3, 8, 2)
    assert first.leader_epoch >= 0 or first.leader_epoch == -1
    assert [r.value["a"] for r in got[tps[0]]] == [1, 2, 3]
    nokey = got[tps[1]][0]
    assert (nokey.key, nokey.serialized_key_size, nokey.headers, nokey.serialized_header_size) == (None, -1, [], -1)
    assert consumer.position(tps[0]) == 3 and consumer.position(tps[1]) == 1
    # bad arguments
    with pytest.raises(ValueError):
        consumer.poll(timeout_ms=-1)
    with pytest.raises(ValueError):
        consumer.poll(max_records=0)
    with pytest.raises(TypeError):
        consumer.poll(max_records=1.5)
    with pytest.raises(TypeError):
        consumer.position("not a partition")
    consumer.close()
    with pytest.raises(Errors.IllegalStateError):
        consumer.poll()
    consumer.close()  # twice is fine


def test_seek_position_pause_offsets(kafka_bootstrap, facade_topic, produce_native):
    topic = facade_topic()
    produce_native(topic, [b"m%d" % i for i in range(6)])
    tp = TopicPartition(topic, 0)
    consumer = kafka.KafkaConsumer(bootstrap_servers=kafka_bootstrap, consumer_timeout_ms=1500)
    consumer.assign([tp])
    consumer.seek(tp, 4)                      # right after assign: before any fetch
    assert _values(list(consumer)) == [b"m4", b"m5"]
    assert consumer.position(tp) == 6
    consumer.seek_to_beginning(tp)
    it = iter(consumer)
    assert next(it).value == b"m0" and consumer.position(tp) == 1   # position counts handed-out records
    assert _values(consumer.poll(timeout_ms=5000, max_records=1)[tp]) == [b"m1"]   # poll after iteration
    assert consumer.position(tp) == 2
    consumer.seek(tp, 2)
    assert next(it).value == b"m2"
    consumer.seek_to_end()
    assert list(consumer) == []
    consumer.seek_to_beginning()
    consumer.pause(tp)
    assert consumer.paused() == {tp}
    assert consumer.poll(timeout_ms=800) == {}
    consumer.resume(tp)
    assert consumer.paused() == set()
    assert _values([r for rs in consumer.poll(timeout_ms=5000, max_records=10).values() for r in rs])[:1] == [b"m0"]
    assert consumer.beginning_offsets([tp]) == {tp: 0}
    assert consumer.end_offsets([tp]) == {tp: 6}
    found = consumer.offsets_for_times({tp: 0})[tp]
    assert found.offset == 0 and found.timestamp > 0
    later = consumer.offsets_for_times({tp: int(time.time() * 1000) + 3_600_000})[tp]
    assert later is None or later.timestamp == -1  # no such record (tansu answers offset 0, timestamp -1)
    assert consumer.highwater(tp) in (None, 6)
    assert consumer.partitions_for_topic(topic) == {0}
    assert consumer.partitions_for_topic("no-such-topic-" + topic) is None
    assert topic in consumer.topics()
    with pytest.raises(ValueError):
        consumer.seek(tp, -1)
    with pytest.raises(ValueError):
        consumer.seek(TopicPartition(topic, 7), 0)
    with pytest.raises(ValueError):
        consumer.offsets_for_times({tp: -1})
    with pytest.raises(Errors.IllegalStateError):
        consumer.subscribe([topic])
    with pytest.raises(Errors.IllegalStateError):
        consumer.commit()                     # no group_id
    consumer.unsubscribe()
    assert consumer.assignment() == set()
    consumer.close()


def test_subscribe_commit_listener_metrics(kafka_bootstrap, facade_topic, produce_native):
    topic = facade_topic()
    produce_native(topic, [b"a", b"b", b"c"])
    tp = TopicPartition(topic, 0)
    events: list = []

    class Listener(ConsumerRebalanceListener):
        def on_partitions_revoked(self, revoked):
            events.append(("revoked", set(revoked)))

        def on_partitions_assigned(self, assigned):
            events.append(("assigned", set(assigned)))

    group = f"g-{topic}"
    consumer = kafka.KafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id=group, enable_auto_commit=False,
                                   consumer_timeout_ms=20000, **GROUP_OPTS)
    with pytest.raises(TypeError):
        consumer.subscribe([topic], listener=object())
    with pytest.raises(ValueError):
        consumer.subscribe()
    with pytest.raises(Errors.IllegalStateError):
        consumer.subscribe([topic], pattern="x")
    consumer.subscribe([topic], listener=Listener())
    assert consumer.subscription() == {topic}
    record = next(iter(consumer))
    assert record.value == b"a" and ("assigned", {tp}) in events
    assert consumer.assignment() == {tp}
    assert consumer.committed(tp) is None
    consumer.commit()
    assert consumer.committed(tp) == 1
    consumer.commit({tp: OffsetAndMetadata(2, "", -1)})
    assert consumer.committed(tp, metadata=True).offset == 2
    seen = []
    future = consumer.commit_async({tp: OffsetAndMetadata(3, "", -1)}, callback=lambda o, r: seen.append((o, r)))
    assert future.succeeded() and seen and seen[0][1] is None and seen[0][0][tp].offset == 3
    assert consumer.committed(tp) == 3
    meta = consumer.group_metadata()
    assert meta.group_id == group and meta.member_id == consumer._consumer.memberid()
    assert meta.generation_id >= 0  # the generation joined, as kafka-python's coordinator reports it
    time.sleep(1.2)
    consumer.poll(timeout_ms=200)
    metrics = consumer.metrics()
    assert metrics["consumer-metrics"]["records-consumed-total"] >= 1
    assert metrics["consumer-metrics"]["request-total"] > 0
    consumer.unsubscribe()
    assert consumer.subscription() is None
    consumer.close()
    assert ("revoked", {tp}) in events


def test_pattern_subscription_and_auto_commit_on_close(kafka_bootstrap, facade_topic, produce_native):
    topic = facade_topic()
    produce_native(topic, [b"x", b"y"])
    group = f"g-{topic}"
    consumer = kafka.KafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id=group, consumer_timeout_ms=20000,
                                   **GROUP_OPTS)
    consumer.subscribe(pattern=topic[:20] + ".*")
    records = []
    for r in consumer:
        records.append(r)
        if len(records) == 2:
            break
    assert _values(records) == [b"x", b"y"]
    consumer.close()                          # auto-commit on: positions committed on close
    check = kafka.KafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id=group)
    assert check.committed(TopicPartition(topic, 0)) == 2
    check.close()


def test_cooperative_sticky_moves_only_what_it_must(kafka_bootstrap, facade_topic):
    from confluent_kafka.compat.kafka.coordinator.assignors.cooperative_sticky import CooperativeStickyAssignor
    from confluent_kafka.compat.kafka.coordinator.assignors.range import RangePartitionAssignor

    with pytest.raises(Errors.KafkaConfigurationError, match="Mixing EAGER and COOPERATIVE"):
        kafka.KafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id="g",
                            partition_assignment_strategy=[RangePartitionAssignor, CooperativeStickyAssignor])
    topic = facade_topic(4)
    every = {TopicPartition(topic, p) for p in range(4)}

    class Listener(ConsumerRebalanceListener):
        def __init__(self) -> None:
            self.events: list = []

        def on_partitions_revoked(self, revoked):
            self.events.append(("revoked", set(revoked)))

        def on_partitions_assigned(self, assigned):
            self.events.append(("assigned", set(assigned)))

    def join(listener: Listener) -> Any:
        consumer = kafka.KafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id=f"g-{topic}",
                                       partition_assignment_strategy=[CooperativeStickyAssignor], **GROUP_OPTS)
        consumer.subscribe([topic], listener=listener)
        return consumer

    def poll_until(done, consumers, what: str) -> None:
        deadline = time.monotonic() + 60
        while not done():
            assert time.monotonic() < deadline, what
            for c in consumers:
                c.poll(timeout_ms=100)

    first_events, second_events = Listener(), Listener()
    first = join(first_events)
    second = None
    try:
        poll_until(lambda: first.assignment() == every, [first], "the first member never got all four")
        assert first_events.events == [("assigned", every)]
        second = join(second_events)
        poll_until(lambda: len(first.assignment()) == len(second.assignment()) == 2, [first, second],
                   "the partitions were never shared")
        moved = second.assignment()
        # the first member gave up only what moved, and was told of nothing else
        assert first.assignment() == every - moved
        assert first_events.events == [("assigned", every), ("revoked", moved)]
        assert second_events.events == [("assigned", moved)]
    finally:
        first.close()
        if second is not None:
            second.close()
