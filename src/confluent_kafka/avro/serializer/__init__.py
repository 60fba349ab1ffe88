"""Errors of the legacy (deprecated) Avro message serializer."""

from __future__ import annotations

__all__ = ["SerializerError", "KeySerializerError", "ValueSerializerError"]


class SerializerError(Exception):
    """A message key or value could not be encoded or decoded.

    :param message: what went wrong (also the exception's ``str()``).
    """

    def __init__(self, message: str) -> None:
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}(error={self.message})"

    def __str__(self) -> str:
        return self.message


class KeySerializerError(SerializerError):
    """A message key could not be encoded."""


class ValueSerializerError(SerializerError):
    """A message value could not be encoded."""
