"""KafkaError and KafkaException as a caller sees them: construction, text, codes, comparison,
pickling, and the exception classes of ``confluent_kafka.error``."""
from __future__ import annotations

import base64
import copy
import pickle
from typing import Any

from observe import data, outcome, raised, text

from confluent_kafka import KafkaError, KafkaException

# The codes newer than the librdkafka this package may be built against (Kafka protocol codes).
NEWER_CODES = ["DUPLICATE_VOTER", "FENCED_STATE_EPOCH", "INCONSISTENT_TOPIC_ID", "INVALID_RECORD_STATE",
               "INVALID_REGISTRATION", "INVALID_REGULAR_EXPRESSION", "INVALID_SHARE_SESSION_EPOCH",
               "INVALID_VOTER_KEY", "MISMATCHED_ENDPOINT_TYPE", "SHARE_SESSION_LIMIT_REACHED",
               "SHARE_SESSION_NOT_FOUND", "STREAMS_INVALID_TOPOLOGY", "STREAMS_INVALID_TOPOLOGY_EPOCH",
               "STREAMS_TOPOLOGY_FENCED", "TRANSACTION_ABORTABLE", "UNKNOWN_CONTROLLER_ID",
               "UNSUPPORTED_ENDPOINT_TYPE", "VOTER_NOT_FOUND"]


def _error(err: Any) -> Any:
    """Everything a caller reads from a KafkaError."""
    if not isinstance(err, KafkaError):
        return data(err)
    return {"str": str(err), "repr": repr(err), "code": err.code(), "name": err.name(), "text": err.str(),
            "fatal": err.fatal(), "retriable": err.retriable(), "txn_requires_abort": err.txn_requires_abort(),
            "type": type(err).__name__}


def _exception(exc: BaseException) -> Any:
    """Everything a caller reads from a KafkaException."""
    return {"type": type(exc).__name__, "str": str(exc), "repr": repr(exc),
            "args": [_error(a) for a in exc.args], "is_kafka_exception": isinstance(exc, KafkaException)}


def _made(fn: Any) -> Any:
    try:
        return {"ok": _error(fn())}
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        return raised(exc)


CONSTRUCTIONS = {
    "code only": lambda: KafkaError(KafkaError._TIMED_OUT),
    "code and reason": lambda: KafkaError(KafkaError._TIMED_OUT, "boom"),
    "reason None": lambda: KafkaError(KafkaError.OFFSET_OUT_OF_RANGE, None),
    "empty reason": lambda: KafkaError(KafkaError.OFFSET_OUT_OF_RANGE, ""),
    "reason with quotes": lambda: KafkaError(KafkaError._FAIL, 'say "hi"'),
    "fatal": lambda: KafkaError(KafkaError.OFFSET_OUT_OF_RANGE, "x", fatal=True),
    "retriable": lambda: KafkaError(KafkaError._TRANSPORT, "x", retriable=True),
    "txn_requires_abort": lambda: KafkaError(KafkaError._STATE, "x", txn_requires_abort=True),
    "all flags": lambda: KafkaError(KafkaError._STATE, "x", True, True, True),
    "flags as ints": lambda: KafkaError(KafkaError._STATE, "x", fatal=2, retriable=1, txn_requires_abort=0),
    "fatal code without the flag": lambda: KafkaError(KafkaError._FATAL),
    "keyword error": lambda: KafkaError(error=KafkaError._FAIL),
    "keyword reason": lambda: KafkaError(KafkaError._FAIL, reason="kw"),
    "no error": lambda: KafkaError(0),
    "unknown": lambda: KafkaError(-1),
    "unknown positive code": lambda: KafkaError(12345),
    "unknown negative code": lambda: KafkaError(-12345, "r"),
    "range marker begin": lambda: KafkaError(-200),
    "range marker end": lambda: KafkaError(-100),
    "bool code": lambda: KafkaError(True),
    "int32 max": lambda: KafkaError(2**31 - 1),
    "int32 min": lambda: KafkaError(-2**31),
    "non-ascii reason": lambda: KafkaError(KafkaError._FAIL, "caf\u00e9 \u2603"),
}

