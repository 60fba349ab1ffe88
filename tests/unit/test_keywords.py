"""Every documented parameter can be passed by keyword, with the confluent-kafka 2.x names
(and the names in cimpl.pyi). Calls may fail for other reasons (no broker), but never
with a TypeError about the arguments."""

from __future__ import annotations

from typing import Any, Callable


from confluent_kafka import (
    Consumer,
    KafkaError,
    KafkaException,
    Message,
    Producer,
    TopicPartition,
    consistent,
    fnv1a,
    murmur2,
)
from confluent_kafka.testing import MockCluster


def call_by_keyword(fn: Callable[..., Any], **kwargs: Any) -> Any:
    try:
        return fn(**kwargs)
    except TypeError:
        raise
    except (KafkaException, RuntimeError, ValueError):
        return None


def noop(*_: Any) -> None:
    return None


def test_module_functions() -> None:
    for fn in (murmur2, consistent, fnv1a):
        assert isinstance(call_by_keyword(fn, key=b"k", partition_count=3), int)


def test_value_type_constructors() -> None:
    KafkaError(code=1, reason="r", fatal=False, retriable=True, txn_requires_abort=False)
    TopicPartition(topic="t", partition=0, offset=5, metadata="m", leader_epoch=1)
    Message(topic="t", partition=0, offset=1, key=b"k", value=b"v", headers=[("a", b"b")],
            error=None, timestamp=(1, 1), latency=0.1, leader_epoch=2, delivery_count=1)


def test_producer_keywords(make_producer: Callable[..., Producer]) -> None:
    p = make_producer(broker=False)
    p.produce(topic="t", value=b"v", key=b"k", partition=0, on_delivery=noop, timestamp=1,
              headers={"h": b"v"})
    p.produce(topic="t", callback=noop)
    assert p.produce_batch(topic="t", messages=[{"value": b"x"}], partition=0,
                           on_delivery=noop) == 1
    p.produce_batch(topic="t", messages=[], callback=noop)
    p.poll(timeout=0)
    p.flush(timeout=0)
    p.purge(in_queue=True, in_flight=True, blocking=False)
    call_by_keyword(p.list_topics, topic="t", timeout=0.1)
    call_by_keyword(p.init_transactions, timeout=0.1)
    call_by_keyword(p.commit_transaction, timeout=0.1)
    call_by_keyword(p.abort_transaction, timeout=0.1)
    call_by_keyword(p.send_offsets_to_transaction, positions=[TopicPartition("t", 0, 1)],
                    group_metadata=b"x", timeout=0.1)
    call_by_keyword(p.set_sasl_credentials, username="u", password="p")
    p.close(timeout=1)


def test_consumer_keywords(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    tp = TopicPartition("t", 0, 0)
    c.subscribe(topics=["t"], on_assign=noop, on_revoke=noop, on_lost=noop)
    c.poll(timeout=0)
    c.consume(num_messages=1, timeout=0)
    c.unsubscribe()
    c.assign([tp])
    call_by_keyword(c.commit, offsets=[tp], asynchronous=True)
    call_by_keyword(c.commit, message=Message("t", 0, 1), asynchronous=True)
    call_by_keyword(c.committed, partitions=[tp], timeout=0.1)
    call_by_keyword(c.get_watermark_offsets, partition=tp, timeout=0.1, cached=True)
    call_by_keyword(c.offsets_for_times, partitions=[tp], timeout=0.1)
    call_by_keyword(c.store_offsets, offsets=[TopicPartition("t", 0, 1)])
    call_by_keyword(c.store_offsets, message=Message("t", 0, 1))
    call_by_keyword(c.list_topics, topic="t", timeout=0.1)
    call_by_keyword(c.set_sasl_credentials, username="u", password="p")


def test_mock_cluster_keywords() -> None:
    with MockCluster(num_brokers=1) as mc:
        mc.create_topic(name="kw-topic", partitions=2, replication_factor=1)


def test_infinite_flush_with_nothing_queued_returns(make_producer: Callable[..., Producer]) -> None:
    p = make_producer(broker=False)
    assert p.flush(-1) == 0
    assert p.flush() == 0
