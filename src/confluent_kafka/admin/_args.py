"""Keyword arguments of the AdminClient calls, checked the way upstream's C layer checks them.

Upstream hands each call's ``**kwargs`` to a C function that parses them with CPython's
``PyArg_ParseTupleAndKeywords``; the messages a caller sees (a keyword that is not accepted,
``must be real number, not str``, ...) come from that parser, and the ranges from librdkafka.
:func:`parse` reproduces that parser for the formats the admin calls use, so that code written
against upstream sees the same exceptions here; :class:`Options` turns the values into what the
C layer of this package takes (milliseconds).
"""

from __future__ import annotations

import math
import operator
import struct
from typing import Any, Dict, Optional, Sequence, Tuple

from ..cimpl import _check_keywords

_FLT_MAX = 3.4028234663852886e38
_INT_MIN, _INT_MAX = -(2 ** 31), 2 ** 31 - 1
_LONG_MIN, _LONG_MAX = -(2 ** 63), 2 ** 63 - 1

#: What upstream's C layer uses for "not given": a value equal to it counts as not given.
UNSET_FLOAT = -12345.0
UNSET_INT = -12345


def _float32(value: float) -> float:
    """``value`` rounded to a C float, as the ``f`` format stores it."""
    if math.isnan(value):
        return value
    if abs(value) > _FLT_MAX:
        return math.copysign(math.inf, value)
    return float(struct.unpack("f", struct.pack("f", value))[0])


def as_float(value: Any) -> float:
    """The ``f`` format: any real number (or object with ``__float__``/``__index__``).

    :raises TypeError: ``value`` is not a real number.
    """
    if isinstance(value, float):
        return _float32(value)
    try:
        if hasattr(value, "__float__"):
            return _float32(float(value))
        return _float32(float(operator.index(value)))
    except TypeError:
        pass
    raise TypeError(f"must be real number, not {type(value).__name__}")


def as_int(value: Any) -> int:
    """The ``i`` format: an int (or object with ``__index__``) that fits a C int.

    :raises TypeError: ``value`` is not an integer.
    :raises OverflowError: It does not fit.
    """
    number = operator.index(value)
    if number < _LONG_MIN or number > _LONG_MAX:
        raise OverflowError("Python int too large to convert to C long")
    if number > _INT_MAX:
        raise OverflowError("signed integer is greater than maximum")
    if number < _INT_MIN:
        raise OverflowError("signed integer is less than minimum")
    return int(number)


def parse(kwargs: Dict[str, Any], positional: Sequence[str], keywords: Sequence[Tuple[str, str]]) -> Dict[str, Any]:
    """The keyword arguments of a call, checked as upstream's C function checks them.

    :param kwargs: What the caller passed by keyword.
    :param positional: The names of the C function's positional parameters (given by the
        Python layer: the request and the future).
    :param keywords: ``(name, format)`` of each optional keyword in the C parser's order; the
        format is ``"f"`` (float), ``"i"`` (int) or ``"O"`` (any object).
    :returns: The converted values of the keywords that were given.
    :raises TypeError: Too many arguments, a name also given by position, a value of the wrong
        type, or a keyword that is not accepted.
    :raises OverflowError: An int that does not fit.
    """
    total = len(positional) + len(kwargs)
    most = len(positional) + len(keywords)
    if total > most:
        raise TypeError(f"function takes at most {most} arguments ({total} given)")
    for index, name in enumerate(positional, 1):
        if name in kwargs:
            raise TypeError(f"argument for function given by name ('{name}') and position ({index})")
    out: Dict[str, Any] = {}
    for name, fmt in keywords:
        if name not in kwargs:
            continue
        value = kwargs[name]
        out[name] = as_float(value) if fmt == "f" else as_int(value) if fmt == "i" else value
    known = {name for name, _ in keywords}
    if any(name not in known for name in kwargs):
        # The interpreter words this one (it changed in 3.13, and suggests a close name since).
        _check_keywords(tuple(positional) + tuple(name for name, _ in keywords), kwargs)
    return out


def check_bool(values: Dict[str, Any], *names: str) -> None:
    """:raises TypeError: One of the named values was given and is not a bool."""
    for name in names:
        if name in values and not isinstance(values[name], bool):
            raise TypeError(f"Expected {name} to be bool type, not {type(values[name]).__name__}")


def _range_error(name: str, low: int, high: int) -> ValueError:
    return ValueError(f'Invalid value type for "{name}": expecting integer in range {low}..{high}')


def _ms(seconds: float) -> int:
    """Seconds as whole milliseconds, truncated like upstream's C cast (out of range: INT_MIN)."""
    value = _float32(seconds * 1000.0)
    if math.isnan(value) or math.isinf(value) or not (_INT_MIN <= value <= _INT_MAX):
        return _INT_MIN
    return int(value)


class Options:
    """The request options of one call, in the form this package's C layer takes.

    :param values: The result of :func:`parse`.
    """

    def __init__(self, values: Dict[str, Any]) -> None:
        self.values = values

    def build(self) -> Dict[str, Any]:
        """The options dict for the C layer, with librdkafka's range checks applied.

        :raises ValueError: A timeout, broker id or isolation level out of range.
        """
        out: Dict[str, Any] = {}
        v = self.values
        for flag in ("validate_only", "require_stable", "include_authorized_operations"):
            if flag in v:
                out[flag] = v[flag]
        for name, low in (("request_timeout", 0), ("operation_timeout", -1)):
            if name in v and v[name] != UNSET_FLOAT:
                ms = _ms(v[name])
                if not low <= ms <= 3600000:
                    raise _range_error(name, low, 3600000)
                out[name] = ms
        if "broker" in v and v["broker"] != UNSET_INT:
            if v["broker"] < 0:
                raise _range_error("broker", 0, _INT_MAX)
            out["broker"] = v["broker"]
        if "isolation_level_value" in v and v["isolation_level_value"] != UNSET_INT:
            if not 0 <= v["isolation_level_value"] <= 1:
                raise _range_error("isolation_level", 0, 1)
            out["isolation_level"] = v["isolation_level_value"]
        return out


def get(values: Dict[str, Any], name: str, default: Optional[Any] = None) -> Any:
    """``values[name]``, or ``default`` when it was not given."""
    return values.get(name, default)
