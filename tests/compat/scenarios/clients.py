"""Producer and Consumer lifecycles and failures as upstream shows them: closed clients,
subclasses whose __init__ never ran, context managers, re-initialisation, the text of each
failing call against an unreachable broker (127.0.0.1:1), timeouts and num_messages, and the
arguments callbacks receive. Every wait is short and bounded."""
from __future__ import annotations

import json
import re
import time
from typing import Any, Callable

from observe import data, outcome, raised

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition

B = {"bootstrap.servers": "127.0.0.1:1", "log_level": 0}
G = {**B, "group.id": "g", "socket.timeout.ms": 100}
TP = TopicPartition("t", 0, 5)


def _kafka(exc: BaseException) -> Any:
    """An exception with, when it carries one, its KafkaError's code and text."""
    seen = raised(exc)
    err = exc.args[0] if exc.args else None
    if isinstance(err, KafkaError):
        seen["code"] = err.name()
        seen["text"] = err.str()
    return seen


def _call(fn: Callable[[], Any]) -> Any:
    try:
        return {"ok": data(fn())}
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        return _kafka(exc)


def _network(fn: Callable[[], Any]) -> Any:
    """A call whose error code depends on how far the connection attempts got: the text with the
    code's own description cut off (the prefix each call adds), and whether what follows the
    prefix is exactly that description."""
    try:
        return {"ok": data(fn())}
    except Exception as exc:  # noqa: BLE001
        err = exc.args[0] if exc.args else None
        if not isinstance(err, KafkaError):
            return raised(exc)
        text, desc = err.str(), KafkaError(err.code()).str()
        prefix, _, rest = text.partition(": ")
        return {"raises": type(exc).__name__, "prefix": prefix,
                "then the code's description": rest.startswith(desc),
                "code is a connection failure": err.code() in (KafkaError._TIMED_OUT, KafkaError._TRANSPORT,
                                                               KafkaError._ALL_BROKERS_DOWN, KafkaError._WAIT_COORD)}


PRODUCER_CALLS: dict[str, Callable[[Any], Any]] = {
    "produce": lambda p: p.produce("t", b"v"),
    "produce_batch": lambda p: p.produce_batch("t", [{"value": b"v"}]),
    "poll": lambda p: p.poll(0),
    "flush": lambda p: p.flush(0),
    "purge": lambda p: p.purge(),
    "list_topics": lambda p: p.list_topics(timeout=0.1),
    "cluster_id": lambda p: p.cluster_id(timeout=0.1),
    "init_transactions": lambda p: p.init_transactions(0.1),
    "begin_transaction": lambda p: p.begin_transaction(),
    "commit_transaction": lambda p: p.commit_transaction(0.1),
    "abort_transaction": lambda p: p.abort_transaction(0.1),
    "send_offsets_to_transaction": lambda p: p.send_offsets_to_transaction([TP], b"x", 0.1),
    "set_sasl_credentials": lambda p: p.set_sasl_credentials("u", "p"),
    "len": lambda p: len(p),
    "bool": lambda p: bool(p),
    "__enter__ is self": lambda p: p.__enter__() is p,
    "__exit__": lambda p: p.__exit__(None, None, None),
    "close": lambda p: p.close(),
    "close again": lambda p: p.close(),
}

