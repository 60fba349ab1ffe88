"""Producer.produce_batch() with a list of message dicts, on a producer without brokers: return
counts, what is checked before anything is enqueued (and what that raises), '_error' entries, which
delivery callback each message reports to (messages time out quickly). Without bootstrap servers
no connection error event is queued, so len(producer) counts exactly the messages enqueued."""
from __future__ import annotations

from typing import Any, Callable

from confluent_kafka import KafkaError, Producer

from observe import data, outcome, raised


def _producer(**extra: Any) -> Producer:
    conf = {"log_level": 0, "message.timeout.ms": 100}
    conf.update(extra)
    return Producer(conf)


def _dicts(msgs: list[Any]) -> Any:
    """The message dicts after the call: '_error' by its code name and text, other keys as data."""
    out = []
    for m in msgs:
        if not isinstance(m, dict):
            out.append(data(m))
            continue
        seen = {}
        for k, v in sorted(m.items(), key=lambda kv: str(kv[0])):
            seen[str(k)] = {"code": v.name(), "str": v.str()} if isinstance(v, KafkaError) else (
                "<callable>" if callable(v) else data(v))
        out.append(seen)
    return out


def _batch(p: Producer, msgs: Any, *args: Any, topic: Any = "t", **kwargs: Any) -> Any:
    before = len(p)
    try:
        res: Any = {"ok": data(p.produce_batch(topic, msgs, *args, **kwargs))}
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        res = raised(exc)
    res["enqueued"] = len(p) - before
    if isinstance(msgs, list):
        res["dicts"] = _dicts(msgs)
    return res


def scenario_valid_batches() -> Any:
    p = _producer()
    return {
        "values and keys": _batch(p, [{"value": b"v"}, {"value": b"v2", "key": b"k"}]),
        "str value and key": _batch(p, [{"value": "v\u00e9", "key": "k"}]),
        "no value": _batch(p, [{}]),
        "None value and key": _batch(p, [{"value": None, "key": None}]),
        "empty bytes": _batch(p, [{"value": b"", "key": b""}]),
        "many": _batch(p, [{"value": b"x"}] * 5),
        "empty list": _batch(p, []),
        "unknown keys": _batch(p, [{"value": b"v", "bogus": 1, "_error": "stale"}]),
        "dict subclass": _batch(p, [type("D", (dict,), {})(value=b"x")]),
        "list subclass": _batch(p, type("L", (list,), {})([{"value": b"x"}])),
        "partition None in dict": _batch(p, [{"value": b"v", "partition": None}]),
        "headers None": _batch(p, [{"value": b"v", "headers": None}]),
        "timestamp None": _batch(p, [{"value": b"v", "timestamp": None}]),
        "callback None": _batch(p, [{"value": b"v", "callback": None}]),
        "batch partition": [_batch(p, [{"value": b"v"}], partition=v) for v in (-1, 0, 3, True)],
        "batch partition positional": _batch(p, [{"value": b"v"}], 2),
        "keywords": outcome(lambda: p.produce_batch(topic="t", messages=[{"value": b"v"}])),
        "valid headers": [_batch(p, [{"value": b"v", "headers": h}]) for h in (
            [("a", b"1")], {"a": b"1", "b": None}, [("a", "str"), ("a", None)], [], {}, [(1, b"x")], {1: b"x"})],
    }


