"""Serializers and deserializers for message keys and values.

A :class:`Serializer` turns a Python object into the ``bytes`` that are produced; a
:class:`Deserializer` turns consumed ``bytes`` back into an object. Both are callables taking
``(obj, ctx)``, where ``ctx`` is a :class:`SerializationContext` saying which topic and which
field (key or value) is being handled. :class:`~confluent_kafka.SerializingProducer` and
:class:`~confluent_kafka.DeserializingConsumer` call them for every message.

Every serializer here maps ``None`` to ``None`` (a null key or value, e.g. a tombstone) and
reports bad input with :class:`SerializationError`.
"""

from __future__ import annotations

import struct
from typing import Any, Optional, Tuple

from ..cimpl import KafkaException

__all__ = [
    "Deserializer",
    "DoubleDeserializer",
    "DoubleSerializer",
    "IntegerDeserializer",
    "IntegerSerializer",
    "JsonDeserializer",
    "JsonSerializer",
    "MessageField",
    "SerializationContext",
    "SerializationError",
    "Serializer",
    "StringDeserializer",
    "StringSerializer",
]


class SerializationError(KafkaException):
    """A key or value could not be serialized or deserialized."""


class MessageField:
    """Which part of a message a serializer is working on (plain string constants)."""

    #: Neither the key nor the value.
    NONE = "none"
    #: The message key.
    KEY = "key"
    #: The message value.
    VALUE = "value"


class SerializationContext:
    """What a serializer is told about the message it works on.

    :param topic: the topic the message is produced to or was consumed from.
    :param field: :attr:`MessageField.KEY` or :attr:`MessageField.VALUE`.
    :param headers: the message headers, as given to ``produce()`` or as consumed.
    """

    # A dict, so that each attribute carries its documentation.
    __slots__ = {
        "topic": "The topic the message is produced to or was consumed from.",
        "field": "Which part of the message: :attr:`MessageField.KEY` or :attr:`MessageField.VALUE`.",
        "headers": "The message headers, as given to ``produce()`` or as consumed (None if none).",
    }

    def __init__(self, topic: Optional[str], field: str, headers: Optional[Any] = None) -> None:
        self.topic = topic
        self.field = field
        self.headers = headers

    def __repr__(self) -> str:
        return f"SerializationContext(topic={self.topic!r}, field={self.field!r}, headers={self.headers!r})"


class Serializer:
    """Base class of serializers: ``serializer(obj, ctx) -> bytes | None``.

    Subclasses implement :meth:`__call__`; any callable with that signature can be used
    wherever a serializer is expected.
    """

    __slots__: Tuple[str, ...] = ()

    def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """Serialize ``obj``; raise :class:`SerializationError` when it cannot be."""
        raise NotImplementedError


class Deserializer:
    """Base class of deserializers: ``deserializer(value, ctx) -> object``.

    Subclasses implement :meth:`__call__`; any callable with that signature can be used
    wherever a deserializer is expected.
    """

    __slots__: Tuple[str, ...] = ()

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        """Deserialize ``value``; raise :class:`SerializationError` when it cannot be."""
        raise NotImplementedError


def _bytes_of(value: Any, what: str) -> bytes:
    """``value`` as bytes, or SerializationError naming ``what`` was expected."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise SerializationError(f"{what} expects bytes, got {type(value).__name__}")


class _StructSerializer(Serializer):
    """Packs one number with a fixed struct format (network byte order).

    Accepts whatever :mod:`struct` accepts for the format (so numpy scalars work too).
    """

    __slots__ = ()
    _format: struct.Struct

    def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        if obj is None:
            return None
        try:
            return self._format.pack(obj)
        except (struct.error, TypeError, OverflowError) as e:
            raise SerializationError(f"{type(self).__name__} cannot serialize {obj!r}: {e}") from e


class _StructDeserializer(Deserializer):
    """Unpacks one number with a fixed struct format (network byte order)."""

    __slots__ = ()
    _format: struct.Struct

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        if value is None:
            return None
        data = _bytes_of(value, type(self).__name__)
        if len(data) != self._format.size:
            raise SerializationError(
                f"{type(self).__name__} expects {self._format.size} bytes, got {len(data)}")
        return self._format.unpack(data)[0]


class IntegerSerializer(_StructSerializer):
    """Serializes an ``int`` as a 32-bit signed big-endian integer (Java's IntegerSerializer)."""

    __slots__ = ()
    _format = struct.Struct(">i")

    def __call__(self, obj: Optional[int], ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """The four bytes of ``obj``; SerializationError if it is not an int in range."""
        return super().__call__(obj, ctx)


class IntegerDeserializer(_StructDeserializer):
    """Reads a 32-bit signed big-endian integer (Java's IntegerDeserializer)."""

    __slots__ = ()
    _format = struct.Struct(">i")

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Optional[int]:
        """The int held in the four bytes of ``value``."""
        result: Optional[int] = super().__call__(value, ctx)
        return result


class DoubleSerializer(_StructSerializer):
    """Serializes a ``float`` (or int) as an IEEE 754 binary64 big-endian (Java's DoubleSerializer)."""

    __slots__ = ()
    _format = struct.Struct(">d")

    def __call__(self, obj: Optional[float], ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """The eight bytes of ``obj``."""
        return super().__call__(obj, ctx)


class DoubleDeserializer(_StructDeserializer):
    """Reads an IEEE 754 binary64 big-endian (Java's DoubleDeserializer)."""

    __slots__ = ()
    _format = struct.Struct(">d")

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Optional[float]:
        """The float held in the eight bytes of ``value``."""
        result: Optional[float] = super().__call__(value, ctx)
        return result


class StringSerializer(Serializer):
    """Encodes a ``str`` with a codec (UTF-8 by default; any name :mod:`codecs` knows)."""

    __slots__ = {"codec": "The name of the codec that encodes the strings, e.g. ``utf_8``."}

    def __init__(self, codec: str = "utf_8") -> None:
        import codecs

        codecs.lookup(codec)  # an unknown codec fails here, not on the first message
        self.codec = codec

    def __call__(self, obj: Optional[str], ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """``obj`` encoded; SerializationError if it is not a str or cannot be encoded."""
        if obj is None:
            return None
        if not isinstance(obj, str):
            raise SerializationError(f"StringSerializer expects a str, got {type(obj).__name__}")
        try:
            return obj.encode(self.codec)
        except UnicodeError as e:
            raise SerializationError(f"StringSerializer({self.codec!r}): {e}") from e


class StringDeserializer(Deserializer):
    """Decodes bytes with a codec (UTF-8 by default) into a ``str``."""

    __slots__ = {"codec": "The name of the codec that decodes the bytes, e.g. ``utf_8``."}

    def __init__(self, codec: str = "utf_8") -> None:
        import codecs

        codecs.lookup(codec)
        self.codec = codec

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Optional[str]:
        """``value`` decoded; SerializationError if it is not valid in the codec."""
        if value is None:
            return None
        data = _bytes_of(value, "StringDeserializer")
        try:
            return data.decode(self.codec)
        except UnicodeError as e:
            raise SerializationError(f"StringDeserializer({self.codec!r}): {e}") from e


from ._json import JsonDeserializer, JsonSerializer  # noqa: E402  (needs the classes above)