CONSUMER_CALLS: dict[str, Callable[[Any], Any]] = {
    "subscribe": lambda c: c.subscribe(["t"]),
    "unsubscribe": lambda c: c.unsubscribe(),
    "assign": lambda c: c.assign([TP]),
    "unassign": lambda c: c.unassign(),
    "assignment": lambda c: c.assignment(),
    "incremental_assign": lambda c: c.incremental_assign([TP]),
    "incremental_unassign": lambda c: c.incremental_unassign([TP]),
    "poll": lambda c: c.poll(0),
    "consume": lambda c: c.consume(1, 0),
    "consume(0)": lambda c: c.consume(0, 0),
    "commit": lambda c: c.commit(),
    "commit offsets": lambda c: c.commit(offsets=[TP]),
    "committed": lambda c: c.committed([TP], timeout=0.1),
    "position": lambda c: c.position([TP]),
    "seek": lambda c: c.seek(TP),
    "pause": lambda c: c.pause([TP]),
    "resume": lambda c: c.resume([TP]),
    "get_watermark_offsets": lambda c: c.get_watermark_offsets(TP, timeout=0.1),
    "offsets_for_times": lambda c: c.offsets_for_times([TP], timeout=0.1),
    "store_offsets": lambda c: c.store_offsets(offsets=[TP]),
    "consumer_group_metadata": lambda c: c.consumer_group_metadata(),
    "memberid": lambda c: c.memberid(),
    "list_topics": lambda c: c.list_topics(timeout=0.1),
    "cluster_id": lambda c: c.cluster_id(timeout=0.1),
    "set_sasl_credentials": lambda c: c.set_sasl_credentials("u", "p"),
    "bool": lambda c: bool(c),
    "__enter__ is self": lambda c: c.__enter__() is c,
    "__exit__": lambda c: c.__exit__(None, None, None),
    "close": lambda c: c.close(),
    "close again": lambda c: c.close(),
}


def _every(client: Any, calls: dict[str, Callable[[Any], Any]]) -> Any:
    return {name: _call(lambda fn=fn: fn(client)) for name, fn in calls.items()}


def scenario_closed_producer() -> Any:
    p = Producer(B)
    closed = _call(p.close)
    return {"close": closed, "then": _every(p, PRODUCER_CALLS)}


def scenario_closed_consumer() -> Any:
    c = Consumer(G)
    closed = _call(c.close)
    return {"close": closed, "then": _every(c, CONSUMER_CALLS)}


class _ProxiedProducer(Producer):
    """Like OpenTelemetry's ProxiedProducer: wraps another producer, never calls super().__init__."""

    def __init__(self, producer: Any) -> None:
        self._producer = producer


class _ProxiedConsumer(Consumer):
    def __init__(self, consumer: Any) -> None:
        self._consumer = consumer


def scenario_uninitialised_producer_subclass() -> Any:
    return _every(_ProxiedProducer(None), PRODUCER_CALLS)


def scenario_uninitialised_consumer_subclass() -> Any:
    return _every(_ProxiedConsumer(None), CONSUMER_CALLS)


def scenario_bare_new() -> Any:
    """Objects made by __new__ alone behave like the uninitialised subclasses."""
    p = Producer.__new__(Producer)
    c = Consumer.__new__(Consumer)
    return {"producer poll": _call(lambda: p.poll(0)), "producer len": _call(lambda: len(p)),
            "consumer poll": _call(lambda: c.poll(0)), "consumer close": _call(c.close),
            "producer close": _call(p.close)}


def scenario_context_managers() -> Any:
    out: dict[str, Any] = {}
    with Producer(B) as p:
        out["producer in with"] = _call(lambda: type(p.poll(0)).__name__)
    out["producer after with"] = _call(lambda: p.poll(0))
    out["producer len after with"] = _call(lambda: len(p))
    with Consumer(G) as c:
        out["consumer in with"] = _call(lambda: c.poll(0))
    out["consumer after with"] = _call(lambda: c.poll(0))
    try:
        with Producer(B):
            raise ValueError("inside")
    except ValueError as exc:
        out["exception from the block"] = raised(exc)
    p2 = Producer(B)
    out["producer __exit__ with an exception"] = _call(lambda: p2.__exit__(ValueError, ValueError("x"), None))
    c2 = Consumer(G)
    out["consumer __exit__ with an exception"] = _call(lambda: c2.__exit__(ValueError, ValueError("x"), None))
    return out


def scenario_reinitialise() -> Any:
    """__init__ on a live client is refused. (Upstream also lets a closed client be initialised
    again, but its close() then hangs, so that is left out here.)"""
    p = Producer(B)
    live = _call(lambda: p.__init__(B))
    p.close()
    c = Consumer(G)
    clive = _call(lambda: c.__init__(G))
    c.close()
    return {"producer live": live, "consumer live": clive}


def scenario_failed_init_leaves_a_closed_client() -> Any:
    class P(Producer):
        pass

    p = P.__new__(P)
    init = _call(lambda: p.__init__({**B, "acks": "bogus"}))
    return {"init": init, "poll": _call(lambda: p.poll(0)), "len": _call(lambda: len(p)),
            "close": _call(p.close)}


