"""``kafka.serializer``: the serializer interfaces and the default/JSON implementations."""
from __future__ import annotations

import json as _json  # not "json": the kafka.serializer.json submodule takes that name
from abc import ABC, abstractmethod
from typing import Any, Callable, List, Optional, Tuple

__all__ = ["Serializer", "Deserializer", "DefaultSerializer", "JsonSerializer",
           "SerializeWrapper", "DeserializeWrapper"]

Headers = List[Tuple[str, bytes]]


class Serializer(ABC):
    """Turns a value into bytes before it is sent."""

    @abstractmethod
    def serialize(self, topic: str, headers: Headers, data: Any) -> Optional[bytes]:
        """Return the bytes for ``data``.

        :param topic: the destination topic.
        :param headers: the record's headers (may be changed).
        :param data: the key or value given to ``send()``.
        :returns: the serialized bytes, or None.
        """

    def close(self) -> None:
        """Release resources; called when the client closes."""


class Deserializer(ABC):
    """Turns received bytes into a value."""

    @abstractmethod
    def deserialize(self, topic: str, headers: Headers, data: Optional[bytes]) -> Any:
        """Return the value for ``data``.

        :param topic: the topic the record came from.
        :param headers: the record's headers.
        :param data: the raw key or value (None when absent).
        :returns: the deserialized value.
        """

    def close(self) -> None:
        """Release resources; called when the client closes."""


class DefaultSerializer(Serializer, Deserializer):
    """Passes bytes through and encodes/decodes text with ``encoding``."""

    def __init__(self, encoding: str = "utf-8") -> None:
        self.encoding = encoding

    def serialize(self, topic: str, headers: Headers, data: Any) -> Optional[bytes]:
        if data is None or isinstance(data, (bytes, bytearray, memoryview)):
            return data  # type: ignore[return-value]
        return str(data).encode(self.encoding) if not isinstance(data, str) else data.encode(self.encoding)

    def deserialize(self, topic: str, headers: Headers, data: Optional[bytes]) -> Any:
        return None if data is None else data.decode(self.encoding)


class JsonSerializer(DefaultSerializer):
    """JSON text in ``encoding``; None stays None."""

    def serialize(self, topic: str, headers: Headers, data: Any) -> Optional[bytes]:
        return None if data is None else _json.dumps(data).encode(self.encoding)

    def deserialize(self, topic: str, headers: Headers, data: Optional[bytes]) -> Any:
        return None if data is None else _json.loads(data.decode(self.encoding))


class SerializeWrapper(Serializer):
    """Adapts a plain ``fn(data) -> bytes`` to :class:`Serializer`."""

    def __init__(self, fn: Optional[Callable[[Any], Any]]) -> None:
        self.fn = fn

    def serialize(self, topic: str, headers: Headers, data: Any) -> Any:
        return data if self.fn is None else self.fn(data)


class DeserializeWrapper(Deserializer):
    """Adapts a plain ``fn(bytes) -> value`` to :class:`Deserializer`."""

    def __init__(self, fn: Optional[Callable[[Any], Any]]) -> None:
        self.fn = fn

    def deserialize(self, topic: str, headers: Headers, data: Optional[bytes]) -> Any:
        return data if self.fn is None else self.fn(data)
