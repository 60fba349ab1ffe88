"""A Tink KMS client for Google Cloud KMS (``gcp-kms://projects/.../cryptoKeys/...``)."""

from __future__ import annotations

from typing import Any, Optional

from .._bound_kms_client import _BoundKmsClient
from ..kms_driver_registry import _require

__all__ = ["GCP_KEYURI_PREFIX", "_GcpKmsClient"]

GCP_KEYURI_PREFIX = "gcp-kms://"


class _GcpKmsClient(_BoundKmsClient):
    """Bound to one key URI (or any ``gcp-kms://`` one when None).

    :param key_uri: the key URI.
    :param credentials: service-account credentials, or None for the default ones.
    :raises tink.TinkError: for a URI of another KMS.
    """

    _prefix = GCP_KEYURI_PREFIX

    def __init__(self, key_uri: Optional[str], credentials: Any) -> None:
        if key_uri:
            self._key_id(key_uri)
        self._key_uri = key_uri or None
        kms_v1 = _require("google.cloud.kms_v1", "google-cloud-kms")
        self._client = kms_v1.KeyManagementServiceClient(credentials=credentials)

    def get_aead(self, key_uri: str) -> Any:
        """The AEAD encrypting with the Google Cloud KMS key ``key_uri``.

        :param key_uri: the key URI.
        :returns: the AEAD.
        :raises tink.TinkError: for a key URI this client does not handle."""
        key_id = self._usable_key_id(key_uri)
        from tink.integration.gcpkms._gcp_kms_client import _GcpKmsAead  # type: ignore[import-untyped,unused-ignore]

        return _GcpKmsAead(self._client, key_id)
