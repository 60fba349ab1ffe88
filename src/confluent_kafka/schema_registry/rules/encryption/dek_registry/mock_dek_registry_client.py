"""An in-process DEK registry, for tests: KEKs and DEKs live in the client's own caches."""

from __future__ import annotations

import time
from typing import Dict, Optional

from ....error import SchemaRegistryError
from .dek_registry_client import Dek, DekAlgorithm, DekId, DekRegistryClient, Kek, KekId, KekKmsProps

__all__ = ["MockDekRegistryClient"]


def _not_found() -> SchemaRegistryError:
    return SchemaRegistryError(404, 40470, "Key Not Found")


class MockDekRegistryClient(DekRegistryClient):
    """A DEK registry of the client's own (each instance has its own keys).

    :param conf: the configuration (its ``url`` is ``mock://...``).
    """

    def register_kek(self, name: str, kms_type: str, kms_key_id: str, shared: bool = False,
                     kms_props: Optional[Dict[str, str]] = None, doc: Optional[str] = None,
                     context: Optional[str] = None) -> Kek:
        key = KekId(name=name, deleted=False, context=context)
        kek = self._kek_cache.get_kek(key)
        if kek is None:
            kek = Kek(name=name, kms_type=kms_type, kms_key_id=kms_key_id,
                      kms_props=KekKmsProps.from_dict(kms_props) if kms_props is not None else None, doc=doc,
                      shared=shared)
            self._kek_cache.set(key, kek)
        return kek

    def get_kek(self, name: str, deleted: bool = False, context: Optional[str] = None) -> Kek:
        kek = self._kek_cache.get_kek(KekId(name=name, deleted=deleted, context=context))
        if kek is None:
            raise _not_found()
        return kek

    def register_dek(self, kek_name: str, subject: str, encrypted_key_material: str,
                     algorithm: DekAlgorithm = DekAlgorithm.AES256_GCM, version: int = 1) -> Dek:
        key = DekId(kek_name=kek_name, subject=subject, version=version, algorithm=algorithm, deleted=False)
        dek = self._dek_cache.get_dek(key)
        if dek is None:
            dek = Dek(kek_name=kek_name, subject=subject, version=version, algorithm=algorithm,
                      encrypted_key_material=encrypted_key_material, ts=int(round(time.time() * 1000)))
            self._dek_cache.set(key, dek)
        return dek

    def get_dek(self, kek_name: str, subject: str, algorithm: DekAlgorithm = DekAlgorithm.AES256_GCM,
                version: int = 1, deleted: bool = False) -> Dek:
        if version == -1:
            versions = [k.version for k in self._dek_cache.get_dek_ids()
                        if k.kek_name == kek_name and k.subject == subject and k.algorithm == algorithm]
            if not versions:
                raise _not_found()
            version = max(versions)
        dek = self._dek_cache.get_dek(DekId(kek_name=kek_name, subject=subject, version=version, algorithm=algorithm,
                                            deleted=False))
        if dek is None:
            raise _not_found()
        return dek
