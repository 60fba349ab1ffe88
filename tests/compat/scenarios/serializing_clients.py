"""SerializingProducer and DeserializingConsumer: configuration forms and serde keys, builders,
what a serializer sees, the errors a failing (de)serializer raises, close(), cluster_id().

Without a broker the producer points at 127.0.0.1:1 and its queue is purged; the consuming side
runs on librdkafka's built-in mock cluster (``test.mock.num.brokers``), found through the
producer's metadata, so both sides need nothing else.
"""
from __future__ import annotations

import pickle
import time
from typing import Any, Callable, List, Optional

from observe import data, outcome, raised

from confluent_kafka import (OFFSET_BEGINNING, DeserializingConsumer, KafkaError, KafkaException, Producer,
                             SerializingProducer, TopicPartition)
from confluent_kafka.error import (ConsumeError, KeyDeserializationError, KeySerializationError, ProduceError,
                                   ValueDeserializationError, ValueSerializationError)
from confluent_kafka.serialization import (DeserializerBuilder, IntegerDeserializer, IntegerSerializer,
                                           SerializationError, Serializer, SerializerBuilder, StringDeserializer,
                                           StringSerializer)

NOWHERE = {"bootstrap.servers": "127.0.0.1:1", "log_level": 0}
_KEEP: List[Any] = []


def _purge_close(p: Any) -> None:
    p.purge()
    p.poll(0)
    p.close()


def _made(cls: Any, *args: Any, **kwargs: Any) -> Any:
    """Construct, observe the outcome, and close what was made."""
    try:
        obj = cls(*args, **kwargs)
    except KafkaException as exc:
        return _kafka_error(exc)
    except Exception as exc:  # noqa: BLE001
        return raised(exc)
    if isinstance(obj, SerializingProducer):
        _purge_close(obj)
    else:
        obj.close()
    return {"ok": type(obj).__name__}


def _kafka_error(exc: BaseException) -> Any:
    """A client error as a caller takes it apart."""
    out: dict[str, Any] = {"type": type(exc).__name__}
    err = exc.args[0] if exc.args else None
    if isinstance(err, KafkaError):
        out.update(code=err.code(), name=err.name(), text=err.str())
    for attr in ("code", "name"):
        if hasattr(exc, attr):
            out[f"attr_{attr}"] = data(getattr(exc, attr))
    if hasattr(exc, "exception"):
        out["exception"] = None if exc.exception is None else raised(exc.exception)
    if hasattr(exc, "kafka_message"):
        m = exc.kafka_message
        out["kafka_message"] = None if m is None else data([m.topic(), m.partition(), m.offset(), m.key(), m.value()])
    out["isinstance"] = [isinstance(exc, c) for c in (KafkaException, SerializationError, ProduceError, ConsumeError)]
    return out


