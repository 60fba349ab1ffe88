"""A JSON serializer pair on the standard library's :mod:`json` (no Schema Registry)."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Optional

from . import Deserializer, SerializationContext, SerializationError, Serializer, _bytes_of


class JsonSerializer(Serializer):
    """Serializes any JSON-representable object to compact UTF-8 JSON.

    :param default: called for objects :mod:`json` cannot encode; returns something it can
        (as ``json.dumps(default=...)``).
    :param sort_keys: write object keys in sorted order (stable output for equal dicts).
    :param allow_nan: write ``NaN``/``Infinity`` (valid in Python, rejected by most other JSON
        parsers); by default they raise :class:`SerializationError`.
    """

    __slots__ = ("_encoder",)

    def __init__(self, *, default: Optional[Callable[[Any], Any]] = None, sort_keys: bool = False,
                 allow_nan: bool = False) -> None:
        self._encoder = json.JSONEncoder(default=default, sort_keys=sort_keys, allow_nan=allow_nan,
                                         ensure_ascii=False, separators=(",", ":"))

    def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """``obj`` as UTF-8 JSON, or None for None (a null message, not the JSON ``null``)."""
        if obj is None:
            return None
        try:
            return self._encoder.encode(obj).encode("utf-8")
        except (TypeError, ValueError, RecursionError) as e:
            raise SerializationError(f"JsonSerializer cannot serialize {type(obj).__name__}: {e}") from e


class JsonDeserializer(Deserializer):
    """Parses UTF-8 JSON bytes into Python objects.

    :param object_hook: called with every decoded JSON object (a dict); its return value is
        used instead (as ``json.loads(object_hook=...)``), e.g. to build dataclasses.
    :param parse_float: called with the text of every JSON float, e.g. ``decimal.Decimal``.
    """

    __slots__ = ("_decoder",)

    def __init__(self, *, object_hook: Optional[Callable[[Dict[str, Any]], Any]] = None,
                 parse_float: Optional[Callable[[str], Any]] = None) -> None:
        self._decoder = json.JSONDecoder(object_hook=object_hook, parse_float=parse_float)

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        """The object encoded in ``value``, or None for a null message."""
        if value is None:
            return None
        data = _bytes_of(value, "JsonDeserializer")
        try:
            return self._decoder.decode(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            raise SerializationError(f"JsonDeserializer: not valid UTF-8 JSON: {e}") from e