BAD_CONSTRUCTIONS = {
    "nothing": lambda: KafkaError(),
    "str code": lambda: KafkaError("x"),
    "float code": lambda: KafkaError(1.5),
    "None code": lambda: KafkaError(None),
    "int reason": lambda: KafkaError(1, 2),
    "bytes reason": lambda: KafkaError(1, b"x"),
    "unknown keyword": lambda: KafkaError(1, unknown=True),
    "str flag": lambda: KafkaError(1, "r", "yes"),
    "None flag": lambda: KafkaError(1, "r", None),
    "too many": lambda: KafkaError(1, "r", 0, 0, 0, 0),
    "huge code": lambda: KafkaError(2**40),
}


def scenario_error_constructions() -> Any:
    return {name: _made(fn) for name, fn in CONSTRUCTIONS.items()}


def scenario_error_bad_constructions() -> Any:
    return {name: _made(fn) for name, fn in BAD_CONSTRUCTIONS.items()}


def scenario_error_keyword_code() -> Any:
    """Upstream's stubs name the first parameter ``code`` but its runtime only takes ``error``."""
    return {"code=": _made(lambda: KafkaError(code=1)), "code= with error=": _made(lambda: KafkaError(error=1, code=2))}


def scenario_error_newer_codes() -> Any:
    """The protocol codes librdkafka 2.14 does not know: class attributes, name(), str()."""
    found = {}
    for name in NEWER_CODES:
        value = getattr(KafkaError, name, None)
        found[name] = {"value": value, "error": _error(KafkaError(value)) if isinstance(value, int) else None}
    return found


def scenario_error_codes_by_number() -> Any:
    """The errors made from bare numbers around and inside the known ranges."""
    return {str(code): _error(KafkaError(code)) for code in
            [-201, -199, -150, -137, -136, -101, -1, 0, 1, 58, 100, 102, 103, 104, 115, 117, 118, 119, 120, 121,
             122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 200]}


def dump_error_constants() -> Any:
    """This side's KafkaError code constants, by name."""
    return {name: getattr(KafkaError, name) for name in dir(KafkaError)
            if not name.startswith("__") and isinstance(getattr(KafkaError, name), int)}


def crossed_error_constants(given: Any) -> Any:
    """Upstream's constants looked up on each side, with what an error of that code says."""
    found = {}
    for name, value in sorted(given["upstream"].items()):
        mine = getattr(KafkaError, name, None)
        found[name] = {"value": mine, "same value": mine == value,
                       "error": _error(KafkaError(mine)) if isinstance(mine, int) else None}
    return found


def scenario_error_docstring_lists_constants() -> Any:
    doc = KafkaError.__doc__ or ""
    names = [n for n in dir(KafkaError) if not n.startswith("__") and isinstance(getattr(KafkaError, n), int)
             and n not in ("_BEGIN", "_END", "GROUP_LOAD_IN_PROGRESS", "GROUP_COORDINATOR_NOT_AVAILABLE",
                           "NOT_COORDINATOR_FOR_GROUP")]
    return {"missing from the docstring": [n for n in names if n not in doc], "mentions KafkaError": "KafkaError" in doc}


def scenario_error_compared_with_ints() -> Any:
    e = KafkaError(KafkaError._TIMED_OUT, "r")
    return {
        "== code": e == -185, "code ==": -185 == e, "!= code": e != -185, "== other": e == -186,
        "== KafkaError same code": e == KafkaError(-185, "other"), "!= KafkaError": e != KafkaError(-186),
        "< int": e < -100, "<= int": e <= -185, "> int": e > -186, ">= int": e >= -184,
        "< KafkaError": e < KafkaError(-100), "> KafkaError": e > KafkaError(-186),
        "== True": e == True,  # noqa: E712 - what == with a bool gives is the observation
        "in list": e in [-185], "hash": hash(e), "hash of 0": hash(KafkaError(0)),
        "dict lookup by int": {e: "v"}.get(-185), "set of equal errors": len({e, KafkaError(-185), KafkaError(-185, "x")}),
        "sorted": [x.code() for x in sorted([KafkaError(3), KafkaError(-1), KafkaError(-185)])],
        "eq method": e.__eq__(-185), "bool of NO_ERROR": bool(KafkaError(0)),
        "int()": outcome(lambda: int(e)),
    }


