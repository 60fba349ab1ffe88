"""Message built by hand: constructor arguments and their validation, the sentinels that mean
"unset", getters, setters, len, equality, hashing, subclasses, re-initialisation, and the offsets
that commit()/store_offsets() derive from a message (on a consumer whose broker is unreachable)."""
from __future__ import annotations

import re
from typing import Any, Callable
from unittest import mock

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, TopicPartition

from observe import data, outcome, raised

GETTERS = ("topic", "partition", "offset", "key", "value", "headers", "error", "timestamp", "latency",
           "leader_epoch", "delivery_count", "deserialized_key", "deserialized_value")


def fields(m: Any) -> dict[str, Any]:
    """Every getter's result, len(), and the constructor call the message pickles as."""
    seen = {name: outcome(getattr(m, name)) for name in GETTERS}
    seen["len"] = outcome(len, m)
    seen["reduce"] = outcome(lambda: (m.__reduce__()[0].__name__, m.__reduce__()[1]))
    return seen


def made(*args: Any, **kwargs: Any) -> Any:
    """Message(*args, **kwargs) observed field by field, or the exception it raised."""
    try:
        m = Message(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        return raised(exc)
    return fields(m)


FULL = dict(topic="orders", partition=3, offset=42, key=b"k", value=b"payload",
            headers=[("h1", b"v1"), ("h2", None), ("h1", b"again")], error=KafkaError(KafkaError._PARTITION_EOF),
            timestamp=(2, 1_700_000_000_123), latency=0.25, leader_epoch=7, delivery_count=3)


def scenario_defaults() -> Any:
    return made()


def scenario_every_keyword() -> Any:
    return made(**FULL)


def scenario_positional() -> Any:
    return {
        "eleven": made("t", 1, 2, b"k", b"v", [("a", b"b")], None, (1, 5), 0.5, 9, 2),
        "three": made("t", 1, 2),
        "twelve": made(*range(12)),
        "unknown keyword": made(bogus=1),
        "positional and keyword": made("t", topic="u"),
    }


def scenario_objects_kept_as_given() -> Any:
    """topic, key, value, headers and error take any object and return that very object."""
    out = {}
    for name in ("topic", "key", "value", "headers", "error"):
        for label, obj in (("mock", mock.Mock()), ("sentinel", mock.sentinel.thing), ("int", 5), ("str", "text"),
                           ("bytes", b"raw"), ("bytearray", bytearray(b"ba")), ("dict", {"a": b"1"}),
                           ("tuple", (("a", b"1"),)), ("KafkaError", KafkaError(KafkaError._FAIL))):
            try:
                m = Message(**{name: obj})
                got = getattr(m, name)()
                out[f"{name}={label}"] = {"same object": got is obj, "value": data(got)}
            except Exception as exc:  # noqa: BLE001
                out[f"{name}={label}"] = raised(exc)
    return out


def scenario_headers_as_given() -> Any:
    return {label: made(headers=h)["headers"] for label, h in (
        ("list", [("a", b"1"), ("a", None), ("b", "text")]), ("dict", {"a": b"1", "b": None}),
        ("tuple", (("a", b"1"),)), ("empty list", []), ("str", "x"), ("int", 1), ("bad list", [1, 2]))}


NUMBERS: dict[str, list[Any]] = {
    "partition": [None, -5, -2, -1, 0, 7, 2**31 - 1, 2**31, -2**31, -2**31 - 1, True, 1.5, "1", b"1"],
    "offset": [None, -1001, -1000, -2, -1, 0, 5, 2**63 - 1, 2**63, -2**63, 1.0, "1"],
    "leader_epoch": [None, -5, -1, 0, 3, 2**31, "x", 2.0],
    "delivery_count": [None, -40000, -1, 0, 1, 2, 32767, 32768, "3"],
    "latency": [None, -2.5, -1, -1e-9, 0, 0.0, -0.0, 1, True, 0.5, 0.1234567, 1e-7, 1.999e-6, 9.2e12, 9.3e12,
                float("inf"), float("nan"), 2**70, "1", b"1"],
}


def scenario_numeric_arguments() -> Any:
    """Sentinels (negative means unset), range limits and wrong types of the numeric arguments."""
    out = {}
    for name, values in NUMBERS.items():
        for v in values:
            got = made(**{name: v})
            out[f"{name}={v!r}"] = got if "raises" in got else {k: got[k] for k in (name, "reduce")}
    return out


class _Float:
    def __float__(self) -> float:
        return 2.5


class _Index:
    def __index__(self) -> int:
        return 7


def scenario_number_protocols() -> Any:
    return {"latency __float__": made(latency=_Float())["latency"], "partition __index__": made(partition=_Index())["partition"],
            "offset __index__": made(offset=_Index())["offset"], "leader_epoch __index__": made(leader_epoch=_Index())["leader_epoch"]}


def scenario_timestamp_argument() -> Any:
    out = {}
    for label, ts in (("None", None), ("(1, 123)", (1, 123)), ("(0, 0)", (0, 0)), ("(2, -5)", (2, -5)),
                      ("(9, 2)", (9, 2)), ("(-1, -2)", (-1, -2)), ("(True, 1)", (True, 1)), ("(1, True)", (1, True)),
                      ("(2**31, 2)", (2**31, 2)), ("(2**32 + 1, 2)", (2**32 + 1, 2)), ("(1, 2**63 - 1)", (1, 2**63 - 1)),
                      ("int", 5), ("list", [1, 2]), ("1-tuple", (1,)), ("3-tuple", (1, 2, 3)), ("str", "x")):
        got = made(timestamp=ts)
        out[label] = got if "raises" in got else got["timestamp"]
    return out


def scenario_timestamp_bad_elements() -> Any:
    """Tuple elements that are not ints (upstream: SystemError)."""
    return {label: made(timestamp=ts) for label, ts in (
        ("strs", ("a", "b")), ("float type", (1.5, 2)), ("float value", (1, 2.5)), ("None value", (1, None)),
        ("huge value", (1, 2**63)), ("huge type", (2**64, 1)))}


SETTERS = ("set_topic", "set_key", "set_value", "set_headers", "set_error")


def scenario_setters() -> Any:
    out = {}
    for name in SETTERS:
        for label, v in (("None", None), ("str", "text"), ("bytes", b"raw"), ("int", 1), ("list", [("a", b"1")]),
                         ("dict", {"a": "b"}), ("KafkaError", KafkaError(1)), ("sentinel", mock.sentinel.x)):
            m = Message(**FULL)
            res = outcome(getattr(m, name), v)
            out[f"{name}({label})"] = {"returns": res, "fields": fields(m)}
        m = Message(**FULL)
        out[f"{name} arity"] = [outcome(getattr(m, name)), outcome(getattr(m, name), 1, 2),
                                outcome(lambda: getattr(m, name)(x=1))]
    return out


def scenario_setter_identity() -> Any:
    m = Message()
    objs = {"topic": object(), "key": bytearray(b"k"), "value": [1], "headers": {"a": b"1"}, "error": mock.Mock()}
    for name, obj in objs.items():
        getattr(m, f"set_{name}")(obj)
    return {name: getattr(m, name)() is obj for name, obj in objs.items()}


def scenario_getter_arity() -> Any:
    m = Message(**FULL)
    return {name: [outcome(getattr(m, name), 1), outcome(lambda: getattr(m, name)(x=1))] for name in GETTERS}


def scenario_len() -> Any:
    return {label: outcome(len, Message(value=v)) for label, v in (
        ("None", None), ("bytes", b"abc"), ("empty", b""), ("str", "abcd"), ("bytearray", bytearray(b"ab")),
        ("list", [1, 2]), ("dict", {"a": 1}), ("int", 5), ("mock", mock.Mock()))}


def _eq(a: Callable[[], Any], b: Callable[[], Any]) -> Any:
    def both() -> Any:
        x, y = a(), b()
        return [x == y, x != y, y == x]
    return outcome(both)


def scenario_equality() -> Any:
    nan = float("nan")
    return {
        "same fields": _eq(lambda: Message(**FULL), lambda: Message(**FULL)),
        "empty": _eq(Message, Message),
        **{f"differs in {k}": _eq(lambda: Message(**FULL), lambda k=k, v=v: Message(**{**FULL, k: v})) for k, v in (
            ("topic", "other"), ("partition", 4), ("offset", 43), ("key", b"k2"), ("value", b"v2"),
            ("headers", [("h1", b"v1")]), ("error", None), ("timestamp", (2, 1)), ("latency", 0.5),
            ("leader_epoch", 8), ("delivery_count", 1))},
        "unset partitions": _eq(lambda: Message(partition=-1), lambda: Message(partition=-5)),
        "unset offsets": _eq(lambda: Message(offset=-1), lambda: Message(offset=-1001)),
        "unset epochs": _eq(lambda: Message(leader_epoch=-1), lambda: Message(leader_epoch=-3)),
        "no timestamp vs (0, 0)": _eq(lambda: Message(timestamp=None), lambda: Message(timestamp=(0, 0))),
        "list vs tuple headers": _eq(lambda: Message(headers=[("a", b"1")]), lambda: Message(headers=(("a", b"1"),))),
        "str vs bytes topic": _eq(lambda: Message(topic="t"), lambda: Message(topic=b"t")),
        "KafkaError vs its code": _eq(lambda: Message(error=KafkaError(1)), lambda: Message(error=1)),
        "equal KafkaErrors": _eq(lambda: Message(error=KafkaError(1)), lambda: Message(error=KafkaError(1, "other"))),
        "two NaN keys": _eq(lambda: Message(key=float("nan")), lambda: Message(key=float("nan"))),
        "one NaN key": _eq(lambda: Message(key=nan), lambda: Message(key=nan)),
        "vs None": _eq(Message, lambda: None),
        "vs int": _eq(Message, lambda: 5),
        "vs str": _eq(Message, lambda: "Message"),
        "__eq__ None": outcome(lambda: Message().__eq__(None)),
        "__ne__ 5": outcome(lambda: Message().__ne__(5)),
        "in list": outcome(lambda: Message(topic="t") in [None, 1, Message(topic="t")]),
    }


def scenario_hash_and_order() -> Any:
    return {
        "__hash__": Message.__hash__ is None,
        "hash": outcome(hash, Message()),
        "set": outcome(lambda: {Message()}),
        **{op: outcome(lambda op=op: eval(f"Message() {op} Message()")) for op in ("<", "<=", ">", ">=")},  # noqa: S307
        "< int": outcome(lambda: Message() < 5),
    }


class Sub(Message):
    def __init__(self, topic: str, value: bytes | None = None, extra: int = 0) -> None:
        super().__init__(topic=topic, value=value, partition=1, offset=2)
        self.extra = extra


class Plain(Message):
    pass


def scenario_subclass() -> Any:
    s = Sub("t", b"v", extra=3)
    p = Plain(topic="t", partition=1, offset=2, value=b"v")
    return {
        "fields": fields(s),
        "extra": s.extra,
        "plain fields": fields(p),
        "equal to Message": _eq(lambda: Sub("t", b"v"), lambda: Message(topic="t", value=b"v", partition=1, offset=2)),
        "plain equal": _eq(lambda: Plain(topic="t"), lambda: Message(topic="t")),
        "reduce class": s.__reduce__()[0].__name__,
        "isinstance": isinstance(s, Message),
        "bad args": outcome(Plain, partition="x"),
        "no __init__ call": outcome(lambda: type("NoInit", (Message,), {"__init__": lambda self: None})().offset()),
    }


def scenario_new_without_init() -> Any:
    return {"fields": fields(Message.__new__(Message)),
            "ignores arguments": outcome(lambda: Message.__new__(Message, 1, 2, foo=3).topic())}


def scenario_reinit() -> Any:
    m = Message(**FULL)
    m.__init__()
    again = Message(topic="a")
    again.__init__(topic="b", offset=5, headers=[("x", b"y")])
    failed = Message(topic="a", partition=1)
    err = outcome(lambda: failed.__init__(partition="x"))
    return {"emptied": fields(m), "again": fields(again), "failed": err, "after failed": fields(failed)}


def scenario_public_names() -> Any:
    return sorted(n for n in dir(Message) if not n.startswith("_") and n != "set_timestamp")


def scenario_repr() -> Any:
    """repr/str: upstream's is object's default; this package names topic, partition and offset."""
    def norm(text: str) -> str:
        return re.sub(r"0x[0-9a-f]+", "0x?", text)
    return {label: [norm(repr(m)), norm(str(m))] for label, m in (
        ("empty", Message()), ("full", Message(**FULL)), ("mock topic", Message(topic=5)))}


# ---- commit()/store_offsets() from a message ---------------------------------------------------

def _consumer() -> Consumer:
    # A pending commit holds close() for up to session.timeout.ms against the dead coordinator.
    return Consumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "compat-message", "log_level": 0,
                     "enable.auto.commit": False, "enable.auto.offset.store": False,
                     "session.timeout.ms": 1000, "heartbeat.interval.ms": 100})


