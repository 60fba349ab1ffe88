"""The kafka-python facade's send(): its futures are settled in C by the delivery reports
(cimpl._RecordFuture, Producer._produce_record). Checked on the librdkafka mock cluster: what
callbacks, errbacks, value and get() see, the RecordMetadata built only when asked, and the
arguments _produce_record() refuses."""
from __future__ import annotations

import threading
import time
from typing import Any, List

import pytest

from confluent_kafka import TIMESTAMP_LOG_APPEND_TIME, KafkaError, Producer
from confluent_kafka.compat.kafka import KafkaProducer, TopicPartition, _config
from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka.producer.future import SPEC, FutureRecordMetadata, RecordMetadata
from confluent_kafka.testing import ApiKey

pytestmark = pytest.mark.mock


@pytest.fixture
def topic(mock_cluster: Any, unique_topic: str) -> str:
    mock_cluster.create_topic(unique_topic, partitions=2)
    return unique_topic


def _wait_for(cond: Any, seconds: float = 10.0) -> None:
    """Callbacks run on the producer's background thread: wait (bounded) for what they record."""
    deadline = time.monotonic() + seconds
    while not cond() and time.monotonic() < deadline:
        time.sleep(0.01)


def _log_append_time(mock_cluster: Any, topic: str) -> int:
    """The timestamp the native producer's report gives a record of ``topic``."""
    native = Producer({"bootstrap.servers": mock_cluster.bootstrap_servers})
    got: List[Any] = []
    native.produce(topic, b"probe", partition=1, on_delivery=lambda err, msg: got.append(msg.timestamp()))
    assert native.flush(30) == 0
    assert got[0][0] == TIMESTAMP_LOG_APPEND_TIME
    return int(got[0][1])


def test_callbacks_get_each_records_metadata(mock_cluster: Any, topic: str) -> None:
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms=5)
    seen: List[Any] = []
    errors: List[Any] = []
    futures = [producer.send(topic, b"v%d" % i, partition=1).add_callback(seen.append).add_errback(errors.append)
               for i in range(500)]
    stamped = producer.send(topic, b"at", key=b"key", partition=0, timestamp_ms=1_700_000_000_000,
                            headers=[("h", b"12")])
    producer.flush(timeout=30)
    _wait_for(lambda: len(seen) == 500)
    producer.close()
    assert errors == [] and len(seen) == 500
    assert all(type(md) is RecordMetadata for md in seen)
    assert [md.offset for md in seen] == list(range(seen[0].offset, seen[0].offset + 500))
    assert seen[0].topic_partition == TopicPartition(topic, 1)
    assert all(md.topic_partition is seen[0].topic_partition for md in seen)  # shared, as values are
    assert [f.value for f in futures] == seen and all(f.value is md for f, md in zip(futures, seen))
    # the mock cluster stamps every record with log-append time 1234, which wins over send()'s
    assert {(md.timestamp, md.checksum) for md in seen} == {(_log_append_time(mock_cluster, topic), None)}
    assert {(md.serialized_key_size, md.serialized_value_size, md.serialized_header_size) for md in seen[:10]} == {
        (-1, 2, -1)}
    # nobody asked for this one until now: built on the first ask, the same object after
    md = stamped.get(timeout=1)
    assert stamped.value is md and stamped.succeeded()
    assert (md.topic, md.partition, md.offset, md.timestamp) == (topic, 0, 0, seen[0].timestamp)
    assert (md.serialized_key_size, md.serialized_value_size, md.serialized_header_size) == (3, 2, 3)


def test_a_failed_record_runs_its_errbacks(mock_cluster: Any, topic: str) -> None:
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, retries=0)
    producer.send(topic, b"warm-up").get(timeout=30)
    mock_cluster.push_request_errors(ApiKey.PRODUCE, [KafkaError.MSG_SIZE_TOO_LARGE])
    errors: List[Any] = []
    future = producer.send(topic, b"x").add_errback(errors.append).add_callback(
        lambda md: pytest.fail("a failed record ran a callback"))
    with pytest.raises(Errors.MessageSizeTooLargeError):
        future.get(timeout=30)
    _wait_for(lambda: bool(errors))
    producer.close()
    assert future.failed() and future.value is None
    assert errors == [future.exception]


def test_a_function_added_while_delivering_runs_once(mock_cluster: Any, topic: str) -> None:
    """The sending thread adds while the background thread settles: each function runs once."""
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms=0)
    counts = [0] * 3000
    lock = threading.Lock()

    def hit(i: int, _: Any) -> None:
        with lock:
            counts[i] += 1

    futures = []
    for i in range(3000):
        f = producer.send(topic, b"v")
        futures.append(f)
        if i >= 1:
            futures[i - 1].add_callback(hit, i - 1)  # its report may be settling right now
    futures[-1].add_callback(hit, 2999)
    producer.flush(timeout=30)
    _wait_for(lambda: sum(counts) == 3000)
    producer.close()
    assert [(i, f.exception) for i, f in enumerate(futures) if not f.succeeded()] == []
    assert counts == [1] * 3000


