"""Pickles of Message, TopicPartition and ThrottleEvent crossing between this package and upstream.

Each ``dump_*`` pickles a set of values (every protocol) on its side; each ``crossed_*`` loads both
sides' pickles and observes what came back, so a pickle one package makes must load, with the
same content, in the other. Also copy.copy/deepcopy. (KafkaError's own pickles are compared in
another module; here it only travels inside a Message.)
"""
from __future__ import annotations

import base64
import copy
import pickle
from typing import Any, Callable

from confluent_kafka import KafkaError, Message, ThrottleEvent, TopicPartition

from observe import data, outcome, raised

GETTERS = ("topic", "partition", "offset", "key", "value", "headers", "error", "timestamp", "latency",
           "leader_epoch", "delivery_count")
PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def message_fields(m: Any) -> dict[str, Any]:
    return {"type": type(m).__name__, **{name: outcome(getattr(m, name)) for name in GETTERS}}


def tp_fields(tp: Any) -> dict[str, Any]:
    return {"type": type(tp).__name__, "repr": repr(tp),
            **{name: outcome(getattr, tp, name) for name in ("topic", "partition", "offset", "metadata",
                                                            "leader_epoch", "error")}}


class Plain(Message):
    pass


class PlainTP(TopicPartition):
    pass


def _messages() -> dict[str, Callable[[], Any]]:
    return {
        "empty": Message,
        "full": lambda: Message(topic="orders", partition=3, offset=42, key=b"k", value=b"payload",
                                headers=[("h1", b"v1"), ("h2", None), ("h1", b"again")],
                                timestamp=(2, 1_700_000_000_123), latency=0.25, leader_epoch=7, delivery_count=2),
        "with error": lambda: Message(topic="t", partition=0, error=KafkaError(KafkaError._MSG_TIMED_OUT, "late")),
        "str key and value, dict headers": lambda: Message(topic="t", key="k\u00e9", value="v", headers={"a": "x"}),
        "unset numbers": lambda: Message(partition=-5, offset=-1, leader_epoch=-2, latency=-3.0, delivery_count=0),
        "latency beyond 64 bits": lambda: Message(latency=float("inf")),
        "latency microseconds": lambda: Message(latency=0.1234567),
        "timestamp type 9": lambda: Message(timestamp=(9, -5)),
        "subclass": lambda: Plain(topic="t", value=b"v", offset=3),
        "before __init__": lambda: Message.__new__(Message),
        "objects": lambda: Message(topic=5, key=[1, 2], value={"a": 1}, headers=("x",), error=3.5),
    }


def _dump(values: dict[str, Callable[[], Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for label, make in values.items():
        out[label] = {}
        for proto in PROTOCOLS:
            try:
                out[label][str(proto)] = {"pickle": base64.b64encode(pickle.dumps(make(), proto)).decode()}
            except Exception as exc:  # noqa: BLE001 - the exception is the observation
                out[label][str(proto)] = raised(exc)
    return out


def _load(given: dict[str, Any], observe: Callable[[Any], Any]) -> dict[str, Any]:
    """Each side's pickles loaded here: what came back, or why nothing did."""
    out: dict[str, Any] = {}
    for side, dumped in sorted(given.items()):
        if not isinstance(dumped, dict) or "scenario raised" in dumped:
            out[side] = {"dump failed": dumped}
            continue
        for label, by_proto in sorted(dumped.items()):
            for proto, entry in sorted(by_proto.items()):
                key = f"{side} {label} protocol {proto}"
                if "pickle" not in entry:
                    out[key] = {"not pickled": entry}
                    continue
                try:
                    out[key] = observe(pickle.loads(base64.b64decode(entry["pickle"])))
                except Exception as exc:  # noqa: BLE001
                    out[key] = raised(exc)
    return out


def dump_messages() -> Any:
    return _dump(_messages())


def crossed_messages(given: dict[str, Any]) -> Any:
    return _load(given, message_fields)


def _topic_partitions() -> dict[str, Callable[[], Any]]:
    return {
        "topic only": lambda: TopicPartition("t"),
        "partition and offset": lambda: TopicPartition("t", 3, 42),
        "metadata": lambda: TopicPartition("t", 3, 42, "meta"),
        "metadata and epoch": lambda: TopicPartition("t", 3, 42, "meta", 7),
        "epoch without metadata": lambda: TopicPartition("t", 3, 42, leader_epoch=7),
        "logical offset, empty metadata": lambda: TopicPartition("\u00e9", -1, -2, ""),
        "subclass": lambda: PlainTP("t", 1, 2),
    }


def dump_topic_partitions() -> Any:
    """Upstream cannot pickle its TopicPartition; this package's pickles must load there."""
    return _dump(_topic_partitions())


def crossed_topic_partitions(given: dict[str, Any]) -> Any:
    return _load(given, tp_fields)


def dump_topic_partitions_with_error() -> Any:
    """A TopicPartition carrying a per-partition error, which this package pickles as the state
    (upstream can neither pickle one nor load such a pickle, having no __setstate__)."""
    def make() -> Any:
        tp = TopicPartition("t", 0, 5)
        tp.__setstate__(KafkaError(KafkaError.OFFSET_OUT_OF_RANGE, "out"))  # type: ignore[attr-defined]
        return tp
    return _dump({"error": make})


def crossed_topic_partitions_with_error(given: dict[str, Any]) -> Any:
    return _load(given, tp_fields)


def throttle_fields(ev: Any) -> dict[str, Any]:
    return {"type": type(ev).__name__, "str": str(ev),
            **{name: outcome(getattr, ev, name) for name in ("broker_name", "broker_id", "throttle_time")}}


def dump_throttle_events() -> Any:
    return _dump({"event": lambda: ThrottleEvent("127.0.0.1:9092/1", 1, 0.25),
                  "keywords": lambda: ThrottleEvent(broker_name="b\u00e9", broker_id=-1, throttle_time=0.0)})


def crossed_throttle_events(given: dict[str, Any]) -> Any:
    return _load(given, throttle_fields)


def scenario_message_copies() -> Any:
    headers = [("a", b"1")]
    key = bytearray(b"k")
    m = Message(topic="t", partition=1, offset=2, key=key, value=b"v", headers=headers,
                error=KafkaError(1), timestamp=(1, 5), latency=0.5, leader_epoch=3, delivery_count=4)
    shallow, deep = copy.copy(m), copy.deepcopy(m)
    return {
        "copy": message_fields(shallow), "deepcopy": message_fields(deep),
        "copy equal": shallow == m, "deepcopy equal": deep == m,
        "copy shares headers": shallow.headers() is headers, "deepcopy shares headers": deep.headers() is headers,
        "copy shares key": shallow.key() is key, "deepcopy key equal": deep.key() == key,
        "subclass copy": type(copy.copy(Plain(topic="t"))).__name__,
        "reduce_ex": [data(m.__reduce_ex__(p)[1]) for p in PROTOCOLS],
    }


def scenario_topic_partition_copies() -> Any:
    """copy/deepcopy/pickle of a TopicPartition (upstream: TypeError, not picklable)."""
    tp = TopicPartition("t", 1, 2, "m", 3)
    return {"copy": outcome(lambda: tp_fields(copy.copy(tp))), "deepcopy": outcome(lambda: tp_fields(copy.deepcopy(tp))),
            "pickle": outcome(lambda: tp_fields(pickle.loads(pickle.dumps(tp))))}
