"""The DEK registry: the Schema Registry's store of key-encryption keys (KEKs, which name a KMS
key) and data-encryption keys (DEKs, kept wrapped by their KEK), over its REST API
(``/dek-registry/v1``), with client-side caches. ``DekRegistryClient.new_client`` gives the
in-process ``mock://`` form for a ``mock://`` URL (or no URL)."""

from __future__ import annotations

import base64
import threading
import urllib.parse
from enum import Enum
from typing import Any, Dict, List, Optional, Tuple, Type, TypeVar

from attrs import define as _define
from attrs import field as _field

from ....common._document import Field, _Document, _opt, _to_dict, _value

__all__ = ["KekKmsProps", "Kek", "CreateKekRequest", "DekAlgorithm", "Dek", "CreateDekRequest", "KekId", "DekId",
           "DekRegistryClient"]

T = TypeVar("T")


@_define
class KekKmsProps(_Document):
    """A KEK's KMS properties (credentials, alternate key ids...).

    :ivar properties: the properties, by name.
    """

    properties: Dict[str, str] = _field(init=False, factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        return dict(self.properties)

    @classmethod
    def from_dict(cls: Type[T], src_dict: Dict[str, Any]) -> T:
        made = cls()
        made.properties = dict(src_dict)  # type: ignore[attr-defined]
        return made


def _props(value: Any) -> Optional[KekKmsProps]:
    return None if value is None else KekKmsProps.from_dict(value)


_KEK_FIELDS: Tuple[Field, ...] = (
    Field("name", "name"), Field("kms_type", "kmsType"), Field("kms_key_id", "kmsKeyId"),
    Field("kms_props", "kmsProps", _opt(_to_dict), _props), Field("doc", "doc"), Field("shared", "shared"))


@_define
class _KekBody(_Document):
    """The settings of a KEK, which both a KEK and its registration carry."""

    name: Optional[str]
    kms_type: Optional[str]
    kms_key_id: Optional[str]
    kms_props: Optional[KekKmsProps]
    doc: Optional[str]
    shared: Optional[bool]

    _fields = _KEK_FIELDS


@_define
class Kek(_KekBody):
    """A key-encryption key: a named KMS key (``kms_type``, ``kms_key_id``).

    :ivar name: the KEK's name.
    :ivar kms_type: its KMS (``aws-kms``, ...).
    :ivar kms_key_id: its key id in the KMS.
    :ivar kms_props: KMS properties.
    :ivar doc: a description.
    :ivar shared: whether the KMS key is shared (data keys are encrypted by the client).
    :ivar ts: when it was last changed (ms since the epoch).
    :ivar deleted: whether it is deleted.
    """

    ts: Optional[int] = _field(default=None)
    deleted: Optional[bool] = _field(default=None)

    _fields = _KEK_FIELDS + (Field("ts", "ts"), Field("deleted", "deleted"))


@_define
class CreateKekRequest(_KekBody):
    """The body of a KEK registration.

    :ivar name: the KEK's name.
    :ivar kms_type: its KMS.
    :ivar kms_key_id: its key id in the KMS.
    :ivar kms_props: KMS properties.
    :ivar doc: a description.
    :ivar shared: whether the KMS key is shared.
    """


class DekAlgorithm(str, Enum):
    """The cipher a DEK is for."""

    AES128_GCM = "AES128_GCM"
    AES256_GCM = "AES256_GCM"
    AES256_SIV = "AES256_SIV"

    def __str__(self) -> str:
        return str(self.value)


def _algorithm(value: Any) -> Optional[DekAlgorithm]:
    return None if value is None else DekAlgorithm(value)


@_define
class Dek(_Document):
    """A data-encryption key of a subject, wrapped by its KEK (``encrypted_key_material``,
    base64); ``key_material`` is the raw key once unwrapped (never sent).

    :ivar kek_name: the KEK encrypting it.
    :ivar subject: the subject it belongs to.
    :ivar version: its version.
    :ivar algorithm: its algorithm.
    :ivar encrypted_key_material: the key, encrypted by the KEK (base64).
    :ivar encrypted_key_material_bytes: the same, as bytes.
    :ivar key_material: the key itself (base64), when known.
    :ivar key_material_bytes: the same, as bytes.
    :ivar ts: when it was made (ms since the epoch).
    :ivar deleted: whether it is deleted.
    """

    kek_name: Optional[str]
    subject: Optional[str]
    version: Optional[int]
    algorithm: Optional[DekAlgorithm]
    encrypted_key_material: Optional[str]
    encrypted_key_material_bytes: Optional[bytes] = _field(init=False, eq=False, order=False, default=None)
    key_material: Optional[str] = _field(default=None)
    key_material_bytes: Optional[bytes] = _field(init=False, eq=False, order=False, default=None)
    ts: Optional[int] = _field(default=None)
    deleted: Optional[bool] = _field(default=None)
    _lock: threading.Lock = _field(factory=threading.Lock, init=False, eq=False, order=False)

    def _decoded(self, name: str) -> Optional[bytes]:
        """The base64 field ``name`` decoded, kept in the field ``name + "_bytes"`` once decoded."""
        if getattr(self, name) is None:
            return None
        kept = name + "_bytes"
        with self._lock:
            if getattr(self, kept) is None:
                setattr(self, kept, base64.b64decode(getattr(self, name)))
        decoded: Optional[bytes] = getattr(self, kept)
        return decoded

    def get_encrypted_key_material_bytes(self) -> Optional[bytes]:
        """The wrapped key, decoded.

        :returns: the bytes, or None.
        """
        return self._decoded("encrypted_key_material")

    def get_key_material_bytes(self) -> Optional[bytes]:
        """The raw key, decoded (None until unwrapped).

        :returns: the bytes, or None.
        """
        return self._decoded("key_material")

    def set_key_material(self, key_material_bytes: Optional[bytes]) -> None:
        """Keep the unwrapped raw key.

        :param key_material_bytes: the key, or None to forget it.
        """
        with self._lock:
            self.key_material_bytes = None
            self.key_material = (None if key_material_bytes is None
                                 else base64.b64encode(key_material_bytes).decode("utf-8"))

    _fields = (Field("kek_name", "kekName"), Field("subject", "subject"), Field("version", "version"),
               Field("algorithm", "algorithm", into=_algorithm),
               Field("encrypted_key_material", "encryptedKeyMaterial"), Field("key_material", "keyMaterial"),
               Field("ts", "ts"), Field("deleted", "deleted"))


@_define
class CreateDekRequest(_Document):
    """The body of a DEK registration.

    :ivar subject: the subject.
    :ivar version: the version.
    :ivar algorithm: the algorithm.
    :ivar encrypted_key_material: the encrypted key, when the client made it.
    """

    subject: Optional[str]
    version: Optional[int]
    algorithm: Optional[DekAlgorithm]
    encrypted_key_material: Optional[str]

    _fields = (Field("subject", "subject"), Field("version", "version"),
               Field("algorithm", "algorithm", _opt(_value), _algorithm),
               Field("encrypted_key_material", "encryptedKeyMaterial"))


@_define(frozen=True)
class KekId:
    """What a KEK is cached by.

    :ivar name: the KEK's name.
    :ivar deleted: whether deleted ones count.
    :ivar context: the registry context.
    """

    name: str
    deleted: bool
    context: Optional[str] = _field(default=None)


@_define(frozen=True)
class DekId:
    """What a DEK is cached by (version -1 is "the latest").

    :ivar kek_name: the KEK's name.
    :ivar subject: the subject.
    :ivar version: the version.
    :ivar algorithm: the algorithm.
    :ivar deleted: whether deleted ones count.
    """

    kek_name: str
    subject: str
    version: int
    algorithm: DekAlgorithm
    deleted: bool


class _Cache:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: Dict[Any, Any] = {}

    def set(self, key: Any, value: Any) -> None:
        with self.lock:
            self.items[key] = value

    def get(self, key: Any) -> Any:
        with self.lock:
            return self.items.get(key)

    def keys(self) -> List[Any]:
        with self.lock:
            return list(self.items)

    def remove(self, key: Any) -> None:
        with self.lock:
            self.items.pop(key, None)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


class _KekCache(_Cache):
    def get_kek(self, kek_id: KekId) -> Optional[Kek]:
        found: Optional[Kek] = self.get(kek_id)
        return found


class _DekCache(_Cache):
    def get_dek(self, dek_id: DekId) -> Optional[Dek]:
        found: Optional[Dek] = self.get(dek_id)
        return found

    def get_dek_ids(self) -> List[DekId]:
        return self.keys()


def _q(value: str) -> str:
    return urllib.parse.quote(value, safe="")


class DekRegistryClient:
    """A client of the Schema Registry's DEK registry.

    :param conf: the Schema Registry client configuration (``url``, credentials, TLS...).
    """

    def __init__(self, conf: Dict[str, Any]) -> None:
        self._conf = conf
        self._sr: Any = None
        self._kek_cache = _KekCache()
        self._dek_cache = _DekCache()

    def __enter__(self) -> "DekRegistryClient":
        return self

    def __exit__(self, *args: Any) -> None:
        if self._sr is not None:
            self._sr.close()

    def config(self) -> Dict[str, Any]:
        """The configuration the client was made with.

        :returns: the dict.
        """
        return self._conf

    def _rest(self, method: str, path: str, body: Optional[Dict[str, Any]] = None,
              query: Optional[Dict[str, Any]] = None) -> Any:
        if self._sr is None:
            from ....schema_registry_client import SchemaRegistryClient

            self._sr = SchemaRegistryClient(self._conf)
        return self._sr._run(self._sr._ops._call(method, path, body, query))

    def register_kek(self, name: str, kms_type: str, kms_key_id: str, shared: bool = False,
                     kms_props: Optional[Dict[str, str]] = None, doc: Optional[str] = None,
                     context: Optional[str] = None) -> Kek:
        """Register a KEK (or get the one already known by that name).

        :param name: its name.
        :param kms_type: the KMS (``aws-kms``, ``azure-kms``, ``gcp-kms``, ``hcvault``, ``local-kms``).
        :param kms_key_id: the key's id in that KMS.
        :param shared: whether the registry may use the KMS key itself (DEKs made server-side).
        :param kms_props: KMS properties.
        :param doc: a description.
        :param context: the Schema Registry context, or None for the default one.
        :returns: the KEK.
        :raises SchemaRegistryError: when the registry refuses it.
        """
        key = KekId(name=name, deleted=False, context=context)
        kek = self._kek_cache.get_kek(key)
        if kek is not None:
            return kek
        request = CreateKekRequest(name=name, kms_type=kms_type, kms_key_id=kms_key_id,
                                   kms_props=_props(kms_props), doc=doc, shared=shared)
        query = {"context": context} if context is not None else None
        kek = Kek.from_dict(self._rest("POST", "dek-registry/v1/keks", request.to_dict(), query))
        self._kek_cache.set(key, kek)
        return kek

    def get_kek(self, name: str, deleted: bool = False, context: Optional[str] = None) -> Kek:
        """A KEK by name.

        :param name: its name.
        :param deleted: include a deleted one.
        :param context: the Schema Registry context.
        :returns: the KEK.
        :raises SchemaRegistryError: when there is none (404).
        """
        key = KekId(name=name, deleted=deleted, context=context)
        kek = self._kek_cache.get_kek(key)
        if kek is not None:
            return kek
        query: Dict[str, Any] = {"deleted": deleted}
        if context is not None:
            query["context"] = context
        kek = Kek.from_dict(self._rest("GET", f"dek-registry/v1/keks/{_q(name)}", None, query))
        self._kek_cache.set(key, kek)
        return kek

    def register_dek(self, kek_name: str, subject: str, encrypted_key_material: str,
                     algorithm: DekAlgorithm = DekAlgorithm.AES256_GCM, version: int = 1) -> Dek:
        """Register a DEK of a subject (or get the one already known).

        :param kek_name: its KEK.
        :param subject: the subject.
        :param encrypted_key_material: the wrapped key, base64 (None for a shared KEK: the
            registry makes the key).
        :param algorithm: its cipher.
        :param version: its version.
        :returns: the DEK.
        :raises SchemaRegistryError: when the registry refuses it.
        """
        key = DekId(kek_name=kek_name, subject=subject, version=version, algorithm=algorithm, deleted=False)
        dek = self._dek_cache.get_dek(key)
        if dek is not None:
            return dek
        dek = self._create_dek(kek_name, CreateDekRequest(subject=subject, version=version, algorithm=algorithm,
                                                          encrypted_key_material=encrypted_key_material))
        self._dek_cache.set(key, dek)
        for deleted in (False, True):  # "the latest" may have changed
            self._dek_cache.remove(DekId(kek_name=kek_name, subject=subject, version=-1, algorithm=algorithm,
                                         deleted=deleted))
        return dek

    def _create_dek(self, kek_name: str, request: CreateDekRequest) -> Dek:
        from ....error import SchemaRegistryError

        if request.subject is None:
            raise TypeError("Subject cannot be None")
        try:
            answer = self._rest("POST", f"dek-registry/v1/keks/{_q(kek_name)}/deks/{_q(request.subject)}",
                                request.to_dict())
        except SchemaRegistryError as exc:
            if exc.http_status_code != 405:
                raise
            # Older registries take the subject in the body only.
            answer = self._rest("POST", f"dek-registry/v1/keks/{_q(kek_name)}/deks", request.to_dict())
        dek: Dek = Dek.from_dict(answer)
        return dek

    def get_dek(self, kek_name: str, subject: str, algorithm: DekAlgorithm = DekAlgorithm.AES256_GCM,
                version: int = 1, deleted: bool = False) -> Dek:
        """A DEK of a subject (version -1 for the latest).

        :param kek_name: its KEK.
        :param subject: the subject.
        :param algorithm: its cipher.
        :param version: its version.
        :param deleted: include a deleted one.
        :returns: the DEK.
        :raises SchemaRegistryError: when there is none (404).
        """
        key = DekId(kek_name=kek_name, subject=subject, version=version, algorithm=algorithm, deleted=deleted)
        dek = self._dek_cache.get_dek(key)
        if dek is not None:
            return dek
        answer = self._rest("GET", f"dek-registry/v1/keks/{_q(kek_name)}/deks/{_q(subject)}/versions/{version}",
                            None, {"algorithm": str(algorithm), "deleted": deleted})
        dek = Dek.from_dict(answer)
        self._dek_cache.set(key, dek)
        return dek

    @staticmethod
    def new_client(conf: Dict[str, Any]) -> "DekRegistryClient":
        """A client for ``conf['url']``: the in-process mock for ``mock://`` (or no URL).

        :param conf: the configuration.
        :returns: the client.
        """
        from .mock_dek_registry_client import MockDekRegistryClient

        url = conf.get("url")
        if url is None:
            return MockDekRegistryClient({"url": "mock://"})
        if isinstance(url, str) and url.startswith("mock://"):
            return MockDekRegistryClient(conf)
        return DekRegistryClient(conf)
