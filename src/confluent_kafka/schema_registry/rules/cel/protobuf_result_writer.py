"""The result of a message-level CEL TRANSFORM on a Protobuf message, made a message again.

A map the rule returns is the *whole* new message (replace, not merge): a new message of the
input's class is filled from it. So a field the map does not name is dropped, a null clears its
field, and a field echoed from the input is set even if it was unset there (keep absence with
``has(x) ? x : null``). A key is a field's declared name or its JSON name; keys the message
does not declare are ignored. Values must fit their fields: a fraction for an integer field, a
bool for a number, a number for a string, a string for bytes, a null element in a list or map
are errors (a :class:`ValueError`, which the rule's action handles), never coerced. Timestamps,
durations, wrapper types, ``confluent.type.Decimal`` and ``confluent.type.Variant`` fields take
the Python values CEL gives for them (datetime, timedelta, the scalar, Decimal, Variant).
"""

from __future__ import annotations

import datetime
import decimal
import math
from collections.abc import Mapping
from typing import Any, Dict, Optional, Tuple

from google.protobuf import descriptor, message  # type: ignore[import-untyped,unused-ignore]

from ...confluent.type.variant_utils import Variant

__all__ = ["convert"]

F = descriptor.FieldDescriptor

_WRAPPERS = frozenset("google.protobuf." + n for n in (
    "StringValue", "BytesValue", "Int32Value", "Int64Value", "UInt32Value", "UInt64Value", "FloatValue",
    "DoubleValue", "BoolValue"))
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_FLOAT32_MAX = 3.4028234663852886e38 * (1 + 1e-6)
_INT_RANGES: Dict[int, Tuple[int, int]] = {}
for _kind in (F.TYPE_INT32, F.TYPE_SINT32, F.TYPE_SFIXED32, F.TYPE_ENUM):
    _INT_RANGES[_kind] = (-(2 ** 31), 2 ** 31 - 1)
for _kind in (F.TYPE_UINT32, F.TYPE_FIXED32):
    _INT_RANGES[_kind] = (0, 2 ** 32 - 1)
for _kind in (F.TYPE_INT64, F.TYPE_SINT64, F.TYPE_SFIXED64):
    _INT_RANGES[_kind] = (-(2 ** 63), 2 ** 63 - 1)
for _kind in (F.TYPE_UINT64, F.TYPE_FIXED64):
    _INT_RANGES[_kind] = (0, 2 ** 64 - 1)


def convert(result: Any, msg: Any) -> Any:
    """A new message of ``msg``'s class filled from ``result`` when ``result`` is a map and
    ``msg`` a Protobuf message; otherwise ``result`` as it is.

    :param result: what the rule returned.
    :param msg: the message the rule ran on.
    :returns: the message to serialize.
    :raises ValueError: for a value that does not fit its field, the same field named twice
        (by its name and its JSON name), or two members of one oneof set.
    """
    if not isinstance(result, Mapping) or not isinstance(msg, message.Message):
        return result
    out = type(msg)()
    _fill(out, result)
    return out


def _is_null(value: Any) -> bool:
    return value is None or type(value).__name__ == "NullType"


def _fill(out: Any, values: Mapping) -> None:  # type: ignore[type-arg]
    desc = out.DESCRIPTOR
    named_by: Dict[int, str] = {}
    oneof_member: Dict[str, str] = {}
    for key, value in values.items():
        name = str(key)
        fd = desc.fields_by_name.get(name) or desc.fields_by_camelcase_name.get(name)
        if fd is None:
            continue
        if fd.number in named_by:
            first, second = sorted((named_by[fd.number], name))
            raise ValueError(f"result names field '{fd.full_name}' twice, as '{first}' and '{second}'")
        if _is_null(value):
            out.ClearField(fd.name)
            continue
        named_by[fd.number] = name
        oneof = fd.containing_oneof
        if oneof is not None:
            other = oneof_member.setdefault(oneof.full_name, fd.name)
            if other != fd.name:
                first, second = sorted((other, fd.name))
                raise ValueError(f"result sets more than one member of oneof '{oneof.full_name}': "
                                 f"'{first}' and '{second}'")
        _set(out, fd, value)


def _is_repeated(fd: Any) -> bool:
    flag = getattr(fd, "is_repeated", None)
    return bool(flag) if flag is not None else fd.label == F.LABEL_REPEATED


def _set(out: Any, fd: Any, value: Any) -> None:
    if _is_repeated(fd):
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            _set_map(out, fd, value)
        else:
            _set_list(out, fd, value)
    elif fd.type == F.TYPE_MESSAGE:
        _set_message(getattr(out, fd.name), fd, value)
    else:
        setattr(out, fd.name, _scalar(fd, value))


def _set_map(out: Any, fd: Any, value: Any) -> None:
    if not isinstance(value, Mapping):
        raise ValueError(f"cannot write {type(value).__name__} to map field '{fd.name}'")
    target = getattr(out, fd.name)
    value_fd = fd.message_type.fields_by_name["value"]
    for key, item in value.items():
        if _is_null(item):
            raise ValueError(f"cannot write a null value to map field '{fd.name}'")
        if value_fd.type == F.TYPE_MESSAGE:
            _set_message(target[key], value_fd, item)
        else:
            target[key] = _scalar(value_fd, item)