def scenario_error_compared_with_non_ints() -> Any:
    """Upstream raises SystemError (an exception set while returning a result) or TypeError."""
    e = KafkaError(KafkaError._TIMED_OUT, "r")
    return {
        "== str": outcome(lambda: e == "x"), "== None": outcome(lambda: e == None),  # noqa: E711
        "== float": outcome(lambda: e == -185.0), "== object": outcome(lambda: e == object()),
        "str ==": outcome(lambda: "x" == e), "< str": outcome(lambda: e < "x"),
        "== huge int": outcome(lambda: e == 2**70), "hash of -1": outcome(lambda: hash(KafkaError(-1))),
    }


def scenario_error_subclass() -> Any:
    class WithReason(KafkaError):
        def __init__(self, msg: str) -> None:
            super().__init__(KafkaError._FAIL, msg)

    class NoInit(KafkaError):
        def __init__(self) -> None:
            pass

    e = KafkaError(1, "a")
    reinit = outcome(lambda: e.__init__(2, "b"))
    return {
        "subclass init": _made(lambda: WithReason("m")),
        "subclass without init": _made(NoInit),
        "__new__ alone": _made(lambda: KafkaError.__new__(KafkaError)),
        "__new__ ignores arguments": _made(lambda: KafkaError.__new__(KafkaError, 5, "x")),
        "__init__ again": reinit, "after __init__ again": _error(e),
        "subclass equals its code": WithReason("m") == KafkaError._FAIL,
    }


def scenario_error_methods_take_no_arguments() -> Any:
    e = KafkaError(1)
    return {m: outcome(lambda m=m: getattr(e, m)(1)) for m in
            ["code", "name", "str", "fatal", "retriable", "txn_requires_abort"]}


def scenario_error_copy_and_reduce() -> Any:
    e = KafkaError(KafkaError._STATE, "r", fatal=True, retriable=False, txn_requires_abort=True)
    plain = KafkaError(1)
    return {
        "copy": _error(copy.copy(e)), "deepcopy": _error(copy.deepcopy(e)),
        "reduce args": data(e.__reduce__()[1]), "reduce args of a default reason": data(plain.__reduce__()[1]),
        "reduce callable": e.__reduce__()[0].__name__,
    }


EXCEPTIONS = {
    "of a KafkaError": lambda: KafkaException(KafkaError(KafkaError._TIMED_OUT, "r")),
    "of a fatal KafkaError": lambda: KafkaException(KafkaError(KafkaError._FENCED, "f", fatal=True)),
    "of a KafkaError without reason": lambda: KafkaException(KafkaError(KafkaError._MSG_TIMED_OUT)),
    "of text": lambda: KafkaException("text"),
    "of nothing": lambda: KafkaException(),
    "of two values": lambda: KafkaException(KafkaError(1), "extra"),
    "of an int": lambda: KafkaException(1),
    "of None": lambda: KafkaException(None),
}


def scenario_exception_variants() -> Any:
    return {name: _exception(fn()) for name, fn in EXCEPTIONS.items()}


def scenario_exception_subclass() -> Any:
    class Mine(KafkaException):
        def __init__(self, msg: str) -> None:
            super().__init__(KafkaError(KafkaError._STATE, msg))

    class Plain(KafkaException):
        pass

    try:
        raise Mine("m")
    except KafkaException as exc:
        caught = _exception(exc)
    return {"caught as KafkaException": caught, "plain": _exception(Plain(KafkaError(1))),
            "mro": [c.__name__ for c in Mine.__mro__],
            "keyword argument": outcome(lambda: KafkaException(code=1))}


