"""Consumer argument checking and the closed state, with no broker (127.0.0.1:1)."""

from __future__ import annotations

import re
from typing import Any, Callable, List

import pytest

from confluent_kafka import (OFFSET_BEGINNING, Consumer, KafkaError, KafkaException, Message,
                             TopicPartition)

TP = TopicPartition("t", 0, 5)


def _msg(**kw: Any) -> Message:
    base = dict(topic="t", partition=0, offset=3, value=b"v")
    base.update(kw)
    return Message(**base)


# (call, exception type, regex the message must match)
BAD_CALLS = [
    ("subscribe-str", lambda c: c.subscribe("topic"), TypeError, r"topics.*list"),
    ("subscribe-none", lambda c: c.subscribe(None), TypeError, r"topics"),
    ("subscribe-int-item", lambda c: c.subscribe(["ok", 1]), TypeError, r"topics\[1\].*str"),
    ("subscribe-bytes-item", lambda c: c.subscribe([b"t"]), TypeError, r"topics\[0\]"),
    ("subscribe-on_assign", lambda c: c.subscribe(["t"], on_assign=1), TypeError, r"on_assign.*callable"),
    ("subscribe-on_revoke", lambda c: c.subscribe(["t"], on_revoke="x"), TypeError, r"on_revoke.*callable"),
    ("subscribe-on_lost", lambda c: c.subscribe(["t"], on_lost=3.0), TypeError, r"on_lost.*callable"),
    ("subscribe-missing", lambda c: c.subscribe(), TypeError, r"topics|argument"),
    ("subscribe-unknown-kw", lambda c: c.subscribe(["t"], on_bogus=print), TypeError, r"on_bogus"),
    # Lists of TopicPartition: upstream's texts.
    ("assign-str", lambda c: c.assign("t"), TypeError, r"^requires list of TopicPartition$"),
    ("assign-none", lambda c: c.assign(None), TypeError, r"^requires list of TopicPartition$"),
    ("assign-item", lambda c: c.assign([TP, "t"]), TypeError, r"^expected cimpl\.TopicPartition$"),
    ("incremental_assign", lambda c: c.incremental_assign(1), TypeError, r"requires list of TopicPartition"),
    ("incremental_unassign", lambda c: c.incremental_unassign([1]), TypeError, r"expected cimpl\.TopicPartition"),
    ("poll-str", lambda c: c.poll("1"), TypeError, r"must be real number, not str"),
    ("poll-list-kw", lambda c: c.poll(timeout=[]), TypeError, r"must be real number, not list"),
    ("poll-nan", lambda c: c.poll(float("nan")), ValueError, r"timeout.*NaN"),
    ("poll-two-args", lambda c: c.poll(1, 2), TypeError, r"poll|argument"),
    ("poll-unknown-kw", lambda c: c.poll(tmo=1), TypeError, r"tmo"),
    ("consume-too-many", lambda c: c.consume(1000001), ValueError, r"num_messages must be between 0 and 1000000"),
    ("consume-negative", lambda c: c.consume(-1, 0), ValueError, r"num_messages"),
    ("consume-huge", lambda c: c.consume(2 ** 32 - 1, 0), ValueError, r"num_messages"),
    ("consume-float", lambda c: c.consume(1.5), TypeError, r"'float' object cannot be interpreted as an integer"),
    ("consume-str", lambda c: c.consume("5"), TypeError, r"'str' object cannot be interpreted as an integer"),
    ("consume-none", lambda c: c.consume(None), TypeError, r"'NoneType' object cannot be interpreted"),
    ("consume-timeout", lambda c: c.consume(1, "x"), TypeError, r"must be real number, not str"),
    ("consume-timeout-nan", lambda c: c.consume(1, float("nan")), ValueError, r"NaN"),
    ("commit-both", lambda c: c.commit(message=_msg(), offsets=[TP]), ValueError,
     r"^message and offsets are mutually exclusive$"),
    ("commit-message-type", lambda c: c.commit(message="m"), TypeError, r"^expected confluent_kafka\.cimpl\.Message$"),
    ("commit-offsets-type", lambda c: c.commit(offsets="t"), TypeError, r"requires list of TopicPartition"),
    ("commit-offsets-item", lambda c: c.commit(offsets=[TP, 5]), TypeError, r"expected cimpl\.TopicPartition"),
    ("commit-error-message", lambda c: c.commit(message=_msg(error=KafkaError(KafkaError._PARTITION_EOF))),
     KafkaException, r"Cannot commit offsets for message with error: 'Broker: No more messages'"),
    ("commit-unknown-kw", lambda c: c.commit(async_=False), TypeError, r"async_"),
    ("store_offsets-nothing", lambda c: c.store_offsets(), ValueError, r"^expected either message or offsets$"),
    ("store_offsets-both", lambda c: c.store_offsets(message=_msg(), offsets=[TP]), ValueError,
     r"message and offsets are mutually exclusive"),
    ("store_offsets-message-type", lambda c: c.store_offsets(message=1), TypeError, r"expected .*Message"),
    ("store_offsets-positional-type", lambda c: c.store_offsets(1), TypeError, r"expected .*Message"),
    ("store_offsets-positional-none", lambda c: c.store_offsets(None), ValueError,
     r"^expected either message or offsets$"),
    ("store_offsets-positional-error", lambda c: c.store_offsets(_msg(error=KafkaError(KafkaError._FAIL))),
     KafkaException, r"Cannot store offsets for message with error: 'Local: Communication failure"),
    ("store_offsets-three", lambda c: c.store_offsets(_msg(), [TP], 1), TypeError, r"at most 2 arguments"),
    ("store_offsets-error-message", lambda c: c.store_offsets(message=_msg(error=KafkaError(KafkaError._FAIL))),
     KafkaException, r"Cannot store offsets for message with error: 'Local: Communication failure"),
    ("store_offsets-offsets-type", lambda c: c.store_offsets(offsets=(1,)), TypeError, r"expected cimpl\.TopicPartition"),
    ("committed-str", lambda c: c.committed("t"), TypeError, r"requires list of TopicPartition"),
    ("committed-missing", lambda c: c.committed(), TypeError, r"partitions|argument"),
    ("committed-timeout", lambda c: c.committed([TP], timeout="1"), TypeError, r"must be real number"),
    ("committed-item", lambda c: c.committed([None]), TypeError, r"expected cimpl\.TopicPartition"),
    ("position-none", lambda c: c.position(None), TypeError, r"requires list of TopicPartition"),
    ("position-item", lambda c: c.position(["t"]), TypeError, r"expected cimpl\.TopicPartition"),
    ("seek-str", lambda c: c.seek("t"), TypeError, r"TopicPartition"),
    ("seek-list", lambda c: c.seek([TP]), TypeError, r"TopicPartition"),
    ("pause-str", lambda c: c.pause("t"), TypeError, r"requires list of TopicPartition"),
    ("resume-item", lambda c: c.resume([0]), TypeError, r"expected cimpl\.TopicPartition"),
    ("watermarks-str", lambda c: c.get_watermark_offsets("t"), TypeError, r"partition.*TopicPartition"),
    ("watermarks-timeout", lambda c: c.get_watermark_offsets(TP, timeout="x"), TypeError, r"must be real number"),
    ("watermarks-kw", lambda c: c.get_watermark_offsets(TP, cache=True), TypeError, r"cache"),
    ("offsets_for_times-int", lambda c: c.offsets_for_times(1), TypeError, r"requires list of TopicPartition"),
    ("offsets_for_times-timeout", lambda c: c.offsets_for_times([TP], timeout=[]), TypeError, r"must be real number"),
    ("list_topics-timeout", lambda c: c.list_topics(timeout="x"), TypeError, r"must be real number"),
    ("list_topics-topic", lambda c: c.list_topics(topic=5), TypeError, r"topic|str"),
    ("set_sasl_credentials", lambda c: c.set_sasl_credentials(1, 2), TypeError, r"str|username"),
    ("set_sasl_credentials-missing", lambda c: c.set_sasl_credentials("u"), TypeError, r"password|argument"),
    ("assignment-args", lambda c: c.assignment(1), TypeError, r"argument"),
    ("unassign-args", lambda c: c.unassign([TP]), TypeError, r"argument"),
    ("close-args", lambda c: c.close(1), TypeError, r"argument"),
]