def _set_list(out: Any, fd: Any, value: Any) -> None:
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise ValueError(f"cannot write {type(value).__name__} to repeated field '{fd.name}'")
    target = getattr(out, fd.name)
    del target[:]
    for item in value:
        if _is_null(item):
            raise ValueError(f"cannot write null to repeated field '{fd.name}'")
        if fd.type == F.TYPE_MESSAGE:
            _set_message(target.add(), fd, item)
        else:
            target.append(_scalar(fd, item))


def _set_message(target: Any, fd: Any, value: Any) -> None:
    type_name = fd.message_type.full_name
    if isinstance(value, message.Message):
        target.CopyFrom(value)
    elif type_name == "confluent.type.Decimal" and isinstance(value, decimal.Decimal):
        _set_decimal(target, value)
    elif type_name == "google.protobuf.Timestamp" and isinstance(value, datetime.datetime):
        moment = value if value.tzinfo is not None else value.replace(tzinfo=datetime.timezone.utc)
        delta = moment - _EPOCH
        target.seconds = delta.days * 86400 + delta.seconds
        target.nanos = delta.microseconds * 1000
    elif type_name == "confluent.type.Variant" and isinstance(value, Variant):
        target.metadata = value.metadata
        target.value = value.standalone_value_bytes()
    elif type_name in _WRAPPERS:
        target.value = _scalar(target.DESCRIPTOR.fields_by_name["value"], value)
    elif type_name == "google.protobuf.Duration" and isinstance(value, datetime.timedelta):
        micros = (value.days * 86400 + value.seconds) * 1_000_000 + value.microseconds
        sign = -1 if micros < 0 else 1
        target.seconds = sign * (abs(micros) // 1_000_000)
        target.nanos = sign * (abs(micros) % 1_000_000) * 1000
    elif isinstance(value, Mapping):
        target.SetInParent()
        _fill(target, value)
    else:
        raise ValueError(f"cannot write {type(value).__name__} to {type_name} (field '{fd.name}')")


def _set_decimal(target: Any, value: decimal.Decimal) -> None:
    from ...confluent.type.decimal_utils import unscaled_to_bytes

    sign, digits, exponent = value.as_tuple()
    if not isinstance(exponent, int):
        raise ValueError("cannot write a non-finite decimal to confluent.type.Decimal")
    if not -(2 ** 31) <= -exponent <= 2 ** 31 - 1:
        raise ValueError(f"decimal needs a scale of {-exponent}, which does not fit the int32 scale field of "
                         "confluent.type.Decimal")
    unscaled = int("".join(map(str, digits)) or "0")
    target.value = unscaled_to_bytes(-unscaled if sign else unscaled)
    target.precision = len(digits)
    target.scale = -exponent


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool) or type(value).__name__ == "BoolType"


def _scalar(fd: Any, value: Any) -> Any:
    kind = fd.type
    if kind == F.TYPE_BYTES:
        if not isinstance(value, (bytes, bytearray, memoryview)):
            raise ValueError(f"cannot write {type(value).__name__} to bytes field '{fd.name}'")
        return bytes(value)
    if kind == F.TYPE_STRING:
        if not isinstance(value, str):
            raise ValueError(f"cannot write {type(value).__name__} to string field '{fd.name}'")
        return str(value)
    if kind == F.TYPE_BOOL:
        if not _is_bool(value):
            raise ValueError(f"cannot write {type(value).__name__} to bool field '{fd.name}'")
        return bool(value)
    if kind in (F.TYPE_FLOAT, F.TYPE_DOUBLE):
        return _floating(fd, value)
    return _integral(fd, value)


def _floating(fd: Any, value: Any) -> float:
    if _is_bool(value):
        raise ValueError(f"cannot write bool to float field '{fd.name}'")
    if not isinstance(value, (int, float, decimal.Decimal)):
        raise ValueError(f"cannot write {type(value).__name__} to float field '{fd.name}'")
    finite = value.is_finite() if isinstance(value, decimal.Decimal) else (
        math.isfinite(value) if isinstance(value, float) else True)
    try:
        as_float = float(value)
    except OverflowError as exc:
        raise ValueError(f"out of range value for float field '{fd.name}': {value}") from exc
    if not finite:
        return as_float  # an infinity or NaN the rule asked for
    if not math.isfinite(as_float):
        raise ValueError(f"out of range value for float field '{fd.name}': {value}")
    if fd.type == F.TYPE_FLOAT and abs(as_float) > _FLOAT32_MAX:
        raise ValueError(f"out of range float value for field '{fd.name}': {as_float}")
    return as_float


def _integral(fd: Any, value: Any) -> Any:
    if _is_bool(value):
        raise ValueError(f"cannot write bool to integer field '{fd.name}'")
    number: Optional[int]
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise ValueError(f"cannot write non-finite {value} to integer field '{fd.name}'")
        if value.adjusted() > 19:
            raise ValueError(f"value {value} is out of range for field '{fd.name}'")
        if value != value.to_integral_value():
            raise ValueError(f"cannot write non-integral {value} to integer field '{fd.name}'")
        number = int(value)
    elif isinstance(value, float):
        if not value.is_integer():
            raise ValueError(f"cannot write non-integral {value!r} to integer field '{fd.name}'")
        number = int(value)
    elif isinstance(value, int):
        number = int(value)
    else:
        return value  # an enum's symbol name, or a wrong type protobuf's setter will refuse
    low, high = _INT_RANGES.get(fd.type, (number, number))
    if not low <= number <= high:
        raise ValueError(f"value {number} is out of range for field '{fd.name}'")
    return number
