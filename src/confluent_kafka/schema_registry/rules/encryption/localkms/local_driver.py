"""The ``local-kms`` driver: KEKs named ``local-kms://NAME`` are all one key, derived from the
rule configuration's ``secret`` (or the ``LOCAL_SECRET`` environment variable)."""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

import tink  # type: ignore[import-untyped,unused-ignore]

from ..kms_driver_registry import _BuiltInKmsDriver
from ..kms_driver_registry import KmsDriver, register_kms_driver  # noqa: F401 - upstream's module has these names
from .local_client import LocalKmsClient

__all__ = ["LocalKmsDriver"]

_PREFIX = "local-kms://"
_SECRET = "secret"


class LocalKmsDriver(_BuiltInKmsDriver):
    """Makes :class:`LocalKmsClient` s."""

    _prefix = _PREFIX

    def new_kms_client(self, conf: Dict[str, Any], key_url: Optional[str]) -> Any:
        """A client for the configured secret.

        :raises tink.TinkError: when no secret is configured.
        """
        secret = conf.get(_SECRET)
        if secret is None:
            secret = os.getenv("LOCAL_SECRET")
        if secret is None:
            raise tink.TinkError("cannot load secret")
        return LocalKmsClient(secret)
