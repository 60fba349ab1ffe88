"""A Tink KMS client whose single key is derived (HKDF-SHA256) from a secret."""

from __future__ import annotations

import hashlib
from typing import Any, Optional

from hkdf import hkdf_expand, hkdf_extract  # type: ignore[import-untyped,unused-ignore]
from tink import KmsClient, aead  # type: ignore[import-untyped,unused-ignore]
from tink.core import Registry  # type: ignore[import-untyped,unused-ignore]
from tink.proto import aes_gcm_pb2, tink_pb2  # type: ignore[import-untyped,unused-ignore]

__all__ = ["LocalKmsClient"]

aead.register()


class LocalKmsClient(KmsClient):  # type: ignore[misc]
    """Encrypts with AES-128-GCM under a key derived from ``secret``: the same secret gives the
    same key in every process (and in other Confluent clients).

    :param secret: the secret.
    :raises TypeError: when it is None.
    """

    def __init__(self, secret: Optional[str] = None) -> None:
        if secret is None:
            raise TypeError("secret cannot be None")
        key = hkdf_expand(hkdf_extract(None, secret.encode("utf-8"), hash=hashlib.sha256), length=16,
                          hash=hashlib.sha256)
        template = aead.aead_key_templates.AES128_GCM_RAW
        key_data = tink_pb2.KeyData(type_url=template.type_url,
                                    value=aes_gcm_pb2.AesGcmKey(version=0, key_value=key).SerializeToString(),
                                    key_material_type=tink_pb2.KeyData.SYMMETRIC)
        self._aead = Registry().primitive(key_data, aead.Aead)

    def does_support(self, key_uri: str) -> bool:
        """Whether ``key_uri`` is a ``local-kms://`` one."""
        return key_uri.startswith("local-kms://")

    def get_aead(self, key_uri: str) -> Any:
        """The AEAD (the same for every key URI).

        :param key_uri: the key URI.
        :returns: the ``tink.aead.Aead``.
        """
        return self._aead
