"""Messages and TopicPartitions that a real round trip makes: produce to a fresh topic on the tansu
broker, observe every delivery report, consume the messages back (partition 0 from the beginning)
and observe them, then commit/store offsets from them and observe the TopicPartitions returned.

Each side uses its own topic and group (uuid); what depends on the topic name or the clock is
observed relative to it."""
from __future__ import annotations

import os
import time
import uuid
from typing import Any, Callable

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition

from observe import data, outcome, raised

NEEDS_BROKER = True

NOW_MS = int(time.time() * 1000)
STAMP = 1_600_000_000_000

# (produce() keyword arguments) for each message; all go to partition 0.
MESSAGES: list[dict[str, Any]] = [
    dict(key=b"k1", value=b"v1", headers=[("h", b"1"), ("h", b"2"), ("n", None)], timestamp=STAMP),
    dict(key=None, value=None),
    dict(key=b"", value=b"", headers=[]),
    dict(key="str-key", value="str-value", headers={"d": "x", "e": None}, timestamp=STAMP + 1),
    dict(value=b"no key", headers=[("only", b"")]),
    dict(key=b"k6", value=b"x" * 1000, headers=[("\u00e9", "\u00e9".encode())], timestamp=STAMP + 2),
]


def _bootstrap() -> str:
    return os.environ["COMPAT_BOOTSTRAP"]


def _names() -> tuple[str, str]:
    tag = uuid.uuid4().hex
    return f"compat-roundtrip-{tag}", f"compat-roundtrip-group-{tag}"


def observe_message(m: Any, topic: str, report: bool = False) -> dict[str, Any]:
    """Every getter, with what depends on the topic name or the clock made relative. A delivery
    report's headers are left to scenario_report_headers (they differ on purpose)."""
    ts_type, ts = m.timestamp()
    latency = m.latency()
    seen = {
        "type": type(m).__name__,
        "topic is the topic": m.topic() == topic,
        "topic type": type(m.topic()).__name__,
        "partition": outcome(m.partition),
        "offset": outcome(m.offset),
        "key": outcome(m.key),
        "value": outcome(m.value),
        "deserialized": [data(m.deserialized_key()), data(m.deserialized_value())],
        "headers": outcome(m.headers),
        "headers twice same object": m.headers() is m.headers(),
        "error": outcome(m.error),
        "timestamp type": ts_type,
        "timestamp": ts if ts < NOW_MS - 3_600_000 else ("about now" if abs(ts - NOW_MS) < 600_000 else ts),
        "latency": None if latency is None else ("non-negative float" if isinstance(latency, float) and latency >= 0
                                                 else repr(latency)),
        "leader_epoch": outcome(m.leader_epoch),
        "delivery_count": outcome(m.delivery_count),
        "len": outcome(len, m),
        "reduce args": [data(a) for a in m.__reduce__()[1][1:7]],
    }
    if report:
        for key in ("headers", "headers twice same object"):
            del seen[key]
        del seen["reduce args"][4]
    return seen


def observe_tp(tp: Any, topic: str) -> dict[str, Any]:
    return {"type": type(tp).__name__, "topic is the topic": tp.topic == topic, "partition": tp.partition,
            "offset": tp.offset, "metadata": tp.metadata, "leader_epoch": tp.leader_epoch,
            "error": data(tp.error), "repr": repr(tp).replace(topic, "TOPIC")}


def _kafka(fn: Callable[[], Any], topic: str) -> Any:
    try:
        res = fn()
    except KafkaException as exc:
        err = exc.args[0]
        return {"raises": "KafkaException", "code": err.name() if isinstance(err, KafkaError) else repr(err)}
    except Exception as exc:  # noqa: BLE001
        return raised(exc)
    if isinstance(res, list):
        return {"ok": [observe_tp(tp, topic) for tp in res]}
    return {"ok": data(res)}


def _consume(c: Consumer, want: int, deadline_s: float = 20.0) -> list[Any]:
    got: list[Any] = []
    end = time.monotonic() + deadline_s
    while len(got) < want and time.monotonic() < end:
        m = c.poll(0.5)
        if m is not None and m.error() is None:
            got.append(m)
    return got


