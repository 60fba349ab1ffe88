"""KafkaProducer of the kafka-python facade on the tansu broker."""
from __future__ import annotations

import json
import threading
import time

import pytest

from confluent_kafka.compat import kafka
from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka import TopicPartition
from confluent_kafka.compat.kafka.producer.future import FutureRecordMetadata, RecordMetadata
from confluent_kafka.compat.kafka.serializer import JsonSerializer


def _read(bootstrap: str, topic: str, n: int, partition: int = 0) -> list:
    consumer = kafka.KafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest", consumer_timeout_ms=5000)
    consumer.assign([TopicPartition(topic, partition)])
    out = []
    for r in consumer:
        out.append(r)
        if len(out) == n:
            break
    consumer.close()
    return out


def test_send_get_callbacks_serializers(kafka_bootstrap, facade_topic):
    topic = facade_topic(3)
    producer = kafka.KafkaProducer(bootstrap_servers=kafka_bootstrap, key_serializer=str.encode,
                                   value_serializer=lambda v: json.dumps(v).encode(), linger_ms=1)
    ok, failed = [], []
    future = producer.send(topic, {"n": 1}, key="k1", headers=[("h", b"1")], partition=2, timestamp_ms=1_700_000_000_000)
    assert isinstance(future, FutureRecordMetadata)
    future.add_callback(ok.append).add_errback(failed.append)
    md = future.get(timeout=30)
    assert isinstance(md, RecordMetadata)
    assert (md.topic, md.partition, md.topic_partition, md.offset) == (topic, 2, TopicPartition(topic, 2), 0)
    assert (md.timestamp, md.checksum, md.serialized_key_size, md.serialized_value_size, md.serialized_header_size) == (
        1_700_000_000_000, None, 2, 8, 2)
    assert future.succeeded() and not future.failed() and future.value == md
    deadline = time.monotonic() + 5
    while not ok and time.monotonic() < deadline:   # callbacks run on the background thread
        time.sleep(0.01)
    assert ok == [md] and failed == []
    late = []
    future.add_callback(late.append)                 # added after success: runs at once
    assert late == [md]
    # keyed records land on the Java client's murmur2 partition, the same every time
    parts = {producer.send(topic, {"n": i}, key="same").get(30).partition for i in range(5)}
    assert len(parts) == 1
    assert producer.partitions_for(topic) == {0, 1, 2}
    producer.flush(timeout=10)
    time.sleep(1.2)
    metrics = producer.metrics()
    assert metrics["producer-metrics"]["record-send-total"] == 6
    producer.close()
    with pytest.raises(Errors.IllegalStateError):
        producer.send(topic, {"n": 0})
    records = _read(kafka_bootstrap, topic, 1, partition=2)
    assert (records[0].key, records[0].value, records[0].headers) == (b"k1", b'{"n": 1}', [("h", b"1")])


def test_json_serializer_and_custom_partitioner(kafka_bootstrap, facade_topic):
    from confluent_kafka.compat.kafka.partitioner import DefaultPartitioner, Partitioner, murmur2

    topic = facade_topic(3)
    calls = []

    class Last(Partitioner):
        def partition(self, topic, key, serialized_key, value, serialized_value, cluster):
            calls.append((key, serialized_key, value, sorted(cluster.partitions_for_topic(topic))))
            return max(cluster.available_partitions_for_topic(topic))

    producer = kafka.KafkaProducer(bootstrap_servers=kafka_bootstrap, value_serializer=JsonSerializer(),
                                   partitioner=Last())
    md = producer.send(topic, {"a": [1, 2]}, key=b"x").get(30)
    assert md.partition == 2 and calls == [(b"x", b"x", {"a": [1, 2]}, [0, 1, 2])]
    producer.close()
    assert json.loads(_read(kafka_bootstrap, topic, 1, partition=2)[0].value) == {"a": [1, 2]}
    # the default runs in librdkafka and picks what the Java hash (and kafka-python) picks
    default = kafka.KafkaProducer(bootstrap_servers=kafka_bootstrap)
    for key in (b"a", b"key-1", b"hello world"):
        expected = (murmur2(key) & 0x7FFFFFFF) % 3
        assert default.send(topic, b"v", key=key).get(30).partition == expected
        assert DefaultPartitioner().partition(topic, key, key, None, None, type(
            "C", (), {"partitions_for_topic": lambda self, t: {0, 1, 2}})()) == expected
    default.close()


def test_errback_on_failure_and_bad_arguments(kafka_bootstrap, facade_topic):
    topic = facade_topic()
    producer = kafka.KafkaProducer(bootstrap_servers=kafka_bootstrap, max_request_size=2000)
    errors = []
    future = producer.send(topic, b"x" * 5000).add_errback(errors.append)
    with pytest.raises(Errors.MessageSizeTooLargeError):  # refused locally, before any request
        future.get(timeout=30)
    assert future.failed() and not future.retriable()
    deadline = time.monotonic() + 5
    while not errors and time.monotonic() < deadline:
        time.sleep(0.01)
    assert errors and errors[0] is future.exception
    with pytest.raises(ValueError):
        producer.send(topic)
    with pytest.raises(TypeError):
        producer.send(topic, b"v", headers={"a": b"b"})
    with pytest.raises(TypeError):
        producer.send(topic, b"v", headers=[("a", "text")])
    with pytest.raises(TypeError):
        producer.send(topic, "text needs a serializer")
    with pytest.raises(ValueError):
        producer.close(timeout=-1)
    producer.close(timeout=5)


def test_send_from_threads_and_get_timeout(kafka_bootstrap, facade_topic):
    topic = facade_topic()
    producer = kafka.KafkaProducer(bootstrap_servers=kafka_bootstrap, linger_ms=5)
    results = []

    def worker(i):
        results.append(producer.send(topic, b"%d" % i).get(timeout=30).offset)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == list(range(8))
    unreachable = kafka.KafkaProducer(bootstrap_servers="127.0.0.1:1", delivery_timeout_ms=60000)
    with pytest.raises(Errors.KafkaTimeoutError):
        unreachable.send("t", b"v").get(timeout=0.3)
    with pytest.raises(Errors.KafkaTimeoutError):
        unreachable.flush(timeout=0.2)
    unreachable.close(timeout=0)
    producer.close()


def test_transactions(kafka_bootstrap, facade_topic):
    topic = facade_topic()
    producer = kafka.KafkaProducer(bootstrap_servers=kafka_bootstrap, transactional_id=f"tx-{topic}")
    producer.init_transactions()
    producer.begin_transaction()
    producer.send(topic, b"in-txn")
    producer.commit_transaction()
    plain = kafka.KafkaProducer(bootstrap_servers=kafka_bootstrap)
    with pytest.raises(Errors.IllegalStateError):
        plain.begin_transaction()
    plain.close()
    producer.close()
    consumer = kafka.KafkaConsumer(bootstrap_servers=kafka_bootstrap, auto_offset_reset="earliest",
                                   isolation_level="read_committed", consumer_timeout_ms=2000)
    consumer.assign([TopicPartition(topic, 0)])
    assert [r.value for r in consumer] == [b"in-txn"]
    consumer.close()
