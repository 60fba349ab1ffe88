"""Client configuration as upstream takes it: the constructor's arguments, None values, bad keys
and values, the Python-only keys (callbacks, logger, default.topic.config), and the log records
a ``logger`` receives. No broker: every client points at 127.0.0.1:1 and is closed at once."""
from __future__ import annotations

import logging
import re
from typing import Any, Callable

from observe import raised

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer

B = {"bootstrap.servers": "127.0.0.1:1", "log_level": 0}
G = {**B, "group.id": "g"}


def _make(fn: Callable[[], Any]) -> Any:
    """Build a client and close it: its type name, or the exception with its KafkaError."""
    try:
        client = fn()
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        seen = raised(exc)
        err = exc.args[0] if exc.args else None
        if isinstance(err, KafkaError):
            seen["error"] = {"code": err.code(), "name": err.name(), "str": err.str(), "fatal": err.fatal()}
        seen["is KafkaException"] = isinstance(exc, KafkaException)
        return seen
    client.close()
    return {"made": type(client).__name__}


def _cases(cases: dict[str, Callable[[], Any]]) -> Any:
    return {name: _make(fn) for name, fn in cases.items()}


def _noop(*_: Any) -> None:
    return None


def scenario_constructor_arguments() -> Any:
    class D(dict):  # type: ignore[type-arg]
        pass

    return _cases({
        "Producer()": lambda: Producer(),
        "Producer(None)": lambda: Producer(None),
        "Producer({})": lambda: Producer({}),
        "Producer(**{})": lambda: Producer(**{}),
        "Producer(kwargs only)": lambda: Producer(**B),
        "Producer(None, kwargs)": lambda: Producer(None, **B),
        "Producer(list)": lambda: Producer([("a", "b")]),
        "Producer(str)": lambda: Producer("bootstrap.servers=x"),
        "Producer(two dicts)": lambda: Producer(B, {}),
        "Producer(conf=dict)": lambda: Producer(conf=B),
        "Producer(dict subclass)": lambda: Producer(D(B)),
        "Producer(dict, kwargs)": lambda: Producer(B, **{"client.id": "x"}),
        "Consumer()": lambda: Consumer(),
        "Consumer(None)": lambda: Consumer(None),
        "Consumer(None, kwargs)": lambda: Consumer(None, **{"group.id": "g"}),
        "Consumer(list)": lambda: Consumer([]),
        "Consumer(two dicts)": lambda: Consumer({}, {}),
        "Consumer(conf=dict)": lambda: Consumer(conf=G),
        "Consumer without group.id": lambda: Consumer(B),
        "Consumer({})": lambda: Consumer({}),
        "Consumer(kwargs only)": lambda: Consumer(**G),
        "Consumer(dict, kwargs)": lambda: Consumer(B, **{"group.id": "g"}),
        "Consumer group.id int": lambda: Consumer({**B, "group.id": 5}),
        "kwargs win over the dict": lambda: Producer({**B, "acks": "all"}, **{"acks": "banana"}),
    })


def scenario_none_values() -> Any:
    """``os.getenv`` results passed straight in: None unsets a librdkafka property."""
    cases: dict[str, Callable[[], Any]] = {
        f"{key}=None": (lambda key=key: Producer({**B, key: None}))
        for key in ["client.id", "bootstrap.servers", "acks", "linger.ms", "enable.idempotence",
                    "compression.type", "security.protocol", "debug", "statistics.interval.ms", "partitioner",
                    "sasl.username", "sasl.password", "ssl.key.password", "plugin.library.paths",
                    "message.timeout.ms", "transactional.id"]
    }
    cases.update({
        "kwarg None": lambda: Producer(B, **{"client.id": None}),
        "consumer auto.offset.reset=None": lambda: Consumer({**G, "auto.offset.reset": None}),
        "consumer group.instance.id=None": lambda: Consumer({**G, "group.instance.id": None}),
        "consumer enable.auto.commit=None": lambda: Consumer({**G, "enable.auto.commit": None}),
        "default.topic.config acks=None": lambda: Producer({**B, "default.topic.config": {"acks": None}}),
    })
    return _cases(cases)


