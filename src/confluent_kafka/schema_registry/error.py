"""The errors of the Schema Registry clients."""

from __future__ import annotations

from typing import Any, Optional

try:
    from fastavro.schema import SchemaParseException, UnknownType

    # fastavro's own classes, re-exported as upstream does; they carry no docstring of their own.
    if not SchemaParseException.__doc__:
        SchemaParseException.__doc__ = "fastavro's error for an Avro schema that does not parse."
    if not UnknownType.__doc__:
        UnknownType.__doc__ = "fastavro's error for an Avro schema naming a type it does not define."
except ImportError:  # pragma: no cover - without the avro extra
    pass

__all__ = ["SchemaRegistryError", "OAuthTokenError", "SchemaParseException", "UnknownType"]


class SchemaRegistryError(Exception):
    """An error answer of a Schema Registry.

    :param http_status_code: the HTTP status.
    :param error_code: the registry's error code (``-1`` when the answer was not one the
        registry makes, such as an HTML page of a proxy).
    :param error_message: the registry's message.
    """

    #: The error code of an answer that carried none.
    UNKNOWN = -1

    def __init__(self, http_status_code: int, error_code: int, error_message: str) -> None:
        self.http_status_code = http_status_code
        self.error_code = error_code
        self.error_message = error_message

    def __repr__(self) -> str:
        return str(self)

    def __str__(self) -> str:
        return "{} (HTTP status code {}, SR code {})".format(self.error_message, self.http_status_code,
                                                             self.error_code)

    def __reduce__(self) -> Any:
        return (type(self), (self.http_status_code, self.error_code, self.error_message))


class OAuthTokenError(Exception):
    """An OAuth token could not be fetched.

    :param message: what failed.
    :param status_code: the HTTP status of the token endpoint's answer, if any.
    :param response_text: the text of that answer, if any.
    """

    def __init__(self, message: str, status_code: Optional[int] = None, response_text: Optional[str] = None) -> None:
        self.message = message
        self.status_code = status_code
        self.response_text = response_text
        super().__init__(f"{message} (HTTP {status_code}): {response_text}")