def _catch(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return {"ok": data(fn(*args, **kwargs))}
    except KafkaException as exc:
        return _kafka_error(exc)
    except Exception as exc:  # noqa: BLE001
        return raised(exc)


def scenario_producer_construction() -> Any:
    S = StringSerializer()
    return {
        "positional": _made(SerializingProducer, dict(NOWHERE)),
        "conf_keyword": _made(SerializingProducer, conf=dict(NOWHERE)),
        "both": _made(SerializingProducer, dict(NOWHERE), conf=dict(NOWHERE)),
        "serdes": _made(SerializingProducer, {**NOWHERE, "key.serializer": S, "value.serializer": S}),
        "none_serdes": _made(SerializingProducer, {**NOWHERE, "key.serializer": None, "value.serializer": None}),
        "not_callable": _made(SerializingProducer, {**NOWHERE, "key.serializer": 5}),
        "serde_and_builder": _made(SerializingProducer, {**NOWHERE, "key.serializer": S,
                                                         "key.serializer.builder": object()}),
        "value_serde_and_builder": _made(SerializingProducer, {**NOWHERE, "value.serializer": S,
                                                               "value.serializer.builder": object()}),
        "builder_not_a_builder": _made(SerializingProducer, {**NOWHERE, "value.serializer.builder": 5}),
        "base_builder": _made(SerializingProducer, {**NOWHERE, "key.serializer.builder": SerializerBuilder()}),
        "deserializer_key": _catch(lambda: _made(SerializingProducer, {**NOWHERE, "key.deserializer": "x"})),
        "conf_unchanged": _conf_unchanged(),
    }


def _conf_unchanged() -> Any:
    conf = {**NOWHERE, "key.serializer": StringSerializer(), "value.serializer.builder": _Builder([], "v")}
    before = sorted(conf)
    _made(SerializingProducer, conf)
    return sorted(conf) == before


class _Recorder(Serializer):
    """A serializer that records how the client treats it."""

    def __init__(self, log: List[Any], name: str, fail: Optional[BaseException] = None) -> None:
        self.log, self.name, self.fail = log, name, fail

    def __call__(self, obj: Any, ctx: Any = None) -> Any:
        _KEEP.append(ctx)  # alive, so that id() tells contexts apart
        self.log.append([self.name, "call", data(obj), ctx.topic, str(ctx.field), type(ctx.field).__name__,
                         data(ctx.headers), id(ctx)])
        if self.fail is not None:
            raise self.fail
        return None if obj is None else str(obj).encode()

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        self.log.append([self.name, "resolver", callable(resolver)])

    def close(self) -> None:
        self.log.append([self.name, "close"])


class _Builder(SerializerBuilder, DeserializerBuilder):
    """Builds a _Recorder; takes ``custom.<name>`` out of the configuration."""

    def __init__(self, log: List[Any], name: str, result: Any = "default", fail: bool = False) -> None:
        self.log, self.name, self.result, self.fail = log, name, result, fail

    def build(self, conf: Any, is_key: bool) -> Any:
        self.log.append([self.name, "build", is_key, sorted(k for k in conf if not k.startswith("bootstrap")),
                         type(conf).__name__])
        if self.fail:
            raise RuntimeError(f"{self.name} build failed")
        if self.result != "default":
            return self.result
        rest = {k: v for k, v in conf.items() if k != f"custom.{self.name}"}
        return _Recorder(self.log, self.name), rest


def _ids(log: List[Any]) -> List[Any]:
    """The log with context ids replaced by their order of first appearance."""
    seen: dict[int, int] = {}
    out = []
    for entry in log:
        if len(entry) > 2 and entry[1] == "call":
            entry = entry[:-1] + [seen.setdefault(entry[-1], len(seen))]
        out.append(entry)
    return out


def scenario_builders() -> Any:
    out: dict[str, Any] = {}
    log: List[Any] = []
    conf = {**NOWHERE, "key.serializer.builder": _Builder(log, "k"), "value.serializer.builder": _Builder(log, "v"),
            "custom.k": 1, "custom.v": 2}
    p = SerializingProducer(conf)
    p.produce("t", key=1, value="two", headers={"h": b"1"})
    out["produce"] = outcome(lambda: None)
    _purge_close(p)
    out["close_again"] = outcome(p.close)
    out["log"] = _ids(log)

    log = []
    # A setting only one builder consumes is kept from the client all the same.
    conf = {**NOWHERE, "key.serializer.builder": _Builder(log, "k"), "custom.k": 1}
    out["consumed"] = _made(SerializingProducer, conf)
    out["unconsumed"] = _made(SerializingProducer, {**NOWHERE, "custom.zz": 1,
                                                    "key.serializer.builder": _Builder(log, "k")})
    for name, result in [("none", None), ("one", (_Recorder(log, "x"),)), ("three", (1, {}, 3)),
                         ("list_conf", (_Recorder(log, "x"), [])), ("str", "ab"), ("int", 5)]:
        out[f"returns_{name}"] = _catch(lambda r=result: _made(
            SerializingProducer, {**NOWHERE, "value.serializer.builder": _Builder(log, name, result=r)}))
    out["second_fails"] = _made(SerializingProducer, {**NOWHERE, "key.serializer.builder": _Builder(log, "k1"),
                                                      "value.serializer.builder": _Builder(log, "v1", fail=True)})
    out["client_fails"] = _catch(lambda: _made(SerializingProducer, {
        **NOWHERE, "no.such.property": 1, "key.serializer.builder": _Builder(log, "k2")}))
    out["log2"] = _ids(log)
    log = []
    ready = _Recorder(log, "ready")
    with SerializingProducer({**NOWHERE, "value.serializer": ready,
                              "key.serializer.builder": _Builder(log, "kb")}) as p:
        p.purge()
    out["with_closes_built_only"] = _ids(log)
    return out


def scenario_deserializer_builders() -> Any:
    log: List[Any] = []
    out: dict[str, Any] = {}
    c = DeserializingConsumer({**NOWHERE, "group.id": "g", "key.deserializer.builder": _Builder(log, "k"),
                               "value.deserializer": _Recorder(log, "ready"), "custom.k": 1})
    out["close"] = outcome(c.close)
    out["close_again"] = outcome(c.close)
    out["both"] = _made(DeserializingConsumer, {**NOWHERE, "group.id": "g", "value.deserializer": 1,
                                                "value.deserializer.builder": 1})
    out["base_builder"] = _made(DeserializingConsumer, {**NOWHERE, "group.id": "g",
                                                        "key.deserializer.builder": DeserializerBuilder()})
    with DeserializingConsumer({**NOWHERE, "group.id": "g", "value.deserializer.builder": _Builder(log, "vb")}):
        pass
    out["log"] = _ids(log)
    out["keyword"] = _made(DeserializingConsumer, conf={**NOWHERE, "group.id": "g"})
    return out


def scenario_serializer_failures() -> Any:
    p = SerializingProducer({**NOWHERE, "key.serializer": IntegerSerializer(),
                             "value.serializer": StringSerializer()})
    out: dict[str, Any] = {}
    try:
        for name, key, value in [("key_str", "x", "v"), ("key_range", 2**40, "v"), ("value_int", 1, 5),
                                 ("value_bytes", 1, b"raw"), ("both_bad", "x", 5), ("value_surrogate", 1, "\ud800")]:
            out[name] = _catch(p.produce, "t", key=key, value=value)
        log: List[Any] = []
        q = SerializingProducer({**NOWHERE, "key.serializer": _Recorder(log, "k", fail=ValueError("kaput")),
                                 "value.serializer": _Recorder(log, "v", fail=KeyError("gone"))})
        out["custom_key"] = _catch(q.produce, "t", key=1, value=2)
        q2 = SerializingProducer({**NOWHERE, "value.serializer": _Recorder(log, "v", fail=KeyError("gone"))})
        out["custom_value"] = _catch(q2.produce, "t", key=b"k", value=2)
        q3 = SerializingProducer({**NOWHERE, "key.serializer": 5})
        out["not_callable"] = _catch(q3.produce, "t", key=1)
        q4 = SerializingProducer({**NOWHERE, "value.serializer": lambda obj, ctx: "text"})
        out["returns_str"] = _catch(q4.produce, "t", value=1)
        q5 = SerializingProducer({**NOWHERE, "value.serializer": lambda obj: b"x"})
        out["one_arg"] = _catch(q5.produce, "t", value=1)
        out["log"] = _ids(log)
        for c in (q, q2, q3, q4, q5):
            _purge_close(c)
    finally:
        _purge_close(p)
    return out


def scenario_exception_str() -> Any:
    """What str() and repr() of the clients' errors read (KafkaException's own str)."""
    p = SerializingProducer({**NOWHERE, "value.serializer": IntegerSerializer()})
    try:
        p.produce("t", value="x")
    except KafkaException as exc:
        produced = [str(exc), repr(exc)]
    finally:
        _purge_close(p)
    return {"produce": produced,
            "made": [[str(e), repr(e)] for e in (KeySerializationError(ValueError("k")), ValueDeserializationError(),
                                                  ConsumeError(KafkaError(KafkaError._PARTITION_EOF)))]}


def scenario_error_objects() -> Any:
    cause = ValueError("boom")
    out: dict[str, Any] = {}
    for name, make in [
        ("key_ser", lambda: KeySerializationError(cause)),
        ("value_ser", lambda: ValueSerializationError(exception=cause)),
        ("key_ser_none", lambda: KeySerializationError()),
        ("key_de", lambda: KeyDeserializationError(cause)),
        ("value_de", lambda: ValueDeserializationError(exception=cause, kafka_message=None)),
        ("value_de_none", lambda: ValueDeserializationError()),
        ("consume", lambda: ConsumeError(KafkaError(KafkaError._PARTITION_EOF))),
        ("consume_full", lambda: ConsumeError(KafkaError(KafkaError._TRANSPORT, "down"), cause, None)),
        ("produce", lambda: ProduceError(KafkaError(KafkaError._MSG_TIMED_OUT), exception=cause)),
        ("str_cause", lambda: KeySerializationError("text")),
        ("produce_no_args", lambda: ProduceError()),
        ("consume_kw", lambda: ConsumeError(kafka_error=KafkaError(1), kafka_message=None)),
    ]:
        try:
            exc = make()
        except Exception as e:  # noqa: BLE001
            out[name] = raised(e)
            continue
        out[name] = {**_kafka_error(exc), "args": len(exc.args)}
    return out


def _dump_errors() -> dict[str, Any]:
    return {"key_ser": KeySerializationError(ValueError("boom")),
            "value_ser": ValueSerializationError(ValueError("v")),
            "value_de": ValueDeserializationError(ValueError("d"))}


def scenario_error_roundtrip() -> Any:
    """Pickled and loaded on one side (crossed_error_pickles crosses the two sides)."""
    out = {}
    for name, exc in _dump_errors().items():
        try:
            back = pickle.loads(pickle.dumps(exc))
            out[name] = {**_kafka_error(back), "same_text": back.args[0].str() == exc.args[0].str()}
        except Exception as e:  # noqa: BLE001
            out[name] = raised(e)
    return out


def dump_error_pickles() -> Any:
    import base64

    out = {}
    for name, exc in _dump_errors().items():
        try:
            out[name] = base64.b64encode(pickle.dumps(exc)).decode()
        except Exception as e:  # noqa: BLE001
            out[name] = raised(e)
    return out


def crossed_error_pickles(given: Any) -> Any:
    """Each side loads the pickles both sides made."""
    import base64

    out: dict[str, Any] = {}
    for side in ("ours", "upstream"):
        for name, blob in sorted(given[side].items()):
            if not isinstance(blob, str):
                out[f"{side}:{name}"] = blob
                continue
            try:
                back = pickle.loads(base64.b64decode(blob))
                seen = _kafka_error(back)
                seen.pop("text", None)  # upstream's own load nests the text (see error_roundtrip)
                out[f"{side}:{name}"] = seen
            except Exception as e:  # noqa: BLE001
                out[f"{side}:{name}"] = raised(e)
    return out


def scenario_produce_checks() -> Any:
    log: List[Any] = []
    p = SerializingProducer({**NOWHERE, "key.serializer": _Recorder(log, "k"), "value.serializer": _Recorder(log, "v")})
    reports: List[Any] = []
    out: dict[str, Any] = {
        "topic_int": _catch(p.produce, 5, key=1, value=2),
        "topic_none": _catch(p.produce, None, key=1, value=2),
        "topic_bytes": _catch(p.produce, b"t", key=1, value=2),
        "log_after_bad_topics": _ids(log),
        "positional": _catch(p.produce, "t", 1, 2, 0, lambda e, m: reports.append(
            data([e.code(), m.key(), m.value(), m.partition()])), 1_700_000_000_000, [("h", b"v")]),
        "keywords": _catch(p.produce, topic="t", value=None, key=None),
        "unknown_keyword": _catch(p.produce, "t", key=1, value=2, callback=None),
    }
    p.purge()
    deadline = time.monotonic() + 5
    while not reports and time.monotonic() < deadline:
        p.poll(0.05)
    out["reports"] = reports
    out["log"] = _ids(log)
    out["close"] = outcome(p.close)
    log.clear()
    out["produce_closed"] = _catch(p.produce, "t", key=1, value=2)
    out["produce_closed_bad_topic"] = _catch(p.produce, 5, key=1, value=2)
    out["log_after_close"] = log
    out["close_again"] = outcome(p.close)
    return out


def scenario_cluster_id_unreachable() -> Any:
    p = SerializingProducer(dict(NOWHERE))
    c = DeserializingConsumer({**NOWHERE, "group.id": "g"})
    try:
        return {"producer": _catch(p.cluster_id, 0.2), "producer_kw": _catch(p.cluster_id, timeout=0.1),
                "consumer": _catch(c.cluster_id, 0.2), "has": [hasattr(SerializingProducer, "cluster_id"),
                                                               hasattr(DeserializingConsumer, "cluster_id")]}
    finally:
        _purge_close(p)
        c.close()


def scenario_generic() -> Any:
    return {"producer": outcome(lambda: repr(SerializingProducer[str, int])),
            "consumer": outcome(lambda: repr(DeserializingConsumer[bytes, dict])),
            "producer_mro": [c.__name__ for c in SerializingProducer.__mro__],
            "consumer_mro": [c.__name__ for c in DeserializingConsumer.__mro__]}


def _mock_bootstrap(p: Any) -> str:
    md = p.list_topics(timeout=10)
    broker = sorted(md.brokers.values(), key=lambda b: b.id)[0]
    return f"{broker.host}:{broker.port}"


def _seed(topic: str, records: List[Any]) -> tuple[Any, str]:
    """A producer owning a mock cluster, with ``records`` (key, value) produced to partition 0."""
    p = Producer({"test.mock.num.brokers": 1, "log_level": 0})
    bootstrap = _mock_bootstrap(p)
    for key, value in records:
        p.produce(topic, value, key, partition=0)
    assert p.flush(10) == 0
    return p, bootstrap


def _drain(c: Any, n: int, deadline: float = 15.0) -> List[Any]:
    """Poll until ``n`` outcomes (messages or raised errors) were seen."""
    seen: List[Any] = []
    end = time.monotonic() + deadline
    while len(seen) < n and time.monotonic() < end:
        try:
            msg = c.poll(0.2)
        except KafkaException as exc:
            seen.append(_kafka_error(exc))
            continue
        if msg is not None:
            seen.append({"key": data(msg.key()), "value": data(msg.value()), "offset": msg.offset()})
    return seen


def scenario_consume_deserialized() -> Any:
    records = [(b"\x00\x00\x00\x01", b"one"), (b"\x00\x00\x00\x02", b"\xff\xfe"), (b"\x00\x01", b"three"),
               (None, None), (b"\x00\x00\x00\x05", "é".encode()), (b"\x00", b"\xff")]
    p, bootstrap = _seed("de", records)
    log: List[Any] = []
    c = DeserializingConsumer({"bootstrap.servers": bootstrap, "group.id": "g", "log_level": 0,
                               "key.deserializer": IntegerDeserializer(), "value.deserializer": StringDeserializer()})
    try:
        c.assign([TopicPartition("de", 0, OFFSET_BEGINNING)])
        out = {"polled": _drain(c, len(records))}
    finally:
        c.close()
    c2 = DeserializingConsumer({"bootstrap.servers": bootstrap, "group.id": "g2", "log_level": 0,
                                "key.deserializer": _DeRecorder(log, "k"),
                                "value.deserializer": _DeRecorder(log, "v")})
    try:
        c2.assign([TopicPartition("de", 0, OFFSET_BEGINNING)])
        out["recorded"] = _drain(c2, 2)
        out["log"] = _ids(log)[:6]
    finally:
        c2.close()
    c3 = DeserializingConsumer({"bootstrap.servers": bootstrap, "group.id": "g3", "log_level": 0,
                                "enable.partition.eof": True})
    try:
        c3.assign([TopicPartition("de", 0, OFFSET_BEGINNING)])
        out["eof"] = _drain(c3, len(records) + 1)[-1]
    finally:
        c3.close()
    p.close()
    return out


class _DeRecorder:
    def __init__(self, log: List[Any], name: str) -> None:
        self.log, self.name = log, name

    def __call__(self, value: Any, ctx: Any) -> Any:
        _KEEP.append(ctx)
        self.log.append([self.name, "call", data(value), ctx.topic, str(ctx.field), type(ctx.field).__name__,
                         data(ctx.headers), id(ctx)])
        return [self.name, value]


def scenario_consume_not_poll() -> Any:
    """upstream's DeserializingConsumer.consume() raises NotImplementedError; ours deserializes
    the batch (deliberate, see deliberate.py)."""
    p, bootstrap = _seed("batch", [(b"\x00\x00\x00\x07", b"x")])
    c = DeserializingConsumer({"bootstrap.servers": bootstrap, "group.id": "g", "log_level": 0,
                               "key.deserializer": IntegerDeserializer()})
    try:
        c.assign([TopicPartition("batch", 0, OFFSET_BEGINNING)])
        got: Any = []
        end = time.monotonic() + 15
        while not got and time.monotonic() < end:
            got = _catch(lambda: [[m.key(), m.value()] for m in c.consume(10, 0.5)])
            if "ok" in got and not got["ok"]:
                got = []
        return got
    finally:
        c.close()
        p.close()


def scenario_deserializing_closed() -> Any:
    c = DeserializingConsumer({**NOWHERE, "group.id": "g", "value.deserializer": StringDeserializer()})
    c.close()
    return {"poll": _catch(c.poll, 0.1), "close_again": outcome(c.close)}