def scenario_python_keys_none() -> Any:
    return _cases({
        "error_cb=None": lambda: Producer({**B, "error_cb": None}),
        "throttle_cb=None": lambda: Producer({**B, "throttle_cb": None}),
        "stats_cb=None": lambda: Producer({**B, "stats_cb": None}),
        "oauth_cb=None": lambda: Producer({**B, "oauth_cb": None}),
        "logger=None": lambda: Producer({**B, "logger": None}),
        "on_delivery=None": lambda: Producer({**B, "on_delivery": None}),
        "on_commit=None": lambda: Consumer({**G, "on_commit": None}),
        "default.topic.config=None": lambda: Producer({**B, "default.topic.config": None}),
        "delivery.report.only.error=None": lambda: Producer({**B, "delivery.report.only.error": None}),
    })


def scenario_python_keys_wrong_type() -> Any:
    return _cases({
        "error_cb=1": lambda: Producer({**B, "error_cb": 1}),
        "throttle_cb=1": lambda: Producer({**B, "throttle_cb": 1}),
        "stats_cb='x'": lambda: Producer({**B, "stats_cb": "x"}),
        "oauth_cb=1": lambda: Producer({**B, "oauth_cb": 1}),
        "on_delivery=1": lambda: Producer({**B, "on_delivery": 1}),
        "consumer on_commit=1": lambda: Consumer({**G, "on_commit": 1}),
        "consumer error_cb=1": lambda: Consumer({**G, "error_cb": 1}),
        "logger=1": lambda: Producer({**B, "logger": 1}),
        "logger='x'": lambda: Producer({**B, "logger": "x"}),
        "default.topic.config=1": lambda: Producer({**B, "default.topic.config": 1}),
        "default.topic.config=list": lambda: Producer({**B, "default.topic.config": [("acks", "1")]}),
        "delivery.report.only.error='true'": lambda: Producer({**B, "delivery.report.only.error": "true"}),
        "delivery.report.only.error=1": lambda: Producer({**B, "delivery.report.only.error": 1}),
        "delivery.report.only.error=True": lambda: Producer({**B, "delivery.report.only.error": True}),
        "consumer delivery.report.only.error=True": lambda: Consumer({**G, "delivery.report.only.error": True}),
        "consumer delivery.report.only.error='x'": lambda: Consumer({**G, "delivery.report.only.error": "x"}),
        "producer on_commit": lambda: Producer({**B, "on_commit": _noop}),
        "consumer on_delivery": lambda: Consumer({**G, "on_delivery": _noop}),
        "consumer on_delivery=1": lambda: Consumer({**G, "on_delivery": 1}),
        "callables accepted": lambda: Producer({**B, "error_cb": _noop, "stats_cb": _noop, "throttle_cb": _noop,
                                                "on_delivery": _noop, "logger": logging.getLogger("x")}),
        "a class as throttle_cb": lambda: Producer({**B, "throttle_cb": int}),
        "default.topic.config on_delivery=1": lambda: Producer({**B, "default.topic.config": {"on_delivery": 1}}),
        "default.topic.config error_cb=1": lambda: Producer({**B, "default.topic.config": {"error_cb": 1}}),
        "default.topic.config global key": lambda: Producer({**B, "default.topic.config": {"client.id": "x"}}),
        "default.topic.config non-str key": lambda: Producer({**B, "default.topic.config": {1: "x"}}),
        "default.topic.config list value": lambda: Producer({**B, "default.topic.config": {"acks": [1]}}),
        "default.topic.config ok": lambda: Producer({**B, "default.topic.config": {"acks": "all"}}),
    })


