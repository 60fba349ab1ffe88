"""Idempotent and transactional producers against the mock cluster."""

from __future__ import annotations

import uuid
from typing import Any, Callable

import pytest

from confluent_kafka import KafkaError, KafkaException, TopicPartition

pytestmark = pytest.mark.mock


def test_idempotent_producer_round_trip(mock_cluster: Any, unique_topic: str,
                                        make_producer: Callable, reports: Callable,
                                        read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr = reports()
    p = make_producer({"enable.idempotence": True}, on_delivery=dr)
    for i in range(300):
        p.produce(unique_topic, str(i).encode())
    assert p.flush(30) == 0
    assert dr.errors == [None] * 300
    assert [m.offset() for m in dr.messages] == list(range(300))
    got = read_back(unique_topic, 0, 300)
    assert [m.value() for m in got] == [str(i).encode() for i in range(300)]


def test_idempotence_rejects_conflicting_acks() -> None:
    from confluent_kafka import Producer

    with pytest.raises(KafkaException) as info:
        Producer({"enable.idempotence": True, "acks": 1})
    assert info.value.args[0].code() == KafkaError._INVALID_ARG


def _txn_producer(make_producer: Callable, **conf: Any) -> Any:
    return make_producer({"transactional.id": f"txn-{uuid.uuid4().hex}", **conf})


def test_commit_transaction(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                            reports: Callable, read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr = reports()
    p = _txn_producer(make_producer, on_delivery=dr)
    p.init_transactions(30)
    p.begin_transaction()
    for i in range(10):
        p.produce(unique_topic, f"t{i}".encode())
    p.commit_transaction(30)
    assert len(p) == 0
    p.poll(0)
    assert dr.errors == [None] * 10
    got = read_back(unique_topic, 0, 10, **{"isolation.level": "read_committed"})
    assert [m.value() for m in got] == [f"t{i}".encode() for i in range(10)]


def test_abort_then_commit_again(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                                 reports: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr = reports()
    p = _txn_producer(make_producer, on_delivery=dr)
    p.init_transactions(30)
    p.begin_transaction()
    p.produce(unique_topic, b"aborted")
    p.abort_transaction(30)
    p.begin_transaction()
    p.produce(unique_topic, b"committed")
    p.commit_transaction(30)
    p.poll(0)
    by_value = {m.value(): e for e, m in dr.calls}
    assert by_value[b"committed"] is None
    # An aborted message either reached the log (and is now aborted) or was purged.
    assert by_value[b"aborted"] is None or by_value[b"aborted"].code() in (
        KafkaError._PURGE_QUEUE, KafkaError._PURGE_INFLIGHT)


def test_produce_outside_transaction_is_a_state_error(unique_topic: str,
                                                      make_producer: Callable) -> None:
    p = _txn_producer(make_producer)
    p.init_transactions(30)
    with pytest.raises(KafkaException) as info:
        p.produce(unique_topic, b"no transaction")
    assert info.value.args[0].code() == KafkaError._STATE


def test_transaction_state_errors(make_producer: Callable) -> None:
    p = _txn_producer(make_producer)
    # begin before init
    with pytest.raises(KafkaException) as info:
        p.begin_transaction()
    assert info.value.args[0].code() == KafkaError._STATE
    p.init_transactions(30)
    # commit without begin
    with pytest.raises(KafkaException) as info:
        p.commit_transaction(10)
    err = info.value.args[0]
    assert isinstance(err, KafkaError)
    assert err.code() == KafkaError._STATE
    assert isinstance(err.retriable(), bool)
    assert isinstance(err.fatal(), bool)
    assert isinstance(err.txn_requires_abort(), bool)
    p.begin_transaction()
    # begin twice
    with pytest.raises(KafkaException) as info:
        p.begin_transaction()
    assert info.value.args[0].code() == KafkaError._STATE
    p.abort_transaction(30)


def test_send_offsets_to_transaction(mock_cluster: Any, unique_topic: str,
                                     make_producer: Callable, make_consumer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    c = make_consumer({"group.id": f"g-{uuid.uuid4().hex}"})
    meta = c.consumer_group_metadata()
    assert isinstance(meta, bytes) and meta
    p = _txn_producer(make_producer)
    p.init_transactions(30)
    p.begin_transaction()
    p.produce(unique_topic, b"x")
    p.send_offsets_to_transaction([TopicPartition(unique_topic, 0, 1)], meta, 30)
    p.commit_transaction(30)


def test_send_offsets_with_garbage_metadata(unique_topic: str, make_producer: Callable) -> None:
    p = _txn_producer(make_producer)
    p.init_transactions(30)
    p.begin_transaction()
    with pytest.raises((KafkaException, ValueError)):
        p.send_offsets_to_transaction([TopicPartition(unique_topic, 0, 1)], b"not metadata", 5)
    p.abort_transaction(30)


def test_init_transactions_times_out_without_broker(make_producer: Callable) -> None:
    p = make_producer({"bootstrap.servers": "127.0.0.1:1", "transactional.id": "lonely"})
    with pytest.raises(KafkaException) as info:
        p.init_transactions(1)
    err = info.value.args[0]
    assert err.code() in (KafkaError._TIMED_OUT, KafkaError._TRANSPORT)
    assert err.retriable() is True
