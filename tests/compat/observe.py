"""What a caller can observe, as plain JSON data, the same way under either interpreter.

This module is imported by scenario modules, which run once under this project's interpreter and
once under the interpreter of the upstream wheel (``runner.py``). It needs nothing but the standard
library, so both sides load the same code.
"""
from __future__ import annotations

import base64
import enum
import math
from typing import Any, Callable


def data(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON data: primitives as they are, containers item by item, bytes tagged,
    enums by their qualified member name, exceptions by type and text, and any other object by
    its type name (with ``str`` for the types whose text a caller reads: errors and messages)."""
    if depth > 6:
        return {"deep": type(value).__name__}
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return {"enum": f"{type(value).__name__}.{value.name}", "value": data(value.value, depth + 1)}
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return {"float": "nan"} if math.isnan(value) else value
    if isinstance(value, (bytes, bytearray)):
        return {"bytes": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, (list, tuple)):
        return [data(v, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((data(v, depth + 1) for v in value), key=repr)
    if isinstance(value, dict):
        return {"dict": sorted(([data(k, depth + 1), data(v, depth + 1)] for k, v in value.items()), key=repr)}
    if isinstance(value, BaseException):
        return raised(value)
    return {"object": type(value).__name__}


def raised(exc: BaseException) -> dict[str, Any]:
    """An exception as a caller sees it: its type name and its text."""
    return {"raises": type(exc).__name__, "str": str(exc)}


def outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``: the result as :func:`data`, or the exception it raised."""
    try:
        return {"ok": data(fn(*args, **kwargs))}
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        return raised(exc)


def text(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Like :func:`outcome`, but the result is observed through ``str()``."""
    try:
        return {"ok": str(fn(*args, **kwargs))}
    except Exception as exc:  # noqa: BLE001
        return raised(exc)


def kind(obj: Any) -> str:
    """What sort of public name ``obj`` is: class, function, module, or the type of a value."""
    import inspect

    if inspect.isclass(obj):
        return "class"
    if inspect.ismodule(obj):
        return "module"
    if callable(obj):
        return "callable"
    return type(obj).__name__