def scenario_producer_timeouts() -> Any:
    p = Producer(B)
    out = {}
    for label, value in [("0", 0), ("0.0", 0.0), ("small", 0.01), ("negative float on flush", -0.5),
                         ("True", True), ("str", "1"), ("bytes", b"1"), ("list", []), ("object", object())]:
        if label.startswith("negative"):
            out[f"flush {label}"] = _call(lambda v=value: p.flush(v))
            continue
        out[f"poll {label}"] = _call(lambda v=value: type(p.poll(v)).__name__)
        out[f"flush {label}"] = _call(lambda v=value: p.flush(v))
    out["poll keyword"] = _call(lambda: type(p.poll(timeout=0)).__name__)
    out["poll two arguments"] = _call(lambda: p.poll(0, 1))
    out["poll unknown keyword"] = _call(lambda: p.poll(tmout=0))
    out["poll timeout twice"] = _call(lambda: p.poll(0, timeout=0))
    out["flush two arguments"] = _call(lambda: p.flush(0, 1))
    out["flush unknown keyword"] = _call(lambda: p.flush(tmout=0))
    p.close()
    return out


def scenario_timeout_none() -> Any:
    """timeout=None means "wait forever" here (as in kafka-python); upstream refuses it."""
    p = Producer(B)
    c = Consumer(G)
    try:
        return {"producer flush(None)": _call(lambda: p.flush(None)),
                "consumer consume(0, None)": _call(lambda: c.consume(0, None))}
    finally:
        p.close()
        c.close()


def scenario_consumer_timeouts_and_counts() -> Any:
    c = Consumer(G)
    out = {}
    for label, value in [("0", 0), ("small", 0.01), ("str", "1"), ("object", object())]:
        out[f"poll {label}"] = _call(lambda v=value: c.poll(v))
        out[f"consume timeout {label}"] = _call(lambda v=value: c.consume(1, v))
    for label, n in [("0", 0), ("1", 1), ("-1", -1), ("1000000", 1000000), ("1000001", 1000001), ("str", "1"),
                     ("None", None), ("float", 1.5), ("True", True), ("2**32", 2**32), ("2**70", 2**70)]:
        out[f"consume {label}"] = _call(lambda n=n: c.consume(n, 0))
    out["consume(num_messages=0)"] = _call(lambda: c.consume(num_messages=0))
    out["consume(num_messages=0) with the default timeout"] = _call(lambda: c.consume(0))
    out["consume three arguments"] = _call(lambda: c.consume(1, 0, 3))
    out["consume unknown keyword"] = _call(lambda: c.consume(n=1))
    out["poll unknown keyword"] = _call(lambda: c.poll(x=1))
    out["poll two arguments"] = _call(lambda: c.poll(0, 1))
    out["close with an argument"] = _call(lambda: c.close(1))
    out["committed timeout str"] = _call(lambda: c.committed([TP], "x"))
    out["get_watermark_offsets timeout str"] = _call(lambda: c.get_watermark_offsets(TP, "x"))
    out["get_watermark_offsets cached str"] = _call(lambda: c.get_watermark_offsets(TP, cached="x"))
    out["get_watermark_offsets cached 1"] = _call(lambda: c.get_watermark_offsets(TP, cached=1))
    out["cluster_id timeout str"] = _call(lambda: c.cluster_id(timeout="x"))
    out["list_topics timeout str"] = _call(lambda: c.list_topics(timeout="x"))
    c.close()
    return out