@pytest.mark.parametrize("call,exc,pattern", [b[1:] for b in BAD_CALLS], ids=[b[0] for b in BAD_CALLS])
def test_bad_arguments(make_consumer: Callable[..., Consumer], call: Callable[[Consumer], Any],
                       exc: type, pattern: str) -> None:
    c = make_consumer()
    with pytest.raises(exc) as ei:
        call(c)
    assert re.search(pattern, str(ei.value), re.I | re.S), f"unclear message: {ei.value}"
    # A rejected call leaves the consumer usable.
    assert c.poll(0) is None
    assert c.assignment() == [] or all(isinstance(tp, TopicPartition) for tp in c.assignment())


def test_bad_arguments_change_nothing(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    c.assign([TopicPartition("keep", 1, 4)])
    c.subscribe(["keep"])
    with pytest.raises(TypeError):
        c.assign([TopicPartition("other", 0), "junk"])
    with pytest.raises(TypeError):
        c.subscribe(["other", 7])
    with pytest.raises(TypeError):
        c.subscribe(["other"], on_assign="not callable")
    assert c.subscription() == ["keep"]


def test_subscribe_accepts_tuples_and_regex(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    c.subscribe(("a", "b"))
    assert sorted(c.subscription()) == ["a", "b"]
    c.subscribe(["^pre-.*", "exact"], on_assign=None, on_revoke=None, on_lost=None)
    assert sorted(c.subscription()) == ["^pre-.*", "exact"]


def test_subscribe_empty_list_is_rejected(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    with pytest.raises((KafkaException, ValueError)):
        c.subscribe([])


def test_consume_bounds_accept_1_and_1000000(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    assert c.consume(1, 0) == []
    assert c.consume(1000000, 0.05) == []
    assert c.consume(num_messages=3, timeout=0) == []


def test_commit_and_store_offsets_errors_from_librdkafka(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    with pytest.raises(KafkaException) as ei:
        c.commit(asynchronous=False)  # nothing consumed, nothing stored
    assert ei.value.args[0].code() == KafkaError._NO_OFFSET
    # enable.auto.offset.store is on: storing by hand is refused.
    c.assign([TopicPartition("t", 0)])
    with pytest.raises(KafkaException) as ei:
        c.store_offsets(offsets=[TopicPartition("t", 0, 3)])
    assert ei.value.args[0].code() == KafkaError._INVALID_ARG


def test_offsets_from_a_message_go_to_librdkafka_as_they_are(make_consumer: Callable[..., Consumer]) -> None:
    """As upstream: the message's offset + 1, whatever it is; librdkafka judges (an unset offset
    leaves nothing to commit)."""
    c = make_consumer({"enable.auto.offset.store": False})
    for off in (-1, -1001):
        m = Message(topic="t", partition=0, offset=off)
        assert c.commit(message=m) is None  # asynchronous: accepted
        with pytest.raises(KafkaException) as ei:
            c.commit(message=m, asynchronous=False)
        assert ei.value.args[0].code() == KafkaError._NO_OFFSET
    # A topic that is not a str names no partition: librdkafka says so.
    for topic in (None, 5):
        with pytest.raises(KafkaException) as ei:
            c.store_offsets(message=Message(topic=topic, partition=0, offset=1))
        assert ei.value.args[0].code() == KafkaError._UNKNOWN_PARTITION
    # An error that is not a KafkaError is refused like one (upstream crashes on it).
    with pytest.raises(KafkaException, match=r"with error: '\(null\)'") as ei:
        c.store_offsets(message=Message(topic="t", partition=0, offset=1, error="boom"))
    assert ei.value.args[0].code() == KafkaError._INVALID_ARG
    # A subclass of Message is a Message.
    sub = type("Sub", (Message,), {})(topic="t", partition=0, offset=-1)
    assert c.commit(message=sub) is None
    assert c.store_offsets(offsets=[]) is None


def test_seek_of_unfetched_partition_raises_kafka_exception(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    with pytest.raises(KafkaException) as ei:
        c.seek(TopicPartition("t", 0, 3))
    assert isinstance(ei.value.args[0], KafkaError)


def test_consumer_timeout_ms_must_be_int(make_consumer: Callable[..., Consumer]) -> None:
    for bad in ("100", 1.5, True):
        with pytest.raises(TypeError, match="consumer_timeout_ms"):
            make_consumer(consumer_timeout_ms=bad)


def test_rebalance_callbacks_must_be_callable_in_conf(make_consumer: Callable[..., Consumer]) -> None:
    with pytest.raises(KafkaException, match="on_commit requires a callable object"):
        make_consumer(on_commit=42)


# ---- closed consumer -------------------------------------------------------------------------

CLOSED_CALLS: List = [
    ("subscribe", lambda c: c.subscribe(["t"])),
    ("unsubscribe", lambda c: c.unsubscribe()),
    ("subscription", lambda c: c.subscription()),
    ("assign", lambda c: c.assign([TP])),
    ("unassign", lambda c: c.unassign()),
    ("incremental_assign", lambda c: c.incremental_assign([TP])),
    ("incremental_unassign", lambda c: c.incremental_unassign([TP])),
    ("assignment", lambda c: c.assignment()),
    ("poll", lambda c: c.poll(0)),
    ("poll-default", lambda c: c.poll()),
    ("consume", lambda c: c.consume(1, 0)),
    ("commit", lambda c: c.commit()),
    ("commit-sync", lambda c: c.commit(offsets=[TP], asynchronous=False)),
    ("commit-message", lambda c: c.commit(message=_msg())),
    ("store_offsets", lambda c: c.store_offsets(offsets=[TP])),
    ("committed", lambda c: c.committed([TP], timeout=1)),
    ("position", lambda c: c.position([TP])),
    ("seek", lambda c: c.seek(TP)),
    ("pause", lambda c: c.pause([TP])),
    ("resume", lambda c: c.resume([TP])),
    ("paused", lambda c: c.paused()),
    ("get_watermark_offsets", lambda c: c.get_watermark_offsets(TP, timeout=1)),
    ("get_watermark_offsets-cached", lambda c: c.get_watermark_offsets(TP, cached=True)),
    ("offsets_for_times", lambda c: c.offsets_for_times([TP], timeout=1)),
    ("consumer_group_metadata", lambda c: c.consumer_group_metadata()),
    ("memberid", lambda c: c.memberid()),
    ("list_topics", lambda c: c.list_topics(timeout=1)),
    ("set_sasl_credentials", lambda c: c.set_sasl_credentials("u", "p")),
    ("iter", lambda c: iter(c)),
    ("next", lambda c: next(c)),
    ("for", lambda c: [m for m in c]),
]


@pytest.mark.parametrize("call", [c[1] for c in CLOSED_CALLS], ids=[c[0] for c in CLOSED_CALLS])
def test_closed_consumer_raises_runtime_error(make_consumer: Callable[..., Consumer],
                                              call: Callable[[Consumer], Any]) -> None:
    c = make_consumer()
    c.close()
    with pytest.raises(RuntimeError, match="closed"):
        call(c)


def test_close_is_idempotent_and_exit_after_close_is_harmless(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    c.close()
    c.close()
    assert c.__exit__(None, None, None) is None  # never swallows an exception


def test_context_manager_closes_and_does_not_swallow(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    with c as entered:
        assert entered is c
        entered.assign([TopicPartition("t", 0, OFFSET_BEGINNING)])
    with pytest.raises(RuntimeError):
        c.assignment()

    c2 = make_consumer()
    with pytest.raises(ZeroDivisionError):
        with c2:
            1 / 0
    with pytest.raises(RuntimeError):
        c2.poll(0)


def test_uninitialized_consumer_raises_runtime_error() -> None:
    c = Consumer.__new__(Consumer)
    with pytest.raises(RuntimeError, match="Consumer closed"):
        c.poll(0)
    c.close()  # nothing to close: harmless


def test_consumer_cannot_be_pickled(make_consumer: Callable[..., Consumer]) -> None:
    import pickle

    with pytest.raises(TypeError):
        pickle.dumps(make_consumer())