def _kafka(fn: Callable[[], Any]) -> Any:
    """A call's outcome; a KafkaException by its KafkaError's code name (librdkafka's texts are
    compared elsewhere)."""
    try:
        return {"ok": data(fn())}
    except KafkaException as exc:
        err = exc.args[0]
        return {"raises": "KafkaException", "code": err.name() if isinstance(err, KafkaError) else repr(err)}
    except Exception as exc:  # noqa: BLE001
        return raised(exc)


def _error_text(fn: Callable[[], Any]) -> Any:
    """A KafkaException raised by this package's own validation, with its code and text."""
    try:
        return {"ok": data(fn())}
    except KafkaException as exc:
        err = exc.args[0]
        return {"raises": "KafkaException", "code": err.name(), "str": err.str()}
    except Exception as exc:  # noqa: BLE001
        return raised(exc)


def scenario_store_offsets_from_message() -> Any:
    c = _consumer()
    try:
        out = {}
        for off in (-1, -2, -1001, 0, 10):
            out[f"offset {off}"] = _kafka(lambda off=off: c.store_offsets(message=Message(topic="t", partition=0, offset=off)))
        out["partition -5"] = _kafka(lambda: c.store_offsets(message=Message(topic="t", partition=-5, offset=1)))
        out["no topic"] = _kafka(lambda: c.store_offsets(message=Message(partition=0, offset=1)))
        out["int topic"] = _kafka(lambda: c.store_offsets(message=Message(topic=1, partition=0, offset=1)))
        out["positional"] = _kafka(lambda: c.store_offsets(Message(topic="t", partition=0, offset=1)))
        out["with KafkaError"] = _error_text(lambda: c.store_offsets(
            message=Message(topic="t", partition=0, offset=1, error=KafkaError(1))))
        return out
    finally:
        c.close()


