"""Module-level helpers and small values of ``confluent_kafka``: the text of a ThrottleEvent (what
a throttle_cb logs), and the partition helpers murmur2/consistent/fnv1a with keys of every kind."""
from __future__ import annotations

from typing import Any

from confluent_kafka import ThrottleEvent, consistent, fnv1a, murmur2

from observe import outcome, text

HELPERS = (murmur2, consistent, fnv1a)


def scenario_throttle_event_text() -> Any:
    """str() of events as librdkafka hands them over, and of odd throttle times."""
    times: dict[str, Any] = {"10 s": 10.0, "0.5 s": 0.5, "1.5 ms": 0.0015, "0.4 ms": 0.0004, "1234.5 ms": 1.2345,
                             "negative": -0.0015, "int": 10, "bool": True, "huge": 1e10, "None": None,
                             "str": "x", "inf": float("inf"), "nan": float("nan")}
    out: dict[str, Any] = {name: text(lambda t=t: ThrottleEvent("127.0.0.1:9092/1", 1, t))
                           for name, t in times.items()}
    ev = ThrottleEvent(broker_name="broker", broker_id=0, throttle_time=10.0)
    out["keywords"] = str(ev)
    out["attributes"] = [ev.broker_name, ev.broker_id, ev.throttle_time]
    out["positional"] = outcome(lambda: [str(ThrottleEvent("b", 2, 0.25))])
    out["missing argument"] = outcome(lambda: ThrottleEvent("b", 2))  # type: ignore[call-arg]
    return out


def scenario_throttle_event_repr_eq() -> Any:
    """repr() names the fields and events compare by value here (upstream: object's default repr,
    equal only to itself)."""
    a, b = ThrottleEvent("b/1", 1, 0.5), ThrottleEvent("b/1", 1, 0.5)
    return {"repr is the default": repr(a).startswith("<"), "equal by value": a == b,
            "hash by value": hash(a) == hash(b), "other value": a == ThrottleEvent("b/1", 1, 0.25)}


def scenario_partitioner_keys() -> Any:
    """Keys upstream takes (bytes) and refuses (str, None, others), and partition counts."""
    keys: dict[str, Any] = {"bytes": b"user-42", "empty": b"", "str": "user-42", "empty str": "", "None": None,
                            "int": 5, "list": [b"a"], "bytes subclass": type("B", (bytes,), {})(b"user-42")}
    counts: dict[str, Any] = {"1": 1, "7": 7, "0": 0, "-1": -1, "str": "3", "float": 3.0, "2**40": 2 ** 40,
                              "bool": True}
    out: dict[str, Any] = {}
    for fn in HELPERS:
        out[fn.__name__] = {
            "keys": {name: outcome(fn, key, 1000) for name, key in keys.items()},
            "counts": {name: outcome(fn, b"k", n) for name, n in counts.items()},
            "str key and bad count": outcome(fn, "k", "3"),
        }
    return out


def scenario_partitioner_buffer_keys() -> Any:
    """Any bytes-like key is taken here, as produce() takes it (upstream: bytes only)."""
    keys: dict[str, Any] = {"bytearray": bytearray(b"user-42"), "memoryview": memoryview(b"user-42")}
    return {fn.__name__: {name: outcome(fn, key, 1000) for name, key in keys.items()} for fn in HELPERS}
