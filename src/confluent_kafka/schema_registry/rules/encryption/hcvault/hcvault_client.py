"""A Tink KMS client on HashiCorp Vault's transit engine
(``hcvault://VAULT_HOST[:PORT]/transit/keys/NAME``)."""

from __future__ import annotations

from typing import Any, Optional, Tuple, Union
from urllib.parse import urlparse

from .._bound_kms_client import _BoundKmsClient
from ..kms_driver_registry import _require

__all__ = ["VAULT_KEYURI_PREFIX", "HcVaultKmsClient"]

VAULT_KEYURI_PREFIX = "hcvault://"


class HcVaultKmsClient(_BoundKmsClient):
    """Bound to one key URI; logs in with a token, or with AppRole when a role and secret id are
    given.

    :param key_uri: the key URI.
    :param token: the Vault token.
    :param ns: the Vault namespace.
    :param role_id: the AppRole role id.
    :param secret_id: the AppRole secret id.
    :param verify: TLS verification: True, or a CA bundle path.
    :param cert: a client certificate (path, or (certificate, key) paths).
    :raises tink.TinkError: for a URI of another KMS.
    """

    _prefix = VAULT_KEYURI_PREFIX

    def __init__(self, key_uri: str, token: Optional[str], ns: Optional[str] = None, role_id: Optional[str] = None,
                 secret_id: Optional[str] = None, verify: Union[bool, str] = True,
                 cert: Optional[Union[str, Tuple[str, str]]] = None) -> None:
        key_id = self._key_id(key_uri)
        self._key_uri = key_uri
        hvac = _require("hvac", "hvac")
        parsed = urlparse(key_id)
        self._client = hvac.Client(url=f"{parsed.scheme}://{parsed.netloc}", token=token, namespace=ns,
                                   verify=verify, cert=cert)
        if role_id and secret_id:
            self._client.auth.approle.login(role_id=role_id, secret_id=secret_id)

    def get_aead(self, key_uri: str) -> Any:
        """The AEAD encrypting with the HashiCorp Vault key ``key_uri``.

        :param key_uri: the key URI.
        :returns: the AEAD.
        :raises tink.TinkError: for a key URI this client does not handle."""
        key_id = self._usable_key_id(key_uri)
        from tink.integration.hcvault import new_aead  # type: ignore[import-untyped,unused-ignore]

        return new_aead(urlparse(key_id).path, self._client)
