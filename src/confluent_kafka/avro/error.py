"""The error of the legacy (deprecated) Schema Registry client, :class:`ClientError`."""

from __future__ import annotations

from typing import Optional

__all__ = ["ClientError"]


class ClientError(Exception):
    """A Schema Registry request failed, or a schema could not be parsed.

    :param message: what went wrong (also the exception's ``str()``).
    :param http_code: the HTTP status of the failed request, when there was one.
    """

    def __init__(self, message: str, http_code: Optional[int] = None) -> None:
        self.message = message
        self.http_code = http_code
        super().__init__(str(self))

    def __repr__(self) -> str:
        return f"ClientError(error={self.message})"

    def __str__(self) -> str:
        return self.message