def scenario_bad_keys_and_values() -> Any:
    return _cases({
        "unknown key": lambda: Producer({**B, "no.such.key": "1"}),
        "unknown key, int value": lambda: Producer({**B, "no.such.key": 1}),
        "unknown consumer key": lambda: Consumer({**G, "no.such.key": "1"}),
        "bad enum value": lambda: Producer({**B, "acks": "bogus"}),
        "bad int value": lambda: Producer({**B, "linger.ms": "abc"}),
        "out of range": lambda: Producer({**B, "linger.ms": -5}),
        "out of range low": lambda: Producer({**B, "message.max.bytes": -5}),
        "huge int": lambda: Producer({**B, "linger.ms": 2**70}),
        "bad consumer value": lambda: Consumer({**G, "auto.offset.reset": "nah"}),
        "bad bool": lambda: Consumer({**G, "enable.partition.eof": "maybe"}),
        "int key": lambda: Producer({**B, 1: "x"}),
        "bytes key": lambda: Producer({**B, b"client.id": "x"}),
        "None key": lambda: Producer({**B, None: "x"}),
        "tuple key": lambda: Producer({**B, (1, 2): "x"}),
        "empty key": lambda: Producer({**B, "": "x"}),
        "key with a space": lambda: Producer({**B, " client.id": "x"}),
        "non-ascii key": lambda: Producer({**B, "cl\u00efent.id": "x"}),
        "list value": lambda: Producer({**B, "client.id": [1]}),
        "bytes value": lambda: Producer({**B, "client.id": b"x"}),
        "dict value": lambda: Producer({**B, "client.id": {}}),
        "object value": lambda: Producer({**B, "client.id": object()}),
        "int value": lambda: Producer({**B, "linger.ms": 5}),
        "float value": lambda: Producer({**B, "linger.ms": 5.5}),
        "bool value": lambda: Producer({**B, "enable.idempotence": True}),
        "bool False": lambda: Producer({**B, "enable.idempotence": False}),
        "bool as a number": lambda: Producer({**B, "linger.ms": True}),
        "'True' string": lambda: Producer({**B, "enable.idempotence": "True"}),
        "debug=5": lambda: Producer({**B, "debug": 5}),
        "debug=True": lambda: Producer({**B, "debug": True}),
        "NUL in a value": lambda: Producer({**B, "client.id": "a\0b"}),
        "dr_msg_cb": lambda: Producer({**B, "dr_msg_cb": _noop}),
        "producer gets a consumer key": lambda: Producer({**B, "group.id": "x"}),
        "consumer gets a producer key": lambda: Consumer({**G, "acks": "all"}),
    })


def scenario_ints_beyond_32_bits() -> Any:
    return _cases({
        "2**32 + 5 where 5 is in range": lambda: Producer({**B, "queue.buffering.max.messages": 2**32 + 5}),
        "as text": lambda: Producer({**B, "queue.buffering.max.messages": str(2**32 + 5)}),
        "a topic property": lambda: Producer({**B, "message.timeout.ms": 2**32 + 5000}),
        "in default.topic.config": lambda: Producer({**B, "default.topic.config": {"message.timeout.ms": 2**32 + 5000}}),
        "consumer": lambda: Consumer({**G, "auto.commit.interval.ms": 2**32 + 1000}),
        "a text property keeps it": lambda: Producer({**B, "client.id": 2**40}),
        "int32 max": lambda: Producer({**B, "queue.buffering.max.messages": 2**31 - 1}),
    })


