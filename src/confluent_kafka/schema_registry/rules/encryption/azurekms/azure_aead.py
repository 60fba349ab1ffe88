"""An AEAD over an Azure Key Vault key (RSA-OAEP-256 wrap/unwrap).

Key Vault wraps with an explicit key version and does not say which one in its output. With
``encrypt.azure.key.version.save`` on a KEK, a wrapped key is prefixed with the version that
wrapped it, ``azure:v1:<32 hex characters>:``, so it can be unwrapped after a rotation; such a
prefix is recognized on decryption whatever the setting is now."""

from __future__ import annotations

import string
from typing import Any, Callable, Optional, Tuple

import tink  # type: ignore[import-untyped,unused-ignore]
from tink import aead  # type: ignore[import-untyped,unused-ignore]

__all__ = ["AzureKmsAead"]

_PREFIX = b"azure:v1:"
_VERSION_LENGTH = 32
_HEADER_LENGTH = len(_PREFIX) + _VERSION_LENGTH + 1


def _is_valid_version(value: Optional[str]) -> bool:
    return value is not None and len(value) == _VERSION_LENGTH and all(c in string.hexdigits for c in value)


def _extract_version(ciphertext: bytes) -> Optional[str]:
    if (len(ciphertext) < _HEADER_LENGTH or not ciphertext.startswith(_PREFIX)
            or ciphertext[_HEADER_LENGTH - 1] != ord(":")):
        return None
    return ciphertext[len(_PREFIX):len(_PREFIX) + _VERSION_LENGTH].decode("ascii", errors="replace")


class AzureKmsAead(aead.Aead):  # type: ignore[misc]
    """Wraps with ``default_client`` (or, when ``encrypt_target`` is given, with the client and
    version it resolves, prefixing the version); unwraps with the client of the embedded
    version (from ``client_factory``), else ``default_client``.

    :param default_client: an ``azure.keyvault.keys.crypto.CryptographyClient``.
    :param algorithm: the ``EncryptionAlgorithm``.
    :param encrypt_target: returns (client, version) to wrap with, or None.
    :param client_factory: a client for a key version.
    """

    def __init__(self, default_client: Any, algorithm: Any,
                 encrypt_target: Optional[Callable[[], Tuple[Any, str]]] = None,
                 client_factory: Optional[Callable[[str], Any]] = None) -> None:
        if not default_client:
            raise tink.TinkError("client cannot be null.")
        self._default_client = default_client
        self._algorithm = algorithm
        self._encrypt_target = encrypt_target
        self._client_factory = client_factory

    def encrypt(self, plaintext: bytes, associated_data: bytes) -> bytes:
        if self._encrypt_target is None:
            try:
                return bytes(self._default_client.encrypt(self._algorithm, plaintext).ciphertext)
            except ValueError as exc:
                raise tink.TinkError(exc)
        try:
            client, version = self._encrypt_target()
        except Exception as exc:  # noqa: BLE001 - reported as Tink reports KMS failures
            raise tink.TinkError(f"failed to resolve kms client for encryption: {exc}") from exc
        if not _is_valid_version(version):
            raise tink.TinkError(f"kms key version '{version}' must be a {_VERSION_LENGTH}-character hex string; "
                                 "cannot be embedded in a fixed-width azure:v1: prefix")
        try:
            wrapped = bytes(client.encrypt(self._algorithm, plaintext).ciphertext)
        except ValueError as exc:
            raise tink.TinkError(exc)
        return _PREFIX + version.encode("ascii") + b":" + wrapped

    def decrypt(self, ciphertext: bytes, associated_data: bytes) -> bytes:
        client, wrapped = self._default_client, ciphertext
        version = _extract_version(ciphertext)
        if version is not None:
            if not _is_valid_version(version):
                raise tink.TinkError(f"ciphertext carries an invalid azure:v1: key version: '{version}'")
            if self._client_factory is None:
                raise tink.TinkError("ciphertext carries a kms key version prefix, but this Aead has no client "
                                     "factory to resolve it")
            try:
                client = self._client_factory(version)
            except Exception as exc:  # noqa: BLE001
                raise tink.TinkError(f"failed to resolve kms client for embedded key version '{version}': "
                                     f"{exc}") from exc
            wrapped = ciphertext[_HEADER_LENGTH:]
        try:
            return bytes(client.decrypt(self._algorithm, wrapped).plaintext)
        except ValueError as exc:
            raise tink.TinkError(exc)
