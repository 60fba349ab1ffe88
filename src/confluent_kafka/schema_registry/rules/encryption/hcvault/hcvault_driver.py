"""The ``hcvault`` driver: KEKs wrapped by HashiCorp Vault's transit engine. Settings (or the
Vault environment variables): ``token.id`` (``VAULT_TOKEN``), ``namespace``
(``VAULT_NAMESPACE``), ``approle.role.id``/``approle.secret.id``, ``ssl.ca.location``
(``VAULT_CACERT``), ``ssl.certificate.location``/``ssl.key.location``. Needs ``hvac``."""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Tuple, Union

from ..kms_driver_registry import _BuiltInKmsDriver, _setting
from ..kms_driver_registry import KmsDriver, register_kms_driver  # noqa: F401 - upstream's module has these names
from .hcvault_client import HcVaultKmsClient

__all__ = ["HcVaultKmsDriver"]

_PREFIX = "hcvault://"
_TOKEN_ID = "token.id"
_NAMESPACE = "namespace"
_APPROLE_ROLE_ID = "approle.role.id"
_APPROLE_SECRET_ID = "approle.secret.id"
_SSL_CA_LOCATION = "ssl.ca.location"
_SSL_CERTIFICATE_LOCATION = "ssl.certificate.location"
_SSL_KEY_LOCATION = "ssl.key.location"


class HcVaultKmsDriver(_BuiltInKmsDriver):
    """Makes Vault transit clients."""

    _prefix = _PREFIX

    def new_kms_client(self, conf: Dict[str, Any], key_url: Optional[str]) -> Any:
        """A client bound to ``key_url``.

        :raises ValueError: for a client key without a client certificate.
        :raises ImportError: when hvac is not installed.
        """
        return HcVaultKmsClient(key_url if key_url is not None else _PREFIX,
                                _setting(conf, _TOKEN_ID, "VAULT_TOKEN"), _setting(conf, _NAMESPACE, "VAULT_NAMESPACE"),
                                _setting(conf, _APPROLE_ROLE_ID, "VAULT_APPROLE_ROLE_ID"),
                                _setting(conf, _APPROLE_SECRET_ID, "VAULT_APPROLE_SECRET_ID"),
                                self._get_verify(conf), self._get_cert(conf))

    @staticmethod
    def _get_verify(conf: Dict[str, Any]) -> Union[bool, str]:
        # An empty location must not turn verification off (requests reads a falsy verify so).
        location = conf.get(_SSL_CA_LOCATION) or os.getenv("VAULT_CACERT")
        return location if location else True

    @staticmethod
    def _get_cert(conf: Dict[str, Any]) -> Optional[Union[str, Tuple[str, str]]]:
        cert = _setting(conf, _SSL_CERTIFICATE_LOCATION, "VAULT_CLIENT_CERT")
        key = _setting(conf, _SSL_KEY_LOCATION, "VAULT_CLIENT_KEY")
        if key is not None and cert is None:
            raise ValueError(f"{_SSL_CERTIFICATE_LOCATION} required when configuring {_SSL_KEY_LOCATION}")
        if cert is not None and key is not None:
            return cert, key
        return cert