def scenario_store_offsets_arguments() -> Any:
    c = _consumer()
    m = Message(topic="t", partition=0, offset=1)
    try:
        return {
            "both": _kafka(lambda: c.store_offsets(message=m, offsets=[TopicPartition("t", 0, 1)])),
            "neither": _kafka(c.store_offsets),
            "message None": _kafka(lambda: c.store_offsets(message=None)),
            "offsets None": _kafka(lambda: c.store_offsets(offsets=None)),
            "empty list": _kafka(lambda: c.store_offsets(offsets=[])),
            "offsets int": _kafka(lambda: c.store_offsets(offsets=5)),
            "offsets str": _kafka(lambda: c.store_offsets(offsets="t")),
            "offsets item int": _kafka(lambda: c.store_offsets(offsets=[1])),
            "offsets item after good": _kafka(lambda: c.store_offsets(offsets=[TopicPartition("t", 0, 1), "x"])),
            "message int": _kafka(lambda: c.store_offsets(message=5)),
            "message TopicPartition": _kafka(lambda: c.store_offsets(message=TopicPartition("t", 0, 1))),
            "unassigned partition": _kafka(lambda: c.store_offsets(offsets=[TopicPartition("t", 0, 1, "md")])),
        }
    finally:
        c.close()


def scenario_commit_from_message() -> Any:
    """Asynchronous commits return at once; a synchronous one of an invalid offset fails at once
    (no offset to commit) without waiting for the unreachable coordinator."""
    c = _consumer()
    try:
        out = {}
        for off in (-1, -2, -1001, 5):
            out[f"async offset {off}"] = _kafka(lambda off=off: c.commit(message=Message(topic="t", partition=0, offset=off)))
        for off in (-1, -2, -1001):
            out[f"sync offset {off}"] = _kafka(lambda off=off: c.commit(
                message=Message(topic="t", partition=0, offset=off), asynchronous=False))
        out["with KafkaError"] = _error_text(lambda: c.commit(
            message=Message(topic="t", partition=0, offset=1, error=KafkaError(KafkaError._MSG_TIMED_OUT))))
        out["positional"] = _kafka(lambda: c.commit(Message(topic="t", partition=0, offset=1)))
        return out
    finally:
        c.close()


