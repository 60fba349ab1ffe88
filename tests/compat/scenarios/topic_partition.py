"""TopicPartition: constructor (positional and keyword), validation, attributes and which of them
are writable, repr/str, equality, hashing, ordering, subclasses and re-initialisation."""
from __future__ import annotations

import warnings
from typing import Any, Callable

from confluent_kafka import KafkaError, TopicPartition

from observe import data, outcome, raised

ATTRS = ("topic", "partition", "offset", "metadata", "leader_epoch", "error")


def attrs(tp: Any) -> dict[str, Any]:
    return {name: outcome(getattr, tp, name) for name in ATTRS}


def made(*args: Any, **kwargs: Any) -> Any:
    try:
        tp = TopicPartition(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        return raised(exc)
    return {**attrs(tp), "repr": repr(tp), "str": str(tp)}


def scenario_constructor() -> Any:
    return {
        "topic only": made("t"),
        "positional": made("t", 1, 2, "md", 3),
        "keywords": made(topic="t", partition=1, offset=2, metadata="md", leader_epoch=3),
        "mixed": made("t", 4, offset=-2, leader_epoch=0, metadata=""),
        "empty topic": made(""),
        "unicode topic": made("\u00e9v\u00e9nements"),
        "negative partition": made("t", -5),
        "negative offset": made("t", 0, -5),
        "logical offsets": [made("t", 0, off)["offset"] for off in (-1, -2, -1000, -1001)],
        "epoch -1": made("t", 0, 0, "m", -1),
        "epoch -7": made("t", 0, 0, "m", -7),
        "bool partition": made("t", True),
        "limits": [made("t", 2**31 - 1, 2**63 - 1), made("t", -2**31, -2**63)],
    }


def scenario_constructor_errors() -> Any:
    return {label: made(*a, **k) for label, a, k in (
        ("nothing", (), {}),
        ("topic int", (5,), {}),
        ("topic None", (None,), {}),
        ("topic bytes", (b"t",), {}),
        ("topic keyword int", (), {"topic": 5}),
        ("topic NUL", ("a\0b",), {}),
        ("topic surrogate", ("\udc80",), {}),
        ("partition str", ("t", "x"), {}),
        ("partition None", ("t", None), {}),
        ("partition float", ("t", 1.5), {}),
        ("partition 2**31", ("t", 2**31), {}),
        ("partition -2**31-1", ("t", -2**31 - 1), {}),
        ("offset None", ("t", 0, None), {}),
        ("offset str", ("t", 0, "x"), {}),
        ("offset float", ("t", 0, 1.0), {}),
        ("offset 2**63", ("t", 0, 2**63), {}),
        ("metadata int", ("t", 0, 0, 5), {}),
        ("metadata bytes", ("t", 0, 0, b"md"), {}),
        ("metadata keyword int", ("t",), {"metadata": 5}),
        ("metadata NUL", ("t", 0, 0, "a\0b"), {}),
        ("epoch str", ("t", 0, 0, "m", "x"), {}),
        ("epoch float", ("t", 0, 0, "m", 1.5), {}),
        ("epoch 2**31", ("t", 0, 0, "m", 2**31), {}),
        ("unknown keyword", ("t",), {"bogus": 1}),
        ("six positional", ("t", 0, 0, "m", 1, 2), {}),
        ("topic twice", ("t",), {"topic": "u"}),
    )}


def scenario_none_arguments() -> Any:
    """metadata=None and leader_epoch=None, the documented defaults (upstream's parser refuses
    them when given explicitly)."""
    return {"metadata None": made("t", 0, 0, None), "leader_epoch None": made("t", 0, 0, "m", None),
            "both by keyword": made("t", metadata=None, leader_epoch=None)}


def _set(tp: Any, name: str, value: Any) -> Any:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = outcome(setattr, tp, name, value)
    return {"result": res, "warnings": [f"{w.category.__name__}: {w.message}" for w in caught], "after": attrs(tp)}


def scenario_attribute_assignment() -> Any:
    out = {}
    for name, values in (("topic", ["x", 5, None]), ("partition", [5, -5, True, 2**31, "x", None, 1.5]),
                         ("offset", [5, -5, 2**63 - 1, 2**63, "x", None, 1.5]), ("metadata", ["m", None, 5]),
                         ("leader_epoch", [5, None, -1, "x"]), ("error", [KafkaError(1), None, "x"])):
        for v in values:
            out[f"{name}={v!r}"] = _set(TopicPartition("t", 1, 2, "md", 3), name, v)
        out[f"del {name}"] = outcome(delattr, TopicPartition("t", 1, 2, "md", 3), name)
    # The type's name in this text is its qualified name here, "cimpl.TopicPartition" upstream.
    out["new attribute"] = outcome(setattr, TopicPartition("t"), "foo", 1)["raises"]
    return out


def scenario_repr_str() -> Any:
    return {label: [repr(tp), str(tp), f"{tp}", format(tp, "")] for label, tp in (
        ("default", TopicPartition("t")), ("full", TopicPartition("orders", 3, 17, "meta", 5)),
        ("epoch 0", TopicPartition("t", 0, 0, "m", 0)), ("logical", TopicPartition("t", 0, -2)),
        ("quote", TopicPartition('a"b', 1)))}


def _rel(a: Callable[[], Any], b: Callable[[], Any]) -> Any:
    def rel() -> Any:
        x, y = a(), b()
        return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y,
                "hash equal": hash(x) == hash(y)}
    return outcome(rel)


