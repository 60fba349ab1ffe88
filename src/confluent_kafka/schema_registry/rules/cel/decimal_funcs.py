"""CEL's decimal library: the ``decimal(...)`` constructor, the ``decimals.*`` functions, and
``string``/``double``/``==``/``!=``/``in`` made aware of decimals.

A decimal is a :class:`decimal.Decimal` inside CEL (celpy carries any Python object), whether it
came from ``decimal(...)``, from an Avro ``decimal`` logical field, a JSON value or a Protobuf
``confluent.type.Decimal`` field. The arithmetic follows ``java.math.BigDecimal``: addition,
subtraction, multiplication, remainder and rescaling are exact; division and square root keep 38
significant digits, rounding half up; a decimal has no negative zero, NaN or infinity.

Widths are bounded so that no rule can make one evaluation exhaust memory: a value whose positional
form would need more than ten million digits is a rule error rather than an allocation.
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from typing import Any, Callable, Dict, Optional

import celpy  # type: ignore[import-untyped,unused-ignore]
from celpy import celtypes  # type: ignore[import-untyped,unused-ignore]
from celpy.evaluation import CELEvalError  # type: ignore[import-untyped,unused-ignore]

from .timestamp_funcs import format_timestamp

__all__ = ["DECIMAL_FUNCS", "DECIMAL_OPERATOR_FUNCS", "decimal_boundary_value"]

_DECIMAL_MESSAGE = "confluent.type.Decimal"
_INT32_MIN, _INT32_MAX = -(2 ** 31), 2 ** 31 - 1

#: Exact arithmetic over any exponent a BigDecimal can carry.
_EXACT = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
#: Division and square root: 38 significant digits, half up (SQL NUMERIC, Flink).
_DIVIDE = decimal.Context(prec=38, rounding=decimal.ROUND_HALF_UP, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)

#: The most digits one operation may lay out positionally (aligning, rescaling, rendering).
_MAX_DIGITS = 10_000_000
#: The most digits a coefficient built from bytes may have (CPython's own int/str bound).
_MAX_COEFFICIENT_DIGITS = 4300


# -- converting values to decimals -----------------------------------------------------------------


def _message_of(value: Any) -> Any:
    """The ``confluent.type.Decimal`` message ``value`` is or wraps, else None."""
    for candidate in (value, getattr(value, "msg", None)):
        descriptor = getattr(candidate, "DESCRIPTOR", None)
        if descriptor is not None and getattr(descriptor, "full_name", "") == _DECIMAL_MESSAGE:
            return candidate
    return None


def _from_message(msg: Any) -> Decimal:
    unscaled = int.from_bytes(bytes(msg.value), "big", signed=True) if msg.value else 0
    return Decimal(unscaled).scaleb(-int(msg.scale), context=_EXACT)


def decimal_boundary_value(v: Any) -> Optional[Decimal]:
    """``v`` as a decimal when it is one (a :class:`~decimal.Decimal`, a ``confluent.type.Decimal``
    message or CEL's map of one), else None. Never converts numbers or strings.

    :param v: a CEL value.
    :returns: the decimal, or None.
    """
    if isinstance(v, Decimal):
        return v
    msg = _message_of(v)
    return _from_message(msg) if msg is not None else None


def _unsigned_zero(d: Decimal) -> Decimal:
    return d.copy_abs() if d.is_zero() and d.is_signed() else d


def _int_arg(value: Any, fn: str, what: str = "scale") -> int:
    """An int32 argument: a CEL int (not a bool, not a uint, not a double)."""
    if isinstance(value, (bool, celtypes.BoolType, celtypes.UintType)) or not isinstance(value, int):
        raise CELEvalError(f"{fn}: {what} must be int, got {type(value).__name__}")
    if not _INT32_MIN <= int(value) <= _INT32_MAX:
        raise CELEvalError(f"{fn}: {what} out of int range: {int(value)}")
    return int(value)


def _as_bytes(value: Any, fn: str) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise CELEvalError(f"{fn}: expected bytes, got {type(value).__name__}")


def _parse(text: str) -> Decimal:
    """A decimal literal as ``new BigDecimal(String)`` reads it: no underscores, no surrounding
    blanks, nothing non-finite, an exponent within int range."""
    bad = CELEvalError(f"decimal: invalid number '{text}'")
    if "_" in text or text.strip() != text:
        raise bad
    try:
        d = Decimal(text)
    except decimal.InvalidOperation:
        raise bad from None
    if not d.is_finite():
        raise bad
    exponent = d.as_tuple().exponent
    assert isinstance(exponent, int)
    if abs(exponent) > _INT32_MAX:
        raise bad
    return _unsigned_zero(d)


def _from_unscaled_bytes(raw: Any, scale: Any) -> Decimal:
    data = _as_bytes(raw, "decimal(bytes, scale)")
    s = _int_arg(scale, "decimal(bytes, scale)")
    if not data:
        return Decimal(0).scaleb(-s, context=_EXACT)
    # Each byte carries log10(256) ~ 2.408 digits.
    _check_width(int(len(data) * 2.408) + 1, "decimal(bytes, scale)", "the coefficient", _MAX_COEFFICIENT_DIGITS)
    return Decimal(int.from_bytes(data, "big", signed=True)).scaleb(-s, context=_EXACT)


def _to_decimal(value: Any) -> Decimal:
    """``decimal(dyn)``."""
    if value is None:
        raise CELEvalError("decimal: cannot convert null to Decimal")
    found = decimal_boundary_value(value)
    if found is not None:
        return found
    if isinstance(value, (bool, celtypes.BoolType)):
        raise CELEvalError("decimal: cannot convert bool to Decimal")
    if isinstance(value, int):
        return Decimal(int(value))
    if isinstance(value, float):
        return _parse(str(value))
    if isinstance(value, str):
        return _parse(str(value))
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise CELEvalError("decimal: bytes have no scale; call decimal(bytes, scale)")
    raise CELEvalError(f"decimal: cannot convert {type(value).__name__} to Decimal")


def _decimal(*args: Any) -> Decimal:
    """``decimal(dyn)`` and ``decimal(bytes, int)`` (unscaled two's-complement bytes and a scale)."""
    if len(args) == 1:
        return _to_decimal(args[0])
    if len(args) == 2:
        return _from_unscaled_bytes(args[0], args[1])
    raise CELEvalError(f"decimal: expected 1 or 2 arguments, got {len(args)}")


def _d(value: Any) -> Decimal:
    """An operand of a ``decimals.*`` function."""
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise CELEvalError(f"decimal: not a finite number '{value}'")
        return value
    return _to_decimal(value)


# -- width bounds ----------------------------------------------------------------------------------


def _check_width(needed: int, fn: str, what: str, limit: int = _MAX_DIGITS) -> None:
    if needed > limit:
        raise CELEvalError(f"{fn}: {what} needs {needed} digits, more than the {limit} allowed")


def _exponent(d: Decimal) -> int:
    exponent = d.as_tuple().exponent if d.is_finite() else None
    if not isinstance(exponent, int):
        raise CELEvalError(f"decimal: not a finite number '{d}'")
    return exponent


def _digits(d: Decimal) -> int:
    """Digits of the coefficient, computed without materialising it."""
    return d.adjusted() - _exponent(d) + 1


def _width_at(d: Decimal, scale: int) -> int:
    """Digits ``d`` takes once expanded to ``scale`` (a zero stays one digit)."""
    if d.is_zero():
        return 1
    return max(1, _digits(d) + scale + _exponent(d))


def _rescale(d: Decimal, scale: int, rounding: str, fn: str) -> Decimal:
    """``d`` at ``scale`` (BigDecimal.setScale with ``rounding``)."""
    _check_width(_width_at(d, scale), fn, f"a scale of {scale}")
    try:
        return d.quantize(Decimal(1).scaleb(-scale, context=_EXACT), rounding=rounding, context=_EXACT)
    except decimal.DecimalException as exc:
        raise CELEvalError(f"{fn}: cannot represent a scale of {scale}") from exc


# -- the functions ---------------------------------------------------------------------------------


def _comparison(test: Callable[[int], bool]) -> Callable[[Any, Any], Any]:
    def compare(a: Any, b: Any) -> Any:
        return celtypes.BoolType(test(int(_d(a).compare(_d(b)))))

    return compare


def _additive(name: str, op: Callable[[Decimal, Decimal], Decimal]) -> Callable[[Any, Any], Decimal]:
    def apply(a: Any, b: Any) -> Decimal:
        x, y = _d(a), _d(b)
        scale = -min(_exponent(x), _exponent(y))
        _check_width(max(_width_at(x, scale), _width_at(y, scale)) + 1, name, "aligning the operands")
        return op(x, y)

    return apply


def _mul(a: Any, b: Any) -> Decimal:
    return _EXACT.multiply(_d(a), _d(b))


def _div(a: Any, b: Any) -> Decimal:
    x, y = _d(a), _d(b)
    if y.is_zero():
        raise CELEvalError("decimals.div: division by zero")
    try:
        return _DIVIDE.divide(x, y)
    except decimal.DecimalException as exc:
        raise CELEvalError(f"decimals.div: {exc!r}") from exc


def _mod(a: Any, b: Any) -> Decimal:
    """Remainder of truncated division: the sign of the dividend (BigDecimal.remainder, SQL MOD)."""
    x, y = _d(a), _d(b)
    if y.is_zero():
        raise CELEvalError("decimals.mod: division by zero")
    quotient = 1 if x.is_zero() else max(0, x.adjusted() - y.adjusted()) + 1
    _check_width(quotient, "decimals.mod", "the integral quotient")
    return _EXACT.remainder(x, y)


def _greatest(a: Any, b: Any) -> Decimal:
    return max(_d(a), _d(b))


def _least(a: Any, b: Any) -> Decimal:
    return min(_d(a), _d(b))


def _preferred_scale(value: Decimal, preferred: int, fn: str) -> Decimal:
    """An exact result at BigDecimal's preferred scale: trailing zeros dropped down to (never
    below) ``preferred``, then padded back up to it, within 38 digits."""
    if value.is_zero():
        return _rescale(value, preferred, decimal.ROUND_HALF_UP, fn)
    reduced = value.normalize(context=_EXACT)
    natural = -_exponent(reduced)
    room = _DIVIDE.prec - _digits(reduced)
    return _rescale(reduced, max(natural, min(preferred, natural + room)), decimal.ROUND_HALF_UP, fn)


def _sqrt(a: Any) -> Decimal:
    """Square root to 38 digits; an exact root takes the scale BigDecimal gives it (half the
    operand's scale, rounded toward zero)."""
    d = _d(a)
    if d < 0:
        raise CELEvalError("decimals.sqrt: square root of negative number")
    root = _DIVIDE.sqrt(d)
    if _EXACT.multiply(root, root) != d:
        return root
    scale = -_exponent(d)
    return _preferred_scale(root, int(scale / 2), "decimals.sqrt")


def _neg(a: Any) -> Decimal:
    return _d(a).copy_negate()  # a negated zero renders unsigned (string() drops the sign)


def _abs(a: Any) -> Decimal:
    return _d(a).copy_abs()


def _sign(a: Any) -> Any:
    d = _d(a)
    return celtypes.IntType(0 if d.is_zero() else (-1 if d.is_signed() else 1))


def _rounding(name: str, mode: str) -> Callable[..., Decimal]:
    def apply(*args: Any) -> Decimal:
        if len(args) not in (1, 2):
            raise CELEvalError(f"{name}: expected 1 or 2 arguments, got {len(args)}")
        scale = _int_arg(args[1], name) if len(args) == 2 else 0
        return _rescale(_d(args[0]), scale, mode, name)

    return apply


def _trunc(*args: Any) -> Decimal:
    """Toward zero; a value already at the scale or coarser is returned as it is (not padded)."""
    if len(args) not in (1, 2):
        raise CELEvalError(f"decimals.trunc: expected 1 or 2 arguments, got {len(args)}")
    d = _d(args[0])
    scale = _int_arg(args[1], "decimals.trunc") if len(args) == 2 else 0
    if scale >= -_exponent(d):
        return d
    return _rescale(d, scale, decimal.ROUND_DOWN, "decimals.trunc")


def _floor(a: Any) -> Decimal:
    return _rescale(_d(a), 0, decimal.ROUND_FLOOR, "decimals.floor")


def _ceil(a: Any) -> Decimal:
    return _rescale(_d(a), 0, decimal.ROUND_CEILING, "decimals.ceil")


# -- string(), double() and equality, decimal-aware ------------------------------------------------


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    for kinds, name in (((bool, celtypes.BoolType), "bool"), ((celtypes.UintType,), "uint"),
                        ((bytes, bytearray), "bytes"), ((str,), "string"), ((int,), "int"),
                        ((float,), "double"), ((list, tuple), "list"), ((dict,), "map")):
        if isinstance(value, kinds):
            return name
    return type(value).__name__


def _string(value: Any) -> Any:
    """CEL ``string()``, rendering a decimal in plain notation (``BigDecimal.toPlainString``) and
    a timestamp with its fraction of a second."""
    if isinstance(value, celtypes.TimestampType):
        return celtypes.StringType(format_timestamp(value))
    d = decimal_boundary_value(value)
    if d is not None:
        _check_width(_digits(d) + abs(_exponent(d)), "string", "the plain form")
        return celtypes.StringType(format(_unsigned_zero(d), "f"))
    if isinstance(value, (bool, celtypes.BoolType)):
        return celtypes.StringType("true" if value else "false")
    if isinstance(value, (bytes, bytearray)):
        try:
            return celtypes.StringType(bytes(value).decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise CELEvalError(f"string: invalid UTF-8 in bytes: {exc}") from exc
    if isinstance(value, str):
        return celtypes.StringType(value)
    if isinstance(value, (int, float, celtypes.DurationType)):
        return celtypes.StringType(str(value))
    raise CELEvalError(f"found no matching overload for 'string' applied to ({_type_name(value)})")


def _double(value: Any) -> Any:
    """CEL ``double()``, narrowing a decimal."""
    d = decimal_boundary_value(value)
    if d is not None:
        return celtypes.DoubleType(float(d))
    if isinstance(value, (bool, celtypes.BoolType, bytes, bytearray)) or value is None:
        raise CELEvalError(f"found no matching overload for 'double' applied to ({_type_name(value)})")
    return celtypes.DoubleType(value)


def _holds_decimal(value: Any) -> bool:
    if decimal_boundary_value(value) is not None:
        return True
    if isinstance(value, (list, tuple)):
        return any(_holds_decimal(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_decimal(v) for v in value.values())
    return False


def _equal(a: Any, b: Any) -> bool:
    """Equality with decimals compared by value (12.34 == 12.340), never equal to a non-decimal."""
    x, y = decimal_boundary_value(a), decimal_boundary_value(b)
    if x is not None or y is not None:
        return x is not None and y is not None and x == y
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and (_holds_decimal(a) or _holds_decimal(b)):
        return len(a) == len(b) and all(_equal(p, q) for p, q in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict) and (_holds_decimal(a) or _holds_decimal(b)):
        return len(a) == len(b) and all(k in b and _equal(v, b[k]) for k, v in a.items())
    return bool(celpy.evaluation.bool_eq(a, b))


def _eq(a: Any, b: Any) -> Any:
    if _holds_decimal(a) or _holds_decimal(b):
        return celtypes.BoolType(_equal(a, b))
    return celpy.evaluation.bool_eq(a, b)


def _ne(a: Any, b: Any) -> Any:
    if _holds_decimal(a) or _holds_decimal(b):
        return celtypes.BoolType(not _equal(a, b))
    return celpy.evaluation.bool_ne(a, b)


def _in(item: Any, container: Any) -> Any:
    if (_holds_decimal(item) or _holds_decimal(container)) and isinstance(container, (dict, list, tuple)):
        return celtypes.BoolType(any(_equal(item, e) for e in container))
    return celpy.evaluation.operator_in(item, container)


#: CEL's operators, replaced so that a decimal compares by value.
DECIMAL_OPERATOR_FUNCS: Dict[str, Callable[..., Any]] = {"_==_": _eq, "_!=_": _ne, "_in_": _in}

#: ``decimal``, ``decimals.*`` and the decimal-aware ``string``/``double``.
DECIMAL_FUNCS: Dict[str, Callable[..., Any]] = {
    "decimal": _decimal,
    "decimals.eq": _comparison(lambda c: c == 0),
    "decimals.lt": _comparison(lambda c: c < 0),
    "decimals.le": _comparison(lambda c: c <= 0),
    "decimals.gt": _comparison(lambda c: c > 0),
    "decimals.ge": _comparison(lambda c: c >= 0),
    "decimals.add": _additive("decimals.add", _EXACT.add),
    "decimals.sub": _additive("decimals.sub", _EXACT.subtract),
    "decimals.mul": _mul,
    "decimals.div": _div,
    "decimals.mod": _mod,
    "decimals.greatest": _greatest,
    "decimals.least": _least,
    "decimals.sqrt": _sqrt,
    "decimals.neg": _neg,
    "decimals.abs": _abs,
    "decimals.sign": _sign,
    "decimals.round": _rounding("decimals.round", decimal.ROUND_HALF_UP),
    "decimals.trunc": _trunc,
    "decimals.floor": _floor,
    "decimals.ceil": _ceil,
    "string": _string,
    "double": _double,
}
