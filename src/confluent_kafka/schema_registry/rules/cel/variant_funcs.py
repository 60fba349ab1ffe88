"""CEL's variant library: the ``variant(...)`` constructor and the ``variants.*`` functions over
:class:`~confluent_kafka.schema_registry.confluent.type.variant_utils.Variant` values (Spark's
binary Variant encoding, as Avro ``variant`` records and ``confluent.type.Variant`` messages carry
it).

Absent and null are different things: CEL null means *absent* (no such field or element, a
receiver of the wrong shape, an unset variant field), while a Variant whose type is null is a
present JSON ``null``. ``variants.field``/``index``/``path`` answer CEL null on a miss;
``variants.isNull`` is true only for a present null.
"""

from __future__ import annotations

import datetime
from typing import Any, Callable, Dict, Optional, Tuple

from celpy import celtypes  # type: ignore[import-untyped,unused-ignore]
from celpy.evaluation import CELEvalError  # type: ignore[import-untyped,unused-ignore]

from ...confluent.type import variant_utils
from ...confluent.type.variant_utils import Variant, VariantType
from . import variant_path

__all__ = ["VARIANT_FUNCS"]

_VARIANT_MESSAGE = "confluent.type.Variant"
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
#: The seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z from the epoch.
_FIRST_SECOND, _LAST_SECOND = -62135596800, 253402300799

_INTS = {VariantType.BYTE, VariantType.SHORT, VariantType.INT, VariantType.LONG}
_DECIMALS = {VariantType.DECIMAL4, VariantType.DECIMAL8, VariantType.DECIMAL16}
_MICRO_TIMESTAMPS = {VariantType.TIMESTAMP_TZ, VariantType.TIMESTAMP_NTZ}
_TIMESTAMPS = _MICRO_TIMESTAMPS | {VariantType.TIMESTAMP_NANOS_TZ, VariantType.TIMESTAMP_NANOS_NTZ}

#: The name ``variants.type`` gives each type.
_LABELS = {VariantType.OBJECT: "object", VariantType.ARRAY: "array", VariantType.NULL: "null",
           VariantType.BOOLEAN: "boolean", VariantType.FLOAT: "double", VariantType.DOUBLE: "double",
           VariantType.DATE: "date", VariantType.TIME: "time", VariantType.STRING: "string",
           VariantType.BINARY: "bytes", VariantType.UUID: "uuid"}
_LABELS.update({t: "int" for t in _INTS})
_LABELS.update({t: "decimal" for t in _DECIMALS})
_LABELS.update({t: "timestamp" for t in _TIMESTAMPS})

_EXTRACTABLE = ("string", "int", "double", "boolean", "decimal", "timestamp", "bytes")
_NOT_EXTRACTABLE = ("object", "array", "null", "date", "time", "uuid")


def _bytes(value: Any) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise CELEvalError(f"variant: expected bytes, got {type(value).__name__}")


def _built(value: Any, metadata: Any) -> Optional[Variant]:
    """A Variant of the two byte strings, or None when there is no metadata (an unset field)."""
    meta = _bytes(metadata)
    return Variant(_bytes(value), meta) if meta else None


def _coerce(value: Any) -> Optional[Variant]:
    """``variant(dyn)``: a Variant, a ``confluent.type.Variant`` message (or celpy's wrapper of one)
    or a map of ``value`` and ``metadata`` bytes; null stays null."""
    if value is None or isinstance(value, Variant):
        return value
    candidates: Tuple[Any, ...] = (value, getattr(value, "msg", None))
    for candidate in candidates:
        if getattr(getattr(candidate, "DESCRIPTOR", None), "full_name", "") == _VARIANT_MESSAGE:
            return _built(candidate.value, candidate.metadata)
    if isinstance(value, dict):
        metadata, data = value.get("metadata"), value.get("value")
        if metadata is not None and data is not None:
            return _built(data, metadata)
        if metadata is not None or data is not None:
            raise CELEvalError("variant: cannot convert map to Variant: missing '%s' entry"
                               % ("value" if data is None else "metadata"))
    if isinstance(value, str):
        raise CELEvalError("variant: cannot convert string to Variant; parse JSON text with variants.parseJson(s) "
                           "or variants.tryParseJson(s)")
    raise CELEvalError(f"variant: cannot convert {type(value).__name__} to Variant")


def _variant(*args: Any) -> Optional[Variant]:
    """``variant(dyn)`` and ``variant(value_bytes, metadata_bytes)``."""
    if len(args) == 1:
        return _coerce(args[0])
    if len(args) == 2:
        built = _built(args[0], args[1])
        if built is None:
            raise CELEvalError("variant(value, metadata): the metadata is empty")
        return built
    raise CELEvalError(f"variant: expected 1 or 2 arguments, got {len(args)}")


def _operand(value: Any, fn: str) -> Optional[Variant]:
    """A ``variants.*`` receiver: null passes through, anything not a variant is an error."""
    if value is None or isinstance(value, Variant):
        return value
    try:
        return _coerce(value)
    except CELEvalError as exc:
        raise CELEvalError(f"{fn}: expected Variant, got {type(value).__name__}") from exc


def _text_arg(value: Any, fn: str, what: str) -> str:
    if not isinstance(value, str):
        raise CELEvalError(f"{fn}: expected a string {what}, got {type(value).__name__}")
    return str(value)