def scenario_equality_and_order() -> Any:
    T = TopicPartition
    return {
        "same": _rel(lambda: T("t", 1), lambda: T("t", 1)),
        "offset differs": _rel(lambda: T("t", 1, 5), lambda: T("t", 1, 6)),
        "metadata and epoch differ": _rel(lambda: T("t", 1, 5, "a", 1), lambda: T("t", 1, 5, "b", 2)),
        "partition differs": _rel(lambda: T("t", 1), lambda: T("t", 2)),
        "topic differs": _rel(lambda: T("a", 9), lambda: T("b", 0)),
        "case": _rel(lambda: T("a", 1), lambda: T("A", 1)),
        "prefix": _rel(lambda: T("ab", 1), lambda: T("a", 1)),
        "unicode": _rel(lambda: T("\u00e9", 1), lambda: T("z", 1)),
        "negative partition": _rel(lambda: T("t", -1), lambda: T("t", 0)),
    }


def scenario_sorting_and_containers() -> Any:
    T = TopicPartition
    tps = [T("b", 0), T("a", 2, 7), T("a", 0), T("b", -1), T("a", 10), T("\u00e9", 1), T("A", 3), T("a", 2, 1)]
    return {
        "sorted": [(tp.topic, tp.partition, tp.offset) for tp in sorted(tps)],
        "reverse": [(tp.topic, tp.partition) for tp in sorted(tps, reverse=True)],
        "min max": [(min(tps).topic, min(tps).partition), (max(tps).topic, max(tps).partition)],
        "set size": len(set(tps)),
        "dict lookup": {T("a", 2, 99): "x"}[T("a", 2)],
        "in": T("a", 10, 5) in tps,
        "index": tps.index(T("a", 0, 123)),
        "list.sort stable": [(tp.topic, tp.partition, tp.offset) for tp in sorted([T("a", 2, 7), T("a", 2, 1)])],
    }


def scenario_hash() -> Any:
    T = TopicPartition
    return {
        "xor of topic hash and partition": [hash(T(t, p)) == hash(t) ^ p for t, p in (("t", 1), ("t", 0), ("", 5), ("x", -1), ("y", 2**31 - 1))],
        "ignores offset, metadata, epoch": hash(T("t", 1)) == hash(T("t", 1, 5, "m", 4)),
        "differs by partition": hash(T("t", 1)) != hash(T("t", 2)),
    }


class Sub(TopicPartition):
    def __init__(self, topic: str, partition: int = 0, *, note: str = "") -> None:
        super().__init__(topic, partition, 5)
        self.note = note


class Plain(TopicPartition):
    pass


def scenario_subclass() -> Any:
    s = Sub("x", 3, note="n")
    return {"attrs": attrs(s), "note": s.note, "repr": repr(s), "plain": attrs(Plain("p", 1, 2, "m", 3)),
            "plain repr": repr(Plain("p", 1)), "isinstance": isinstance(s, TopicPartition),
            "sub vs sub": _rel(lambda: Sub("x", 1), lambda: Sub("x", 2)),
            "bad args": outcome(Plain, 5)}


def scenario_new_without_init() -> Any:
    # repr/str/hash/compare of such an object crash upstream: only its attributes are compared.
    return attrs(TopicPartition.__new__(TopicPartition))


def scenario_reinit() -> Any:
    tp = TopicPartition("a", 1, 5, "m", 3)
    tp.__init__("b", 2)
    failed = TopicPartition("a", 1, 5, "m", 3)
    return {"again": attrs(tp), "failed": outcome(lambda: failed.__init__(5)), "after failed": attrs(failed)}


def scenario_public_names() -> Any:
    return sorted(n for n in dir(TopicPartition) if not n.startswith("_"))


def scenario_compare_other_types() -> Any:
    """Comparing with something that is not a TopicPartition (upstream: NotImplementedError,
    also against a subclass)."""
    tp = TopicPartition("t", 1)
    return {
        "== None": outcome(lambda: tp == None),  # noqa: E711
        "!= 5": outcome(lambda: tp != 5),
        "== tuple": outcome(lambda: tp == ("t", 1)),
        "5 == tp": outcome(lambda: 5 == tp),
        "< None": outcome(lambda: tp < None),
        "in mixed list": outcome(lambda: tp in [None, tp]),
        "subclass ==": outcome(lambda: Plain("t", 1) == tp),
        "subclass <": outcome(lambda: Plain("t", 0) < tp),
    }


def scenario_lists_of_partitions() -> Any:
    """A tuple where a list of TopicPartition is expected (upstream: TypeError)."""
    from confluent_kafka import Consumer

    c = Consumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "compat-tp", "log_level": 0})
    try:
        return {"assign tuple": outcome(c.assign, (TopicPartition("t", 0),)),
                "pause tuple": outcome(c.pause, (TopicPartition("t", 0),)),
                "subclass in list": outcome(c.assign, [Plain("t", 0)])}
    finally:
        c.close()


def scenario_list_argument_errors() -> Any:
    from confluent_kafka import Consumer

    c = Consumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "compat-tp", "log_level": 0})
    try:
        out = {}
        for name in ("assign", "incremental_assign", "incremental_unassign", "pause", "resume", "position"):
            fn = getattr(c, name)
            out[name] = [outcome(fn, 5), outcome(fn, "t"), outcome(fn, [5]), outcome(fn, [TopicPartition("t", 0), "x"])]
        out["assign then assignment"] = [outcome(c.assign, [TopicPartition("t", 0, 5, "m", 2)]),
                                         data([(tp.topic, tp.partition, tp.offset, tp.metadata, tp.leader_epoch)
                                               for tp in c.assignment()])]
        return out
    finally:
        c.close()