def scenario_exception_hierarchy() -> Any:
    return {"bases": [c.__name__ for c in KafkaException.__mro__],
            "KafkaError is an exception": issubclass(KafkaError, BaseException),
            "name": KafkaException.__name__, "qualname": KafkaException.__qualname__}


# ---- pickles crossing both ways -----------------------------------------------------------------

def _pickles(values: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, value in values.items():
        try:
            out[name] = {"pickle": base64.b64encode(pickle.dumps(value, 2)).decode()}
        except Exception as exc:  # noqa: BLE001
            out[name] = raised(exc)
    return out


def _loads(dumped: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, item in sorted(dumped.items()):
        if "pickle" not in item:
            out[name] = {"not made": item}
            continue
        try:
            value = pickle.loads(base64.b64decode(item["pickle"]))
        except Exception as exc:  # noqa: BLE001
            out[name] = raised(exc)
            continue
        out[name] = _exception(value) if isinstance(value, BaseException) else _error(value)
    return out


def _error_values() -> dict[str, Any]:
    return {
        "plain": KafkaError(KafkaError._TRANSPORT),
        "with reason": KafkaError(KafkaError._TIMED_OUT, "slow"),
        "all flags": KafkaError(KafkaError._STATE, "s", fatal=True, retriable=True, txn_requires_abort=True),
        "unknown code": KafkaError(4242, "who"),
        "newer code": KafkaError(121),
    }


def dump_error_pickles() -> Any:
    return _pickles(_error_values())


def crossed_error_pickles(given: Any) -> Any:
    return {side: _loads(dumped) for side, dumped in given.items()}


def _client_error_values() -> dict[str, Any]:
    from confluent_kafka.error import (ConsumeError, KeyDeserializationError, KeySerializationError, ProduceError,
                                       ValueDeserializationError, ValueSerializationError)
    return {
        "ConsumeError": ConsumeError(KafkaError(KafkaError._PARTITION_EOF, "eof"), ValueError("v")),
        "ProduceError": ProduceError(KafkaError(KafkaError._MSG_TIMED_OUT), None),
        "KeySerializationError": KeySerializationError(ValueError("bad key")),
        "ValueSerializationError": ValueSerializationError(),
        "KeyDeserializationError": KeyDeserializationError(TypeError("k")),
        "ValueDeserializationError": ValueDeserializationError(None),
    }


def dump_client_error_pickles() -> Any:
    return _pickles(_client_error_values())


def _client_error(exc: Any) -> Any:
    if not isinstance(exc, BaseException):
        return exc
    return {**_exception(exc), "code": getattr(exc, "code", None), "name": getattr(exc, "name", None),
            "exception": data(getattr(exc, "exception", None)), "kafka_message": data(getattr(exc, "kafka_message", None))}


def crossed_client_error_pickles(given: Any) -> Any:
    out = {}
    for side, dumped in given.items():
        seen = {}
        for name, item in sorted(dumped.items()):
            try:
                seen[name] = _client_error(pickle.loads(base64.b64decode(item["pickle"])))
            except Exception as exc:  # noqa: BLE001
                seen[name] = raised(exc)
        out[side] = seen
    return out


def scenario_client_errors() -> Any:
    """The exception classes of confluent_kafka.error: text, code, name, wrapped exception."""
    return {name: _client_error(exc) for name, exc in _client_error_values().items()}


def scenario_client_error_classes() -> Any:
    from confluent_kafka import error
    names = ["ConsumeError", "KeyDeserializationError", "ValueDeserializationError", "ProduceError",
             "KeySerializationError", "ValueSerializationError"]
    return {n: [c.__name__ for c in getattr(error, n).__mro__] for n in names}


def scenario_kafka_exception_pickle() -> Any:
    """Upstream's KafkaException lives in a module named ``cimpl`` and cannot be pickled."""
    return {"dumps": text(lambda: len(pickle.dumps(KafkaException(KafkaError(1)))) > 0),
            "module": KafkaException.__module__}
