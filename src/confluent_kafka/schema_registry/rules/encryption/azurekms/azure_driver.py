"""The ``azure-kms`` driver: KEKs wrapped by Azure Key Vault keys. Credentials: ``tenant.id``,
``client.id`` and ``client.secret``, else Azure's default chain. Needs ``azure-identity`` and
``azure-keyvault-keys`` (the ``rules`` extra)."""

from __future__ import annotations

from typing import Any, Dict, NamedTuple, Optional
from urllib.parse import urlparse

from tink import TinkError  # type: ignore[import-untyped,unused-ignore]

from ..kms_driver_registry import _BuiltInKmsDriver, _require
from ..kms_driver_registry import KmsDriver, register_kms_driver  # noqa: F401 - upstream's module has these names

__all__ = ["AzureKmsDriver", "ENCRYPT_AZURE_KEY_VERSION_SAVE", "is_versionless", "with_version",
           "get_versioned_key_id"]

_PREFIX = "azure-kms://"
_TENANT_ID = "tenant.id"
_CLIENT_ID = "client.id"
_CLIENT_SECRET = "client.secret"

#: A KEK KMS property: prefix each wrapped DEK with the Key Vault key version that wrapped it.
ENCRYPT_AZURE_KEY_VERSION_SAVE = "encrypt.azure.key.version.save"


class _KeyVaultId(NamedTuple):
    vault_url: str
    name: str
    version: Optional[str]


def _parse(kms_key_id: str) -> _KeyVaultId:
    parsed = urlparse(kms_key_id)
    segments = [s for s in parsed.path.split("/") if s]
    if not parsed.scheme or not parsed.netloc or not 2 <= len(segments) <= 3 or segments[0] != "keys":
        raise TinkError(f"invalid Azure Key Vault key id: {kms_key_id}")
    return _KeyVaultId(f"{parsed.scheme}://{parsed.netloc}", segments[1], segments[2] if len(segments) == 3 else None)


def is_versionless(kms_key_id: str) -> bool:
    """Whether a key id names no version.

    :param kms_key_id: ``https://VAULT/keys/NAME[/VERSION]``.
    :returns: True without a version.
    :raises tink.TinkError: for a malformed id.
    """
    return _parse(kms_key_id).version is None


def with_version(kms_key_id: str, version: str) -> str:
    """The id of ``version`` of the key ``kms_key_id`` names.

    :param kms_key_id: a key id, with or without version.
    :param version: the version.
    :returns: the versioned id.
    """
    parsed = _parse(kms_key_id)
    return f"{parsed.vault_url}/keys/{parsed.name}/{version}"


def get_versioned_key_id(conf: Dict[str, Any], kms_key_id: str) -> str:
    """The id of the key's current version (asking Key Vault when the id names none).

    :param conf: the credentials.
    :param kms_key_id: the key id.
    :returns: the versioned id.
    :raises tink.TinkError: when Key Vault cannot say.
    """
    parsed = _parse(kms_key_id)
    if parsed.version is not None:
        return kms_key_id
    keys = _require("azure.keyvault.keys", "azure-keyvault-keys")
    client = keys.KeyClient(vault_url=parsed.vault_url, credential=_get_credentials(conf))
    failure = f"Failed to resolve Azure Key Vault key id for key name '{parsed.name}' in vault {parsed.vault_url}"
    try:
        key = client.get_key(parsed.name)
    except Exception as exc:  # noqa: BLE001 - reported as Tink reports KMS failures
        raise TinkError(failure) from exc
    if key is None or key.id is None:
        raise TinkError(failure)
    if _parse(key.id).version is None:
        raise TinkError(f"resolved Azure Key Vault key id is missing a version segment: {key.id}")
    return str(key.id)


def _get_credentials(conf: Dict[str, Any]) -> Any:
    identity = _require("azure.identity", "azure-identity")
    tenant, client, secret = conf.get(_TENANT_ID), conf.get(_CLIENT_ID), conf.get(_CLIENT_SECRET)
    if tenant is not None and client is not None and secret is not None:
        return identity.ClientSecretCredential(tenant, client, secret)
    return identity.DefaultAzureCredential()


class AzureKmsDriver(_BuiltInKmsDriver):
    """Makes Azure Key Vault clients."""

    _prefix = _PREFIX

    def new_kms_client(self, conf: Dict[str, Any], key_url: Optional[str]) -> Any:
        """A client bound to ``key_url``.

        :raises ImportError: when the Azure packages are not installed.
        """
        return AzureKmsClient(key_url if key_url is not None else _PREFIX, _get_credentials(conf), conf)


from .azure_client import AzureKmsClient  # noqa: E402 - it uses this module's helpers
