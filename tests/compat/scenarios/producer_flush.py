"""flush(): what it serves and what it returns, including reports queued while it serves."""
from __future__ import annotations

from typing import Any

from observe import data, outcome

from confluent_kafka import Producer


def _reports() -> tuple[list[Any], Any]:
    seen: list[Any] = []

    def cb(err: Any, msg: Any) -> None:
        seen.append([err.code() if err is not None else None, msg.value()])

    return seen, cb


def scenario_flush_serves_reports_queued_by_a_delivery_callback() -> Any:
    seen, record = _reports()
    p = Producer({"log_level": 0})

    def cb(err: Any, msg: Any) -> None:
        record(err, msg)
        if msg.value() == b"first":
            p.produce("t", b"second", on_delivery=cb)
            p.purge(in_flight=False)

    p.produce("t", b"first", on_delivery=cb)
    p.purge()
    flushed = outcome(p.flush, 10)
    return {"flush": flushed, "reports": data(seen), "len": len(p)}


def scenario_flush_timeout_returns_what_is_left() -> Any:
    seen, cb = _reports()
    p = Producer({"log_level": 0})
    for i in range(3):
        p.produce("t", str(i).encode(), on_delivery=cb)
    left = [outcome(p.flush, 0), outcome(p.flush, 0.1)]
    p.purge()
    return {"left": left, "after purge": outcome(p.flush, 5), "reports": data(seen)}


def scenario_flush_message_timeout_unreachable_broker() -> Any:
    seen, cb = _reports()
    p = Producer({"bootstrap.servers": "127.0.0.1:1", "message.timeout.ms": 200, "log_level": 0})
    p.produce("t", b"never", b"k", on_delivery=cb)
    return {"flush": outcome(p.flush, 30), "reports": data(seen)}


def scenario_flush_raising_callback_then_rest() -> Any:
    seen, record = _reports()

    def cb(err: Any, msg: Any) -> None:
        record(err, msg)
        if msg.value() == b"1":
            raise ValueError("from the callback")

    p = Producer({"log_level": 0})
    for i in range(3):
        p.produce("t", str(i).encode(), on_delivery=cb)
    p.purge()
    first = outcome(p.flush, 10)
    second = outcome(p.flush, 10)
    return {"first": first, "second": second, "reports": data(seen)}


def scenario_flush_closed_and_empty() -> Any:
    p = Producer({"log_level": 0})
    empty = [outcome(p.flush), outcome(p.flush, 0), outcome(p.flush, timeout=1), outcome(p.flush, -1)]
    p.close()
    return {"empty": empty, "closed": [outcome(p.flush), outcome(p.flush, 0)]}