def test_produce_record_refuses_bad_arguments(mock_cluster: Any, topic: str) -> None:
    native = Producer({"bootstrap.servers": mock_cluster.bootstrap_servers})
    wait, args = (lambda seconds: None), (None, -1, 1, -1)

    class NotAFuture:
        pass

    bad = [
        ((NotAFuture, SPEC, wait, args, topic, b"v"), "_RecordFuture subclass"),
        ((FutureRecordMetadata, SPEC, None, args, topic, b"v"), "wait must be callable"),
        ((FutureRecordMetadata, SPEC, wait, (None, -1), topic, b"v"), "args must be"),
        ((FutureRecordMetadata, (RecordMetadata,), wait, args, topic, b"v"), "spec must be"),
        ((FutureRecordMetadata, SPEC, wait, args, 42, b"v"), "topic must be str"),
        ((FutureRecordMetadata, SPEC, wait, args, topic, 1.5), "value must be"),
        ((FutureRecordMetadata, SPEC, wait, args), "takes 5 to 10"),
    ]
    for call, message in bad:
        with pytest.raises(TypeError, match=message):
            native._produce_record(*call)
    assert len(native) == 0
    fut = native._produce_record(FutureRecordMetadata, SPEC, wait, args, topic, b"v", None, 0)
    assert native.flush(30) == 0
    assert fut.is_done and fut.value.offset == 0 and fut.value.partition == 0


class _Polls:
    """The native producer with its poll() calls counted by thread, everything else passed on."""

    def __init__(self, native: Producer) -> None:
        self._native = native
        self.by_thread: List[str] = []

    def poll(self, timeout: float = -1) -> int:
        self.by_thread.append(threading.current_thread().name)
        return self._native.poll(timeout)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._native, name)


def test_get_sleeps_while_the_background_thread_serves(mock_cluster: Any, topic: str) -> None:
    """get() leaves the delivery reports to the background thread and sleeps until its future is
    settled: polling too, it would race that thread for each report and, on losing, sleep out its
    own poll's timeout. get() in a callback, on that thread, serves the reports itself."""
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers)
    counted = _Polls(producer._producer)
    producer._producer = counted
    try:
        for i in range(20):
            md = producer.send(topic, b"v%d" % i, partition=0).get(timeout=30)
            assert md.topic == topic and md.partition == 0
        assert counted.by_thread and threading.current_thread().name not in counted.by_thread
        nested: List[Any] = []
        producer.send(topic, b"outer", partition=1).add_callback(
            lambda _: nested.append(producer.send(topic, b"inner", partition=1).get(timeout=30)))
        _wait_for(lambda: nested)
        assert [md.partition for md in nested] == [1]
    finally:
        producer._producer = counted._native
        producer.close()


def test_a_send_waiting_for_room_leaves_the_reports_to_the_background_thread(
        mock_cluster: Any, topic: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With librdkafka's queue full, send() waits for the background thread to serve reports
    (which makes room) instead of polling too, and every record still gets through."""
    translate = _config.translate

    def small_queue(client: str, configs: Any) -> Any:
        conf, config = translate(client, configs)
        return {**conf, "queue.buffering.max.messages": 10}, config
    monkeypatch.setattr(_config, "translate", small_queue)
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms=5)
    counted = _Polls(producer._producer)
    producer._producer = counted
    try:
        futures = [producer.send(topic, b"v%d" % i, partition=0) for i in range(300)]
        producer.flush(timeout=30)
        assert all(f.succeeded() for f in futures)
        offsets = [f.value.offset for f in futures]
        assert offsets == list(range(offsets[0], offsets[0] + 300))
        assert counted.by_thread and threading.current_thread().name not in counted.by_thread
    finally:
        producer._producer = counted._native
        producer.close()


def test_close_ends_the_background_thread_and_the_client(mock_cluster: Any, topic: str) -> None:
    """close() delivers what is queued, then closes the native client, which wakes the
    background thread's poll so that the thread ends at once; what needs the client then says
    the producer is closed."""
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers)
    future = producer.send(topic, b"v", partition=0)
    producer.close()
    assert future.succeeded() and not producer._thread.is_alive()
    with pytest.raises(RuntimeError):
        producer._producer.poll(0)
    producer.flush()  # close() left nothing to deliver
    producer.close()
    assert producer.bootstrap_connected() is False
    with pytest.raises(Errors.IllegalStateError, match="closed"):
        producer.send(topic, b"v")
    with pytest.raises(Errors.IllegalStateError, match="closed"):
        producer.partitions_for(topic)
