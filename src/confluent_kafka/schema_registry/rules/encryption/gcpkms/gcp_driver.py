"""The ``gcp-kms`` driver: KEKs wrapped by Google Cloud KMS. Credentials: a service account's
``client.id``, ``client.email``, ``private.key.id`` and ``private.key`` (``account.type`` must
be ``service_account``; ``token.uri`` optional), else the application default ones. Needs
``google-cloud-kms`` and ``google-auth`` (the ``rules`` extra)."""

from __future__ import annotations

from typing import Any, Dict, Optional

import tink  # type: ignore[import-untyped,unused-ignore]

from ..kms_driver_registry import _BuiltInKmsDriver, _require
from ..kms_driver_registry import KmsDriver, register_kms_driver  # noqa: F401 - upstream's module has these names
from .gcp_client import _GcpKmsClient

__all__ = ["GcpKmsDriver"]

_PREFIX = "gcp-kms://"
_ACCOUNT_TYPE = "account.type"
_CLIENT_ID = "client.id"
_CLIENT_EMAIL = "client.email"
_PRIVATE_KEY_ID = "private.key.id"
_PRIVATE_KEY = "private.key"
_TOKEN_URI = "token.uri"


class GcpKmsDriver(_BuiltInKmsDriver):
    """Makes Google Cloud KMS clients."""

    _prefix = _PREFIX

    def new_kms_client(self, conf: Dict[str, Any], key_url: Optional[str]) -> Any:
        """A client bound to ``key_url``.

        :raises tink.TinkError: for an ``account.type`` other than ``service_account``.
        :raises ImportError: when the Google Cloud packages are not installed.
        """
        account_type = conf.get(_ACCOUNT_TYPE) or "service_account"
        if account_type != "service_account":
            raise tink.TinkError("account.type must be 'service_account'")
        fields = [conf.get(k) for k in (_CLIENT_ID, _CLIENT_EMAIL, _PRIVATE_KEY_ID, _PRIVATE_KEY)]
        creds = None
        if all(f is not None for f in fields):
            service_account = _require("google.oauth2.service_account", "google-auth")
            creds = service_account.Credentials.from_service_account_info({
                "type": account_type, "client_id": fields[0], "client_email": fields[1], "private_key_id": fields[2],
                "private_key": fields[3], "token_uri": conf.get(_TOKEN_URI) or "https://oauth2.googleapis.com/token"})
        return _GcpKmsClient(key_url if key_url is not None else _PREFIX, creds)
