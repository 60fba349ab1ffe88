"""A Tink KMS client for Azure Key Vault keys (``azure-kms://https://VAULT/keys/NAME[/VERSION]``)."""

from __future__ import annotations

import logging
from typing import Any, Callable, Dict, Optional, Tuple

import tink  # type: ignore[import-untyped,unused-ignore]

from .._bound_kms_client import _BoundKmsClient
from ..kms_driver_registry import _require
from .azure_aead import AzureKmsAead

__all__ = ["AZURE_KEYURI_PREFIX", "AzureKmsClient"]

AZURE_KEYURI_PREFIX = "azure-kms://"

log = logging.getLogger(__name__)


def _driver() -> Any:
    # Imported when used: azure_driver imports this module (it re-exports AzureKmsClient), so
    # importing it here at load time would fail when this module is imported first.
    from . import azure_driver

    return azure_driver


class AzureKmsClient(_BoundKmsClient):
    """Bound to one key URI.

    :param key_uri: the key URI.
    :param credentials: an Azure ``TokenCredential``.
    :param conf: the rule configuration with the KEK's KMS properties.
    :raises tink.TinkError: for a URI of another KMS.
    """

    _prefix = AZURE_KEYURI_PREFIX

    def __init__(self, key_uri: str, credentials: Any, conf: Optional[Dict[str, Any]] = None) -> None:
        self._key_id(key_uri)
        self._key_uri = key_uri
        self._credentials = credentials
        self._conf = conf if conf is not None else {}

    def get_aead(self, key_uri: str) -> Any:
        """The AEAD encrypting with the Azure Key Vault key ``key_uri``.

        :param key_uri: the key URI.
        :returns: the AEAD.
        :raises tink.TinkError: for a key URI this client does not handle."""
        key_id = self._usable_key_id(key_uri)
        crypto = _require("azure.keyvault.keys.crypto", "azure-keyvault-keys")
        save = str(self._conf.get(_driver().ENCRYPT_AZURE_KEY_VERSION_SAVE, False)).lower() == "true"
        if not save:
            try:
                if _driver().is_versionless(key_id):
                    log.warning("Azure Key Vault key '%s' is versionless and %s is not enabled; DEKs wrapped with "
                                "it may become undecryptable after the key is rotated.", key_id,
                                _driver().ENCRYPT_AZURE_KEY_VERSION_SAVE)
            except tink.TinkError:
                pass  # a malformed id fails where it is used

        def client_for(version: str) -> Any:
            return crypto.CryptographyClient(_driver().with_version(key_id, version), self._credentials)

        target: Optional[Callable[[], Tuple[Any, str]]] = None
        if save:
            def target() -> Tuple[Any, str]:
                version = _driver().get_versioned_key_id(self._conf, key_id).rsplit("/", 1)[-1]
                return client_for(version), version

        return AzureKmsAead(crypto.CryptographyClient(key_id, self._credentials),
                            crypto.EncryptionAlgorithm.rsa_oaep_256, target, client_for)