def scenario_consumer_failures() -> Any:
    """The failing calls with a deterministic result, and the text each one gives."""
    c = Consumer(G)
    try:
        out = {
            "seek unassigned": _call(lambda: c.seek(TP)),
            "seek logical offset": _call(lambda: c.seek(TopicPartition("t", 0, -2))),
            "commit sync, nothing stored": _call(lambda: c.commit(asynchronous=False)),
            "commit async, nothing stored": _call(lambda: c.commit()),
            "store_offsets unassigned": _call(lambda: c.store_offsets(offsets=[TP])),
            "subscribe bad regex": _call(lambda: c.subscribe(["^["])),
            "position unassigned": _call(lambda: c.position([TP])),
            "pause unassigned": _call(lambda: c.pause([TopicPartition("x", 3)])),
            "resume unassigned": _call(lambda: c.resume([TopicPartition("x", 3)])),
            "cached watermarks": _call(lambda: c.get_watermark_offsets(TP, cached=True)),
            "unsubscribe without subscription": _call(c.unsubscribe),
            "unassign without assignment": _call(c.unassign),
            "incremental_unassign not assigned": _call(lambda: c.incremental_unassign([TopicPartition("zz", 1)])),
            "memberid": _call(c.memberid),
        }
        out["assign"] = _call(lambda: c.assign([TP]))
        out["assignment"] = _call(c.assignment)
        out["incremental_assign already assigned"] = _call(lambda: c.incremental_assign([TP]))
        out["pause assigned"] = _call(lambda: c.pause([TP]))
        out["pause assigned and not"] = _call(lambda: c.pause([TP, TopicPartition("x", 3)]))
        out["resume assigned"] = _call(lambda: c.resume([TP]))
        out["store_offsets assigned"] = _call(lambda: c.store_offsets(offsets=[TP]))
        out["store_offsets assigned and not"] = _call(lambda: c.store_offsets(offsets=[TP, TopicPartition("x", 3, 1)]))
        out["seek assigned"] = _call(lambda: c.seek(TP))
        out["commit an error message"] = _call(lambda: c.commit(message=Message(
            "t", 0, 1, error=KafkaError(KafkaError._FAIL, "bad"))))
        out["store an error message"] = _call(lambda: c.store_offsets(message=Message(
            "t", 0, 1, error=KafkaError(KafkaError._FAIL, "bad"))))
        out["commit message and offsets"] = _call(lambda: c.commit(message=Message("t", 0, 1), offsets=[TP]))
        out["store_offsets with nothing"] = _call(c.store_offsets)
        out["unassign"] = _call(c.unassign)
        return out
    finally:
        c.close()


def scenario_consumer_network_failures() -> Any:
    """Calls that fail for want of a broker: the prefix each one puts before the code's text."""
    c = Consumer(G)
    try:
        return {
            "committed": _network(lambda: c.committed([TP], timeout=0.3)),
            "offsets_for_times": _network(lambda: c.offsets_for_times([TP], timeout=0.3)),
            "get_watermark_offsets": _network(lambda: c.get_watermark_offsets(TP, timeout=0.3)),
            "list_topics": _network(lambda: c.list_topics(timeout=0.3)),
            "list_topics of a topic": _network(lambda: c.list_topics("t", timeout=0.3)),
            "cluster_id": _network(lambda: c.cluster_id(timeout=0.3)),
        }
    finally:
        c.close()


def scenario_cluster_id_text() -> Any:
    """cluster_id() adds a note about KIP-78 after the code's text."""
    p = Producer(B)
    try:
        try:
            p.cluster_id(timeout=0.2)
            return {"ok": True}
        except KafkaException as exc:
            err = exc.args[0]
            return {"raises": type(exc).__name__,
                    "text without the code's description": err.str().replace(KafkaError(err.code()).str(), "<desc>"),
                    "str is the error's": str(exc) == str(err)}
    finally:
        p.close()


def scenario_producer_failures() -> Any:
    p = Producer({**B, "message.max.bytes": 1000})
    tx = Producer({**B, "transactional.id": "x"})
    try:
        return {
            "produce too large": _call(lambda: p.produce("t", b"x" * 5000)),
            "init_transactions not transactional": _call(lambda: p.init_transactions(0.1)),
            "begin_transaction not transactional": _call(p.begin_transaction),
            "commit_transaction not transactional": _call(lambda: p.commit_transaction(0.1)),
            "abort_transaction not transactional": _call(lambda: p.abort_transaction(0.1)),
            "send_offsets bad metadata": _call(lambda: p.send_offsets_to_transaction([TP], b"xx", 0.1)),
            "transactional begin before init": _call(tx.begin_transaction),
            "transactional init timeout": _call(lambda: tx.init_transactions(0.2)),
            "transactional begin during init": _call(tx.begin_transaction),
            "purge": _call(p.purge),
            "flush empty": _call(lambda: p.flush(0)),
            "len empty": _call(lambda: len(p)),
            "set_sasl_credentials": _call(lambda: p.set_sasl_credentials("u", "p")),
        }
    finally:
        p.close()
        tx.close()