def scenario_rejected_batches() -> Any:
    """A bad dict raises before anything is enqueued."""
    p = _producer()
    return {
        "value int": _batch(p, [{"value": 1}]),
        "value list": _batch(p, [{"value": [1]}]),
        "key int": _batch(p, [{"value": b"v", "key": 1}]),
        "partition str": _batch(p, [{"value": b"v", "partition": "x"}]),
        "partition float": _batch(p, [{"value": b"v", "key": b"k", "partition": 1.5}]),
        "bad item after good ones": _batch(p, [{"value": b"v"}, {"value": b"w"}, {"value": 2}]),
        "not a dict": _batch(p, [{"value": b"v"}, b"x"]),
        "None item": _batch(p, [{"value": b"v"}, None]),
        "headers int": _batch(p, [{"value": b"v", "headers": 5}]),
        "headers str": _batch(p, [{"value": b"v", "headers": "str"}]),
        "headers tuple": _batch(p, [{"value": b"v", "headers": (("a", b"1"),)}]),
        "header value int": _batch(p, [{"value": b"v", "headers": [("a", 1)]}]),
        "header not a pair": _batch(p, [{"value": b"v", "headers": [1]}]),
        "header triple": _batch(p, [{"value": b"v", "headers": [("a", b"x", 3)]}]),
        "header list pair": _batch(p, [{"value": b"v", "headers": [["a", b"x"]]}]),
        "header dict value int": _batch(p, [{"value": b"v", "headers": {"a": 1}}]),
        "header bytearray value": _batch(p, [{"value": b"v", "headers": [("a", bytearray(b"x"))]}]),
        "second dict's headers": _batch(p, [{"value": b"v"}, {"value": b"v", "headers": 5}]),
    }


def scenario_batch_arguments() -> Any:
    p = _producer()
    return {
        "topic int": _batch(p, [{"value": b"v"}], topic=5),
        "topic None": _batch(p, [{"value": b"v"}], topic=None),
        "no messages": outcome(lambda: p.produce_batch("t")),
        "no arguments": outcome(p.produce_batch),
        "six positional": outcome(lambda: p.produce_batch("t", [{"value": b"v"}], 0, None, None, 7)),
        "batch partition str": _batch(p, [{"value": b"v"}], partition="x"),
        "batch partition float": _batch(p, [{"value": b"v"}], partition=1.5),
        "batch partition 2**40": _batch(p, [{"value": b"v"}], partition=2**40),
        "batch partition -5": _batch(p, [{"value": b"v"}, {"value": b"w"}], partition=-5),
        "batch partition -2": _batch(p, [{"value": b"v"}], partition=-2),
        "empty topic": _batch(p, [{"value": b"v"}], topic=""),
    }


def scenario_queue_full() -> Any:
    p = _producer(**{"queue.buffering.max.messages": 2})
    msgs = [{"value": b"1"}, {"value": b"2"}, {"value": b"3", "key": b"k"}, {"value": b"4"}]
    first = _batch(p, msgs)
    again = _batch(p, [{"value": b"5"}])
    big = _producer(**{"message.max.bytes": 1000})
    return {"first": first, "again": again,
            "too large": _batch(big, [{"value": b"x" * 2000}, {"value": b"small"}])}


def _tagged(log: list[Any], tag: str) -> Callable[[Any, Any], None]:
    def cb(err: Any, msg: Any) -> None:
        log.append([tag, err.name() if err is not None else None, data(msg.value()), type(msg).__name__])
    return cb


def scenario_delivery_callbacks() -> Any:
    """Which callback each message reports to (they all time out without a broker)."""
    log: list[Any] = []
    p = _producer(on_delivery=_tagged(log, "client"))

    def case(n: int, count: int = 1) -> list[Any]:
        return [{"value": f"{n}-{i}".encode()} for i in range(count)]

    cb = {tag: _tagged(log, tag) for tag in ("od", "cb", "pos4", "pos5", "own", "batch")}
    results = {
        "batch on_delivery": _batch(p, case(1), on_delivery=cb["od"]),
        "batch callback": _batch(p, case(2), callback=cb["cb"]),
        "both keywords": _batch(p, case(3), on_delivery=cb["od"], callback=cb["cb"]),
        "fourth positional": _batch(p, case(4), -1, cb["pos4"]),
        "both positional": _batch(p, case(5), -1, cb["pos4"], cb["pos5"]),
        "per message callback": _batch(p, [{"value": b"6-0", "callback": cb["own"]}, {"value": b"6-1"}],
                                       on_delivery=cb["batch"]),
        "callback None in dict": _batch(p, [{"value": b"7-0", "callback": None}], on_delivery=cb["batch"]),
        "None callbacks": _batch(p, case(8), callback=None, on_delivery=None),
        "client default": _batch(p, case(9, 2)),
    }
    p.flush(30)
    return {"results": results, "reports": sorted(log, key=repr)}