def scenario_client_creation_failures() -> Any:
    """Settings librdkafka accepts one by one but refuses when the client is made."""
    return _cases({
        "transactional.id without idempotence": lambda: Producer({**B, "transactional.id": "t",
                                                                  "enable.idempotence": False}),
        "transactional.id with acks=1": lambda: Producer({**B, "transactional.id": "t", "acks": 1}),
        "unknown SASL mechanism": lambda: Producer({**B, "security.protocol": "SASL_PLAINTEXT",
                                                   "sasl.mechanisms": "BOGUS"}),
        "consumer, unknown SASL mechanism": lambda: Consumer({**G, "security.protocol": "SASL_PLAINTEXT",
                                                              "sasl.mechanisms": "BOGUS"}),
        "missing plugin": lambda: Producer({**B, "plugin.library.paths": "/nonexistent/x.so"}),
    })


# ---- the logger bridge -------------------------------------------------------------------------

class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _record(r: logging.LogRecord) -> Any:
    """A log record as a handler sees it; the client's instance counter is blanked."""
    def blank(s: Any) -> Any:
        return re.sub(r"#(producer|consumer)-\d+", r"#\1-N", s) if isinstance(s, str) else s

    args = r.args if isinstance(r.args, tuple) else (r.args,)
    return {"name": r.name, "levelno": r.levelno, "levelname": r.levelname, "msg": r.msg,
            "args": [blank(a) for a in args], "message": blank(r.getMessage())}


def _confwarn_records(logger: Any, handler: _Records, client_id: Any) -> Any:
    conf = {**G, "socket.timeout.ms": 100, "logger": logger, "log_level": 7}
    if client_id is not None:
        conf["client.id"] = client_id
    c = Consumer(conf)
    try:
        c.poll(0.3)
    finally:
        c.close()
    return [_record(r) for r in handler.records if r.args and isinstance(r.args, tuple) and r.args[0] == "CONFWARN"]


def scenario_logger_record() -> Any:
    """A configuration warning logged while the consumer is made, as a logging.LogRecord."""
    out = {}
    for label, client_id in (("with client.id", "cid"), ("default client.id", None)):
        handler = _Records()
        logger = logging.getLogger(f"compat.config.{label}")
        logger.handlers[:] = [handler]
        logger.setLevel(logging.DEBUG)
        logger.propagate = False
        out[label] = _confwarn_records(logger, handler, client_id)
    return out


def scenario_logger_adapter() -> Any:
    """Any object with a log() method works: a LoggerAdapter."""
    handler = _Records()
    logger = logging.getLogger("compat.config.adapter")
    logger.handlers[:] = [handler]
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    return _confwarn_records(logging.LoggerAdapter(logger, {}), handler, "adapted")


def scenario_logger_level_filter() -> Any:
    """The logger's own level still filters: a logger at ERROR drops the warning."""
    handler = _Records()
    logger = logging.getLogger("compat.config.errors-only")
    logger.handlers[:] = [handler]
    logger.setLevel(logging.ERROR)
    logger.propagate = False
    return _confwarn_records(logger, handler, "quiet")


def scenario_logger_without_log_method() -> Any:
    """A logger that has no log(): accepted when the client is made; the calls that serve a log
    record (poll, close) raise AttributeError."""
    out = {}
    for label, logger in (("int", 1), ("str", "x")):
        c = Producer({**B, "logger": logger, "log_level": 7, "debug": "generic"})
        seen = {}
        for step, fn in (("poll", lambda: c.poll(0.2)), ("close", c.close), ("close again", c.close)):
            try:
                fn()
                seen[step] = "ok"
            except Exception as exc:  # noqa: BLE001
                seen[step] = raised(exc)
        out[label] = seen
    return out


def scenario_logger_notice_level() -> Any:
    """librdkafka's NOTICE (syslog 5) as a logging level: a producer without bootstrap.servers."""
    handler = _Records()
    logger = logging.getLogger("compat.config.notice")
    logger.handlers[:] = [handler]
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    p = Producer({"logger": logger, "client.id": "lonely", "log_level": 7})
    try:
        p.poll(0.2)
    finally:
        p.close()
    return [_record(r) for r in handler.records if r.args and isinstance(r.args, tuple) and r.args[0] == "CONFWARN"]