def scenario_commit_arguments() -> Any:
    c = _consumer()
    m = Message(topic="t", partition=0, offset=1)
    try:
        return {
            "both": _kafka(lambda: c.commit(message=m, offsets=[TopicPartition("t", 0, 1)])),
            "neither async": _kafka(c.commit),
            "neither sync": _kafka(lambda: c.commit(asynchronous=False)),
            "empty list async": _kafka(lambda: c.commit(offsets=[])),
            "empty list sync": _kafka(lambda: c.commit(offsets=[], asynchronous=False)),
            "message None": _kafka(lambda: c.commit(message=None)),
            "offsets None": _kafka(lambda: c.commit(offsets=None)),
            "offsets int": _kafka(lambda: c.commit(offsets=5)),
            "offsets item int": _kafka(lambda: c.commit(offsets=[1])),
            "message int": _kafka(lambda: c.commit(message=5)),
            "asynchronous str": _kafka(lambda: c.commit(offsets=[TopicPartition("t", 0, 1)], asynchronous="x")),
        }
    finally:
        c.close()


def scenario_commit_message_subclass() -> Any:
    """A Message subclass (upstream: TypeError, it wants exactly Message)."""
    c = _consumer()
    try:
        return {"commit": _kafka(lambda: c.commit(message=Plain(topic="t", partition=0, offset=1))),
                "store": _kafka(lambda: c.store_offsets(message=Plain(topic="t", partition=0, offset=1)))}
    finally:
        c.close()