def _parse_json(text: Any) -> Variant:
    """``variants.parseJson(string)``: strict."""
    if not isinstance(text, str):
        raise CELEvalError("variants.parseJson: expected a string")
    try:
        return variant_utils.parse_json(str(text))
    except ValueError as exc:
        raise CELEvalError(f"variants.parseJson: {exc}") from exc


def _try_parse_json(text: Any) -> Optional[Variant]:
    """``variants.tryParseJson(string)``: null for text that is not JSON."""
    if not isinstance(text, str):
        raise CELEvalError("variants.tryParseJson: expected a string")
    try:
        return variant_utils.parse_json(str(text))
    except Exception:  # noqa: BLE001 - any failure to parse answers null
        return None


def _type(value: Any) -> Any:
    v = _operand(value, "variants.type")
    return None if v is None else celtypes.StringType(_LABELS[v.get_type()])


def _is_null(value: Any) -> Any:
    """``variants.isNull(dyn)``: never an error; true only for a present variant null."""
    try:
        v = _operand(value, "variants.isNull")
    except Exception:  # noqa: BLE001 - a predicate: anything not a variant is simply not null
        return celtypes.BoolType(False)
    return celtypes.BoolType(v is not None and v.get_type() == VariantType.NULL)


def _path(value: Any, path: Any) -> Optional[Variant]:
    text = _text_arg(path, "variants.path", "path")
    v = _operand(value, "variants.path")
    if v is None:
        return None
    try:
        return variant_path.walk(v, text)
    except ValueError as exc:
        raise CELEvalError(f"variants.path: {exc}") from exc


def _field(value: Any, key: Any) -> Optional[Variant]:
    name = _text_arg(key, "variants.field", "key")
    v = _operand(value, "variants.field")
    if v is None or v.get_type() != VariantType.OBJECT:
        return None
    return v.get_field_by_key(name)


def _index(value: Any, index: Any) -> Optional[Variant]:
    if isinstance(index, (bool, celtypes.BoolType, celtypes.UintType)) or not isinstance(index, int):
        raise CELEvalError(f"variants.index: expected an int index, got {type(index).__name__}")
    v = _operand(value, "variants.index")
    if v is None or v.get_type() != VariantType.ARRAY or not 0 <= int(index) <= 2 ** 31 - 1:
        return None
    return v.get_element_at_index(int(index))


def _timestamp_of(v: Variant) -> Optional[Any]:
    """A variant timestamp as a CEL timestamp (nanos floored to micros), None past 0001..9999."""
    micros = v.get_long() if v.get_type() in _MICRO_TIMESTAMPS else v.get_long() // 1000
    if not _FIRST_SECOND <= micros // 1_000_000 <= _LAST_SECOND:
        return None
    return celtypes.TimestampType(_EPOCH + datetime.timedelta(microseconds=micros))


def _extract(v: Variant, kind: str) -> Any:
    """The value of ``v`` as CEL type ``kind``, or None when ``v`` is not of that type."""
    t = v.get_type()
    if kind == "string" and t == VariantType.STRING:
        return celtypes.StringType(v.get_string())
    if kind == "int" and t in _INTS:
        return celtypes.IntType(v.get_long())
    if kind == "double" and t == VariantType.FLOAT:
        return celtypes.DoubleType(float(v.get_float()))
    if kind == "double" and t == VariantType.DOUBLE:
        return celtypes.DoubleType(v.get_double())
    if kind == "boolean" and t == VariantType.BOOLEAN:
        return celtypes.BoolType(v.get_boolean())
    if kind == "decimal" and t in _DECIMALS:
        return v.get_decimal()
    if kind == "bytes" and t == VariantType.BINARY:
        return celtypes.BytesType(v.get_binary())
    return None


def _as(soft: bool) -> Callable[[Any, Any], Any]:
    fn = "variants.tryAs" if soft else "variants.as"

    def extract(value: Any, type_name: Any) -> Any:
        kind = _text_arg(type_name, fn, "type name")
        v = _operand(value, fn)
        if v is None:
            return None
        if kind in _NOT_EXTRACTABLE:
            raise CELEvalError(f"variants.as: type '{kind}' cannot be extracted; navigate it with variants.type, "
                               "variants.path, variants.field or variants.index")
        if kind not in _EXTRACTABLE:
            if soft:
                return None
            raise CELEvalError(f"variants.as: unknown type '{kind}' (expected one of: {', '.join(_EXTRACTABLE)})")
        if kind == "timestamp" and v.get_type() in _TIMESTAMPS:
            found = _timestamp_of(v)
            if found is None and not soft:
                raise CELEvalError(f"variants.as: timestamp {v.get_long()} is outside "
                                   "0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z")
            return found
        found = _extract(v, kind)
        if found is None and not soft:
            raise CELEvalError(f"variants.as: variant is not {kind}-typed (type={v.get_type().value})")
        return found

    return extract


def _to_json(value: Any) -> Any:
    v = _operand(value, "variants.toJson")
    return None if v is None else celtypes.StringType(v.to_json())


#: ``variant`` and ``variants.*``.
VARIANT_FUNCS: Dict[str, Callable[..., Any]] = {
    "variant": _variant,
    "variants.parseJson": _parse_json,
    "variants.tryParseJson": _try_parse_json,
    "variants.type": _type,
    "variants.isNull": _is_null,
    "variants.path": _path,
    "variants.field": _field,
    "variants.index": _index,
    "variants.as": _as(False),
    "variants.tryAs": _as(True),
    "variants.toJson": _to_json,
}
