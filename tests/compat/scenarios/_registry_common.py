"""What several Schema Registry scenario modules observe the same way (not a scenario module:
the leading underscore keeps the differential tier from collecting it).

Imported by name, like ``observe``: the runner puts scenarios/ on ``sys.path`` under both
interpreters, so this file too may use nothing but the standard library and ``confluent_kafka``.
"""
from __future__ import annotations

from typing import Any


def error_kinds(fn: Any, *args: Any) -> Any:
    """Which handlers catch what ``fn(*args)`` raises, and the attributes upstream's types carry:
    the texts differ on purpose (deliberate.py), the types and attributes must not."""
    import json
    import struct

    from confluent_kafka.schema_registry import SchemaRegistryError
    from confluent_kafka.serialization import SerializationError

    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        caught = {name: isinstance(exc, cls) for name, cls in (
            ("SerializationError", SerializationError), ("TypeError", TypeError), ("ValueError", ValueError),
            ("EOFError", EOFError), ("struct.error", struct.error), ("JSONDecodeError", json.JSONDecodeError),
            ("SchemaRegistryError", SchemaRegistryError), ("AttributeError", AttributeError))}
        if isinstance(exc, SchemaRegistryError):
            caught["registry"] = [exc.http_status_code, exc.error_code, exc.error_message]
        if isinstance(exc, json.JSONDecodeError):
            caught["decode"] = [exc.msg, exc.pos, exc.lineno, exc.colno]
        return {"caught as": caught, "builtin": next(c.__name__ for c in type(exc).__mro__
                                                      if c.__module__ in ("builtins", "struct"))}
    return {"ok": None}


def params(fn: Any) -> Any:
    """``fn``'s parameters as [name, kind, True if required else repr(default)], or why it has no signature."""
    import inspect

    try:
        return [[p.name, p.kind.name, p.default is inspect.Parameter.empty or repr(p.default)]
                for p in inspect.signature(fn).parameters.values()]
    except (TypeError, ValueError) as exc:
        return {"no signature": type(exc).__name__}
