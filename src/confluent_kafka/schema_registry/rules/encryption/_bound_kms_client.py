"""What this package's Tink KMS clients for a cloud KMS share: the key URI prefix they serve,
and the key URI they are bound to."""

from __future__ import annotations

from typing import Optional

import tink  # type: ignore[import-untyped,unused-ignore]


class _BoundKmsClient(tink.KmsClient):  # type: ignore[misc]
    """A client for the key URIs starting with ``_prefix``, bound to one of them (``_key_uri``),
    or serving any when that is empty. A subclass sets both and writes ``get_aead``."""

    _prefix = ""
    _key_uri: Optional[str] = None

    @classmethod
    def _key_id(cls, key_uri: str) -> str:
        """What follows the prefix in ``key_uri``.

        :param key_uri: the key URI.
        :returns: the KMS's own id of the key.
        :raises tink.TinkError: for a URI of another KMS."""
        if not key_uri.startswith(cls._prefix):
            raise tink.TinkError("Invalid key_uri.")
        return key_uri[len(cls._prefix):]

    def _usable_key_id(self, key_uri: str) -> str:
        """:meth:`_key_id` of a key URI this client handles.

        :param key_uri: the key URI.
        :returns: the KMS's own id of the key.
        :raises tink.TinkError: for a key URI this client does not handle."""
        if self._key_uri and self._key_uri != key_uri:
            raise tink.TinkError(f"This client is bound to {self._key_uri} and cannot use key {key_uri}")
        return self._key_id(key_uri)

    def does_support(self, key_uri: str) -> bool:
        """Whether this client handles ``key_uri``: a key URI of its KMS, and its own one when bound.

        :param key_uri: the key URI.
        :returns: whether it does."""
        if not self._key_uri:
            return key_uri.startswith(self._prefix)
        return key_uri == self._key_uri
