"""CEL's ``timestamp(...)`` constructor, widened to the forms the other clients declare.

Besides celpy's own forms (an RFC 3339 string, a datetime, date components):

* ``timestamp(int)``: epoch seconds;
* ``timestamp(dyn)``: a ``google.protobuf.Timestamp`` message, or a datetime with an offset (a
  naive one, as an Avro ``local-timestamp-*`` gives, is refused rather than read as UTC);
* ``timestamp(int, int)``: an epoch value at a precision of 0 (seconds), 3 (millis), 6 (micros)
  or 9 (nanos).

A CEL timestamp is a datetime, so anything finer than a microsecond is floored away.
"""

from __future__ import annotations

import datetime
from typing import Any, Callable, Dict

from celpy import celtypes  # type: ignore[import-untyped,unused-ignore]
from celpy.evaluation import CELEvalError  # type: ignore[import-untyped,unused-ignore]

__all__ = ["TIMESTAMP_FUNCS", "format_timestamp"]

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
#: Microseconds per unit, by precision.
_MICROS_PER_UNIT = {0: 1_000_000, 3: 1_000, 6: 1}


def _base_timestamp() -> Callable[..., Any]:
    try:
        from celpy.evaluation import base_functions  # type: ignore[import-untyped,unused-ignore]

        return base_functions.get("timestamp", celtypes.TimestampType)  # type: ignore[no-any-return,unused-ignore]
    except ImportError:  # pragma: no cover - older celpy
        return celtypes.TimestampType  # type: ignore[no-any-return,unused-ignore]


_BASE = _base_timestamp()


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, (bool, celtypes.BoolType, celtypes.UintType))


def _from_epoch(value: int, precision: int) -> Any:
    if precision == 9:
        micros = value // 1_000
    elif precision in _MICROS_PER_UNIT:
        micros = value * _MICROS_PER_UNIT[precision]
    else:
        raise CELEvalError(f"timestamp: unknown precision {precision}; expected 0 (seconds), 3 (millis), "
                           "6 (micros) or 9 (nanos)")
    try:
        return celtypes.TimestampType(_EPOCH + datetime.timedelta(microseconds=micros))
    except (OverflowError, ValueError) as exc:
        raise CELEvalError(f"timestamp: epoch value out of range: {value}") from exc


def _from_message(msg: Any) -> Any:
    seconds, nanos = int(msg.seconds), int(msg.nanos)
    try:
        return celtypes.TimestampType(_EPOCH + datetime.timedelta(seconds=seconds, microseconds=nanos // 1_000))
    except (OverflowError, ValueError) as exc:
        raise CELEvalError(f"timestamp: Timestamp message out of range: {seconds}s {nanos}ns") from exc


def _one(value: Any) -> Any:
    if value is None:
        raise CELEvalError("timestamp: cannot convert null to Timestamp")
    if isinstance(value, (bool, celtypes.BoolType)):
        raise CELEvalError("timestamp: cannot convert bool to Timestamp")
    if isinstance(value, celtypes.TimestampType):
        return value
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            raise CELEvalError("timestamp: a datetime without a time zone has no instant; use timestamp(value, "
                               "precision) with an epoch value")
        return celtypes.TimestampType(value)
    if getattr(getattr(value, "DESCRIPTOR", None), "full_name", "") == "google.protobuf.Timestamp":
        return _from_message(value)
    if isinstance(value, celtypes.UintType):
        raise CELEvalError("timestamp: expected an int epoch, got uint")
    if isinstance(value, int):
        return _from_epoch(int(value), 0)
    return _BASE(value)


def _timestamp(*args: Any) -> Any:
    """``timestamp(...)``: one argument converts, two are an epoch value and its precision, three
    or more are celpy's date components."""
    if len(args) == 1:
        return _one(args[0])
    if len(args) == 2:
        value, precision = args
        if not _is_int(value):
            raise CELEvalError(f"timestamp: epoch value must be int, got {type(value).__name__}")
        if not _is_int(precision):
            raise CELEvalError(f"timestamp: precision must be int, got {type(precision).__name__}")
        return _from_epoch(int(value), int(precision))
    return _BASE(*args)


def format_timestamp(t: datetime.datetime) -> str:
    """RFC 3339 in UTC with a ``Z``, the fraction in whole groups of three digits (none, millis or
    micros), as protobuf's ``Timestamps.toString`` writes it.

    :param t: an aware datetime.
    :returns: the text.
    """
    utc = t.astimezone(datetime.timezone.utc)
    text = f"{utc.year:04d}-{utc.month:02d}-{utc.day:02d}T{utc.hour:02d}:{utc.minute:02d}:{utc.second:02d}"
    micros = utc.microsecond
    if micros % 1000 == 0 and micros:
        text += f".{micros // 1000:03d}"
    elif micros:
        text += f".{micros:06d}"
    return text + "Z"


#: ``timestamp``, replacing celpy's.
TIMESTAMP_FUNCS: Dict[str, Callable[..., Any]] = {"timestamp": _timestamp}