def scenario_produce_consume_commit() -> Any:
    topic, group = _names()
    reports: list[Any] = []
    p = Producer({"bootstrap.servers": _bootstrap(), "log_level": 0, "message.timeout.ms": 20000})
    for kwargs in MESSAGES:
        p.produce(topic, partition=0, on_delivery=lambda err, msg: reports.append((err, msg)), **kwargs)
    left = p.flush(20)
    out: dict[str, Any] = {"flush left": left, "report count": len(reports)}
    out["report argument types"] = sorted({(type(e).__name__, type(m).__name__) for e, m in reports})
    out["reports"] = [observe_message(m, topic, report=True)
                      for _, m in sorted(reports, key=lambda r: r[1].offset() or 0)]

    c = Consumer({"bootstrap.servers": _bootstrap(), "group.id": group, "log_level": 0,
                  "enable.auto.commit": False, "enable.auto.offset.store": False, "auto.offset.reset": "earliest"})
    try:
        c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        got = _consume(c, len(MESSAGES))
        out["consumed count"] = len(got)
        out["consumed"] = [observe_message(m, topic) for m in got]
        if got:
            first = got[0]
            out["equal to a hand-made copy"] = first == Message(
                topic=topic, partition=first.partition(), offset=first.offset(), key=first.key(), value=first.value(),
                headers=first.headers(), timestamp=first.timestamp(), leader_epoch=first.leader_epoch() or -1)
            out["equal to its report (no headers)"] = [
                m == r for m, (_, r) in zip(got, sorted(reports, key=lambda r: r[1].offset() or 0))
                if not m.headers()]
            out["store consumed"] = _kafka(lambda: c.store_offsets(message=got[1]), topic)
            out["commit stored"] = _kafka(lambda: c.commit(asynchronous=False), topic)
            out["commit message"] = _kafka(lambda: c.commit(message=got[-1], asynchronous=False), topic)
            out["committed"] = _kafka(lambda: c.committed([TopicPartition(topic, 0)], timeout=10), topic)
            out["commit report message"] = _kafka(lambda: c.commit(message=reports[0][1], asynchronous=False), topic)
            out["commit with metadata"] = _kafka(lambda: c.commit(
                offsets=[TopicPartition(topic, 0, 3, "meta\u00e9")], asynchronous=False), topic)
            out["committed metadata"] = _kafka(lambda: c.committed([TopicPartition(topic, 0)], timeout=10), topic)
            out["commit offset -1 message"] = _kafka(lambda: c.commit(
                message=Message(topic=topic, partition=0, offset=-1), asynchronous=False), topic)
            out["store offset -1 message"] = _kafka(lambda: c.store_offsets(
                message=Message(topic=topic, partition=0, offset=-1)), topic)
            out["commit after storing -1"] = _kafka(lambda: c.commit(asynchronous=False), topic)
            out["position"] = _kafka(lambda: c.position([TopicPartition(topic, 0)]), topic)
            out["assignment"] = _kafka(c.assignment, topic)
    finally:
        c.close()
    return out


def scenario_report_headers() -> Any:
    """A delivery report's headers: this package hands back the headers that were produced (as a
    list of (str, bytes|None)); upstream's reports have none."""
    topic, _ = _names()
    reports: list[Any] = []
    p = Producer({"bootstrap.servers": _bootstrap(), "log_level": 0, "message.timeout.ms": 20000})
    for kwargs in MESSAGES:
        p.produce(topic, partition=0, on_delivery=lambda err, msg: reports.append(msg), **kwargs)
    p.flush(20)
    return [outcome(m.headers) for m in sorted(reports, key=lambda m: m.offset() or 0)]


def _batch_roundtrip(msgs: list[dict[str, Any]], **kwargs: Any) -> Any:
    topic, group = _names()
    reports: list[Any] = []
    p = Producer({"bootstrap.servers": _bootstrap(), "log_level": 0, "message.timeout.ms": 20000})
    p.produce(topic, b"first", partition=0)  # creates the topic
    p.flush(20)
    count = p.produce_batch(topic, msgs, on_delivery=lambda err, msg: reports.append((err, msg)), **kwargs)
    left = p.flush(20)
    out: dict[str, Any] = {"count": count, "flush left": left, "errors in dicts": ["_error" in m for m in msgs],
                           "report argument types": sorted({(type(e).__name__, type(m).__name__) for e, m in reports}),
                           "reports": [observe_message(m, topic, report=True)
                                       for _, m in sorted(reports, key=lambda r: r[1].offset() or 0)]}
    c = Consumer({"bootstrap.servers": _bootstrap(), "group.id": group, "log_level": 0,
                  "enable.auto.commit": False})
    try:
        c.assign([TopicPartition(topic, 0, 1)])
        out["consumed"] = [observe_message(m, topic) for m in _consume(c, count)]
    finally:
        c.close()
    return out


def scenario_produce_batch_roundtrip() -> Any:
    """Values, keys and the batch's partition: what upstream's batch form sends."""
    return _batch_roundtrip([{"value": b"a", "key": b"k"}, {"value": "b"}, {"key": "only-key"}, {}],
                            partition=0)


def scenario_produce_batch_extras_roundtrip() -> Any:
    """Headers, timestamps and a per-message partition in the dicts: sent by this package, dropped
    (headers, partition) or refused (timestamp: NotImplementedError) by upstream's."""
    def run() -> Any:
        return _batch_roundtrip([{"value": b"a", "headers": [("h", b"1"), ("h", None)]},
                                 {"value": b"b", "partition": 0, "timestamp": STAMP}], partition=0)
    return outcome(run)
