"""The text of each failing call, as confluent-kafka 2.x words it: the prefix naming what failed,
the code's description after it, and CPython's own wording for argument errors."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from cpython_texts import unexpected_keyword_text

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition

TP = TopicPartition("t", 0, 5)
PRODUCE_KEYWORDS = ["topic", "value", "key", "partition", "on_delivery", "callback", "timestamp", "headers"]


def _error(fn: Callable[[], Any]) -> KafkaError:
    with pytest.raises(KafkaException) as info:
        fn()
    err = info.value.args[0]
    assert isinstance(err, KafkaError)
    assert str(info.value) == str(err)
    return err


def test_consumer_prefixes(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    err = _error(lambda: c.seek(TP))
    assert err.str() == f"Failed to seek to offset 5: {KafkaError(err.code()).str()}"
    err = _error(lambda: c.commit(asynchronous=False))
    assert (err.code(), err.str()) == (KafkaError._NO_OFFSET, "Commit failed: Local: No offset stored")
    err = _error(lambda: c.store_offsets(offsets=[TP]))
    assert err.str() == "StoreOffsets failed: Local: Invalid argument or configuration"
    err = _error(lambda: c.subscribe(["^["]))
    assert err.str() == "Failed to set subscription: Local: Invalid argument or configuration"
    for call, prefix in [(lambda: c.committed([TP], timeout=0.2), "Failed to get committed offsets"),
                         (lambda: c.offsets_for_times([TP], timeout=0.2), "Failed to get offsets"),
                         (lambda: c.get_watermark_offsets(TP, timeout=0.2), "Failed to get watermark offsets"),
                         (lambda: c.list_topics(timeout=0.2), "Failed to get metadata")]:
        err = _error(call)
        assert err.str() == f"{prefix}: {KafkaError(err.code()).str()}"


def test_error_messages_cannot_be_committed_or_stored(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    bad = Message("t", 0, 1, error=KafkaError(KafkaError._FAIL, "broken"))
    err = _error(lambda: c.commit(message=bad))
    assert (err.code(), err.str()) == (KafkaError._INVALID_ARG, "Cannot commit offsets for message with error: 'broken'")
    err = _error(lambda: c.store_offsets(message=bad))
    assert err.str() == "Cannot store offsets for message with error: 'broken'"
    with pytest.raises(ValueError, match="^message and offsets are mutually exclusive$"):
        c.commit(message=Message("t", 0, 1), offsets=[TP])


def test_pause_and_resume_ignore_partitions_not_assigned(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    c.assign([TP])
    c.pause([TP, TopicPartition("other", 3)])
    assert c.paused() == [TopicPartition("t", 0)]
    c.resume([TopicPartition("other", 3), TP])
    assert c.paused() == []


def test_consume_counts(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    assert c.consume(0) == []
    assert c.consume(num_messages=0, timeout=0) == []
    assert c.consume(2 ** 32, 0) == []  # an unsigned C int: 2**32 is 0
    assert c.consume(True, 0) == []
    for n in (-1, 1_000_001):
        with pytest.raises(ValueError, match=r"^num_messages must be between 0 and 1000000 \(1M\)$"):
            c.consume(n, 0)


def test_producer_texts(make_producer: Callable[..., Producer]) -> None:
    p = make_producer({"message.max.bytes": 1000})
    err = _error(lambda: p.produce("t", b"x" * 5000))
    assert err.str() == "Unable to produce message: Broker: Message size too large"
    full = make_producer({"queue.buffering.max.messages": 1})
    full.produce("t", b"x")
    with pytest.raises(BufferError) as info:
        full.produce("t", b"y")
    assert str(info.value) == "Local: Queue full"


@pytest.mark.parametrize("call,text", [
    (lambda p: p.poll("1"), "must be real number, not str"),
    (lambda p: p.flush([]), "must be real number, not list"),
    (lambda p: p.poll(0, 1), "function takes at most 1 argument (2 given)"),
    (lambda p: p.poll(0, timeout=0), "function takes at most 1 argument (2 given)"),
    (lambda p: p.flush(tmout=0), unexpected_keyword_text("tmout", ["timeout"])),
    (lambda p: p.produce(), "function missing required argument 'topic' (pos 1)"),
    (lambda p: p.produce("t", bogus=1), unexpected_keyword_text("bogus", PRODUCE_KEYWORDS)),
    (lambda p: p.produce("t", b"v", topic="u"), "argument for function given by name ('topic') and position (1)"),
])
def test_argument_errors_use_cpythons_words(make_producer: Callable[..., Producer], call: Callable[[Any], Any],
                                            text: str) -> None:
    with pytest.raises(TypeError) as info:
        call(make_producer())
    assert str(info.value) == text


def test_cluster_id_is_shared_by_every_client(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    err = _error(lambda: c.cluster_id(timeout=0.1))
    assert err.code() == KafkaError._TIMED_OUT
    with pytest.raises(TypeError, match="^must be real number, not str$"):
        c.cluster_id(timeout="x")
    assert Producer.cluster_id.__doc__ and "KIP-78" in Producer.cluster_id.__doc__