def scenario_cluster_id_and_dir() -> Any:
    return {"producer has cluster_id": hasattr(Producer, "cluster_id"),
            "consumer has cluster_id": hasattr(Consumer, "cluster_id"),
            "producer cluster_id doc": bool(getattr(Producer, "cluster_id", None).__doc__)
            if hasattr(Producer, "cluster_id") else None}


def scenario_callback_arguments() -> Any:
    """What error_cb and stats_cb are called with (an unreachable broker gives errors at once)."""
    errors: list[tuple[Any, ...]] = []
    stats: list[tuple[Any, ...]] = []
    p = Producer({**B, "error_cb": lambda *a: errors.append(a), "stats_cb": lambda *a: stats.append(a),
                  "statistics.interval.ms": 100})
    deadline = time.monotonic() + 5
    while (not errors or not stats) and time.monotonic() < deadline:
        p.poll(0.1)
    p.close()
    first_error = errors[0] if errors else ()
    first_stats = stats[0] if stats else ()
    err = first_error[0] if first_error else None
    parsed = json.loads(first_stats[0]) if first_stats and isinstance(first_stats[0], str) else {}
    return {
        "error_cb argument count": len(first_error),
        "error_cb argument type": type(err).__name__,
        "error codes seen": sorted({e[0].name() for e in errors if isinstance(e[0], KafkaError)} &
                                   {"_TRANSPORT", "_ALL_BROKERS_DOWN"}),
        "error text form": bool(re.fullmatch(r'KafkaError\{code=_[A-Z_]+,val=-\d+,str=".*"\}', str(err), re.S)),
        "error flags": [err.fatal(), err.retriable(), err.txn_requires_abort()] if err is not None else None,
        "stats_cb argument count": len(first_stats),
        "stats_cb argument type": type(first_stats[0]).__name__ if first_stats else None,
        "stats json type": parsed.get("type"),
    }


def scenario_error_cb_raises() -> Any:
    """An exception raised by error_cb comes out of the poll() that served it."""
    def boom(err: Any) -> None:
        raise RuntimeError("from error_cb")

    p = Producer({**B, "error_cb": boom})
    try:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                p.poll(0.1)
            except Exception as exc:  # noqa: BLE001
                return raised(exc)
        return "no error served"
    finally:
        try:
            p.close()
        except Exception:  # noqa: BLE001 - a second report may surface here
            pass


def scenario_timeout_nan() -> Any:
    """A NaN timeout is refused here; upstream turns NaN into whatever C makes of it (undefined)."""
    p = Producer(B)
    try:
        return {"poll": _call(lambda: type(p.poll(float("nan"))).__name__),
                "flush": _call(lambda: p.flush(float("nan")))}
    finally:
        p.close()


def scenario_producer_close_arguments() -> Any:
    """close(timeout) bounds how long close() delivers; upstream's close() ignores any argument."""
    out = {}
    for label, args, kwargs in [("timeout=0", (), {"timeout": 0}), ("positional 0.1", (0.1,), {}),
                                ("str", ("x",), {}), ("two", (1, 2), {}), ("unknown keyword", (), {"tm": 0})]:
        p = Producer(B)
        out[label] = _call(lambda p=p, a=args, k=kwargs: p.close(*a, **k))
        p.close()
    return out


def scenario_send_offsets_to_transaction_arguments() -> Any:
    """Which argument is checked first, and what group metadata is accepted (bytes only)."""
    p = Producer({**B, "transactional.id": "x"})
    out = {}
    for label, args in [("str metadata", ([], "s")), ("int metadata", ([], 5)), ("None metadata", ([], None)),
                        ("bytearray metadata", ([], bytearray(b"x"))), ("memoryview metadata", ([], memoryview(b"x"))),
                        ("bad positions first", (None, "s")), ("bad positions", ("x", b"x")),
                        ("bad timeout first", (None, "s", "t")), ("too few", ([],))]:
        out[label] = _call(lambda a=args: p.send_offsets_to_transaction(*a))
    return out