def scenario_dict_extras() -> Any:
    """What this package does beyond upstream with a message dict: an 'on_delivery' key is an alias
    of 'callback' (upstream ignores it), per-message partition and timestamp are used (upstream
    ignores the partition and refuses any timestamp), the batch partition may be None."""
    log: list[Any] = []
    p = _producer()
    res = {
        "on_delivery key": _batch(p, [{"value": b"a", "on_delivery": _tagged(log, "od key")}]),
        "callback and on_delivery keys": _batch(p, [{"value": b"b", "callback": _tagged(log, "cb key"),
                                                     "on_delivery": _tagged(log, "od key")}]),
        "partition beyond the topic": _batch(p, [{"value": b"v", "partition": -5}, {"value": b"w", "partition": 2**40}]),
        "timestamp": _batch(p, [{"value": b"v", "timestamp": 123}]),
        "timestamp str": _batch(p, [{"value": b"v", "timestamp": "x"}]),
        "batch partition None": _batch(p, [{"value": b"v"}], partition=None),
    }
    p.flush(30)
    res["reports"] = sorted(log)
    return res


def scenario_callbacks_not_callable() -> Any:
    """A callback that cannot be called is refused at once (upstream takes it, then raises
    SystemError when the report is served)."""
    p = _producer()
    return {
        "in a dict": _batch(p, [{"value": b"v", "callback": 5}]),
        "batch on_delivery": _batch(p, [{"value": b"v"}], on_delivery=5),
        "batch callback": _batch(p, [{"value": b"v"}], callback=5),
        "callable callback, bad on_delivery": _batch(p, [{"value": b"v"}], callback=print, on_delivery=5),
    }


def _head(res: Any) -> Any:
    """A refusal's type and its text up to where this package's wider wording begins (its texts
    go on in parentheses after upstream's), with how many messages were enqueued."""
    if "raises" in res:
        return {"raises": res["raises"], "head": res["str"].split(" (", 1)[0], "enqueued": res["enqueued"]}
    return res


def scenario_bad_messages_text() -> Any:
    """What upstream refuses with 'messages must be a list' or 'Message at index 0 must be a dict':
    the texts begin the same here (this package then names the forms it also takes)."""
    p = _producer()
    cases: dict[str, Any] = {"str": "abc", "bytes": b"ab", "bytearray": bytearray(b"ab"), "dict": {"value": b"v"},
                             "int": 5, "float": 1.5, "object": object(), "None": None, "tuple of dicts": ({"value": b"v"},),
                             "int item": [1], "list item": [[1]], "float item": [1.5, b"x"], "object item": [object()],
                             "dict then int": [{"value": b"v"}, 1]}
    out = {name: _head(_batch(p, msgs)) for name, msgs in cases.items()}
    by_keyword = outcome(lambda: p.produce_batch("t", messages="abc"))
    out["messages= str"] = _head({**by_keyword, "enqueued": len(p)})
    return out


def scenario_other_forms() -> Any:
    """Other values of messages: this package takes a sequence (or Arrow array) of values as well
    (upstream: 'messages must be a list', or 'Message at index 0 must be a dict')."""
    p = _producer()
    return {"list of bytes": _batch(p, [b"a", b"b"]), "tuple of dicts": _batch(p, ({"value": b"v"},)),
            "None": _batch(p, None), "str": _batch(p, "abc"), "bytearray value": _batch(p, [{"value": bytearray(b"x")}]),
            "generator of values": _batch(p, (v for v in (b"a", None)))}


def scenario_unencodable_text() -> Any:
    """A str value or key that UTF-8 cannot encode: this package raises before enqueuing anything
    (upstream raises too, but after enqueuing the message)."""
    p = _producer()
    return {"value": _batch(p, [{"value": "\udc80"}]), "key": _batch(p, [{"value": b"v"}, {"key": "\udc80"}])}
