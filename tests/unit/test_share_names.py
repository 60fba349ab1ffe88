"""The KIP-932 share consumer names: the value types and exceptions work as upstream's; the
consumers, which need librdkafka's share consumer API (2.15.0+), say so when constructed."""

from __future__ import annotations

import importlib
import pickle
import re

import pytest

import confluent_kafka
from confluent_kafka import (AcknowledgeType, ConcurrentModificationException, DeserializingShareConsumer,
                             IllegalStateException, Message, Messages, ShareConsumer, cimpl)
from confluent_kafka.serialization import StringDeserializer

BUILT = cimpl.BUILD_LIBRDKAFKA_VERSION


def test_names_importable_from_upstreams_paths() -> None:
    for module, names in {
        "confluent_kafka": ["ShareConsumer", "DeserializingShareConsumer", "AcknowledgeType", "Messages",
                            "ConcurrentModificationException", "IllegalStateException"],
        "confluent_kafka.cimpl": ["ShareConsumer", "ConcurrentModificationException", "IllegalStateException",
                                  "SHARE_ACKNOWLEDGE_TYPE_ACCEPT", "SHARE_ACKNOWLEDGE_TYPE_RELEASE",
                                  "SHARE_ACKNOWLEDGE_TYPE_REJECT"],
        "confluent_kafka._model": ["AcknowledgeType", "Messages"],
        "confluent_kafka.deserializing_share_consumer": ["DeserializingShareConsumer"],
    }.items():
        mod = importlib.import_module(module)
        for name in names:
            assert hasattr(mod, name), f"{module}.{name}"
    for name in ["ShareConsumer", "DeserializingShareConsumer", "AcknowledgeType", "Messages",
                 "ConcurrentModificationException", "IllegalStateException"]:
        assert name in confluent_kafka.__all__
    assert confluent_kafka.ShareConsumer is cimpl.ShareConsumer
    assert issubclass(DeserializingShareConsumer, ShareConsumer)


def test_this_librdkafka_really_lacks_the_api() -> None:
    # The day this build has librdkafka >= 2.15 the stand-ins are wrong: this test says so.
    major, minor = (int(x) for x in BUILT.split(".")[:2])
    assert (major, minor) < (2, 15)


@pytest.mark.parametrize("make", [
    lambda: ShareConsumer({"group.id": "g", "bootstrap.servers": "127.0.0.1:1"}),
    lambda: ShareConsumer(),
    lambda: DeserializingShareConsumer({"group.id": "g", "value.deserializer": StringDeserializer()}),
])
def test_constructing_a_share_consumer_names_the_versions(make: object) -> None:
    with pytest.raises(NotImplementedError) as info:
        make()  # type: ignore[operator]
    text = str(info.value)
    assert "librdkafka 2.15.0 or later" in text
    assert f"built against librdkafka {BUILT}" in text
    assert re.match(r"(Deserializing)?ShareConsumer needs the share consumer API \(KIP-932\)", text)


def test_subclass_of_share_consumer_is_told_too() -> None:
    class Mine(ShareConsumer):
        pass

    with pytest.raises(NotImplementedError, match="^Mine needs"):
        Mine({})


def test_methods_exist_and_say_why() -> None:
    members = ["acknowledge", "acknowledge_offset", "close", "commit_async", "commit_sync", "poll",
               "set_acknowledgement_commit_callback", "set_sasl_credentials", "subscribe", "subscription",
               "unsubscribe"]
    for m in members:
        assert callable(getattr(ShareConsumer, m)) and hasattr(DeserializingShareConsumer, m)
    bare = ShareConsumer.__new__(ShareConsumer)  # what no caller can get, still explained
    with pytest.raises(NotImplementedError, match=r"ShareConsumer\.poll\(\) needs"):
        bare.poll(0)


def test_acknowledge_type() -> None:
    assert [(t.name, int(t)) for t in AcknowledgeType] == [("ACCEPT", 1), ("RELEASE", 2), ("REJECT", 3)]
    assert (cimpl.SHARE_ACKNOWLEDGE_TYPE_ACCEPT, cimpl.SHARE_ACKNOWLEDGE_TYPE_RELEASE,
            cimpl.SHARE_ACKNOWLEDGE_TYPE_REJECT) == (1, 2, 3)
    assert AcknowledgeType(3) is AcknowledgeType.REJECT and AcknowledgeType.ACCEPT == 1
    with pytest.raises(ValueError):
        AcknowledgeType(4)
    assert pickle.loads(pickle.dumps(AcknowledgeType.RELEASE)) is AcknowledgeType.RELEASE
    assert AcknowledgeType.__module__ == "confluent_kafka._model"


def _msgs(n: int) -> list:
    return [Message(topic="t", partition=0, offset=i, value=str(i).encode()) for i in range(n)]


def test_messages_batch() -> None:
    items = _msgs(3)
    batch = Messages(items)
    items.append(Message(topic="x"))  # the batch holds its own list
    assert len(batch) == batch.count() == 3 and not batch.is_empty() and bool(batch)
    assert [m.offset() for m in batch] == [0, 1, 2]
    assert batch[0].offset() == 0 and batch[-1].offset() == 2
    part = batch[1:]
    assert isinstance(part, Messages) and [m.offset() for m in part] == [1, 2]
    copy = batch.records()
    copy.clear()
    assert batch.count() == 3
    with pytest.raises(IndexError):
        batch[3]
    with pytest.raises(TypeError):
        batch["a"]  # type: ignore[call-overload]
    empty = Messages()
    assert empty.is_empty() and not empty and empty.count() == 0 and repr(empty) == "Messages([])"
    assert repr(Messages([1, 2])) == "Messages([1, 2])"  # type: ignore[list-item]
    with pytest.raises(TypeError):
        Messages(None)  # type: ignore[arg-type]


def test_messages_pickle_keeps_records() -> None:
    batch = Messages([1, 2, 3])  # type: ignore[list-item]
    again = pickle.loads(pickle.dumps(batch))
    assert isinstance(again, Messages) and again.records() == [1, 2, 3]
    assert b"confluent_kafka._model" in pickle.dumps(batch)


@pytest.mark.parametrize("exc", [ConcurrentModificationException, IllegalStateException])
def test_exceptions(exc: type) -> None:
    assert issubclass(exc, RuntimeError) and not issubclass(exc, confluent_kafka.KafkaException)
    assert getattr(cimpl, exc.__name__) is exc
    e = exc("consumer is closed")
    assert (str(e), repr(e), e.args) == ("consumer is closed", f"{exc.__name__}('consumer is closed')",
                                         ("consumer is closed",))
    with pytest.raises(RuntimeError):
        raise e
    # Unlike upstream's (module "cimpl", which cannot be imported), these pickle.
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is exc and back.args == e.args
