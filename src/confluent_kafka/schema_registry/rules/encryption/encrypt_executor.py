"""Encryption rules: ``ENCRYPT`` (:class:`FieldEncryptionExecutor`) encrypts each string or bytes
field the rule's tags select; ``ENCRYPT_PAYLOAD`` (:class:`EncryptionExecutor`, an encoding
rule) encrypts the whole encoded record.

Each subject's data key (DEK) is kept by the DEK registry wrapped by a key-encryption key (KEK)
of a KMS; the rule names the KEK with ``encrypt.kek.name`` and, for the producer that creates
it, the KMS with ``encrypt.kms.type`` and ``encrypt.kms.key.id`` (rule parameters or schema
metadata properties). ``encrypt.dek.algorithm`` picks AES256_GCM (the default), AES128_GCM or
the deterministic AES256_SIV; ``encrypt.dek.expiry.days`` rotates DEKs, prefixing each
ciphertext with its DEK version. An encrypted string field holds base64 text.

The KMS driver of the KEK's type must be registered (e.g. ``LocalKmsDriver.register()``);
KMS credentials come from the serde's ``rule_conf`` and the KEK's KMS properties.
"""

from __future__ import annotations

import base64
import io
import logging
import threading
import time
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Type, TypeVar

from tink import KmsClient, TinkError, aead, daead, kms_client_from_uri, register_kms_client  # type: ignore[import-untyped,unused-ignore]
from tink.core import Registry  # type: ignore[import-untyped,unused-ignore]
from tink.proto import aes_siv_pb2, tink_pb2  # type: ignore[import-untyped,unused-ignore]

from ... import _MAGIC_BYTE_V0
from ...common.schema_registry_client import RuleMode
from ...common.serde import FieldContext, FieldRuleExecutor, FieldTransform, FieldType, RuleContext, RuleError, \
    RuleExecutor
from ...error import SchemaRegistryError
from ...rule_registry import RuleRegistry
from .dek_registry.dek_registry_client import Dek, DekAlgorithm, DekId, DekRegistryClient, Kek, KekId
from .kms_driver_registry import KmsDriver, get_kms_driver

__all__ = ["ENCRYPT_KEK_NAME", "ENCRYPT_KMS_KEY_ID", "ENCRYPT_KMS_TYPE", "ENCRYPT_DEK_ALGORITHM",
           "ENCRYPT_DEK_EXPIRY_DAYS", "ENCRYPT_ALTERNATE_KMS_KEY_IDS", "Clock", "EncryptionExecutor", "Cryptor",
           "EncryptionExecutorTransform", "AeadWrapper", "FieldEncryptionExecutor",
           "FieldEncryptionExecutorTransform"]

log = logging.getLogger(__name__)

aead.register()
daead.register()

ENCRYPT_KEK_NAME = "encrypt.kek.name"
ENCRYPT_KMS_KEY_ID = "encrypt.kms.key.id"
ENCRYPT_KMS_TYPE = "encrypt.kms.type"
ENCRYPT_DEK_ALGORITHM = "encrypt.dek.algorithm"
ENCRYPT_DEK_EXPIRY_DAYS = "encrypt.dek.expiry.days"
ENCRYPT_ALTERNATE_KMS_KEY_IDS = "encrypt.alternate.kms.key.ids"

MILLIS_IN_DAY = 24 * 60 * 60 * 1000


def _context_for(subject: Optional[str]) -> Optional[str]:
    """The Schema Registry context of a qualified subject (``:.ctx:subject``), None for the
    default context or an unqualified subject."""
    if subject is None or not subject.startswith(":."):
        return None
    rest = subject[2:]
    end = rest.find(":")
    context = subject[1:end + 2] if end >= 0 else subject[1:]
    return None if context == "." else context


class Clock:
    """Milliseconds since the epoch (replaceable in tests, for DEK expiry)."""

    def now(self) -> int:
        """The current time.

        :returns: milliseconds since the epoch."""
        return int(round(time.time() * 1000))


_E = TypeVar("_E", bound="_Registered")


class _Registered(RuleExecutor):
    """``register`` and ``register_with_clock`` of the two encryption executors."""

    if TYPE_CHECKING:
        def __init__(self, clock: Clock = ...) -> None: ...

    @classmethod
    def register(cls) -> None:
        """Register an executor of this class in the global rule registry."""
        RuleRegistry.register_rule_executor(cls())

    @classmethod
    def register_with_clock(cls: Type[_E], clock: Clock) -> _E:
        """Register one with a given clock.

        :param clock: the time source.
        :returns: the executor.
        """
        executor = cls(clock)
        RuleRegistry.register_rule_executor(executor)
        return executor


class EncryptionExecutor(_Registered):
    """The ``ENCRYPT_PAYLOAD`` executor (an encoding rule on the encoded record), and the engine
    of :class:`FieldEncryptionExecutor`.

    :param clock: the time source.
    """

    def __init__(self, clock: Clock = Clock()) -> None:
        self.client: Optional[DekRegistryClient] = None
        self.config: Optional[Dict[str, Any]] = None
        self.clock = clock
        self._lock = threading.Lock()

    def configure(self, client_conf: Dict[str, Any], rule_conf: Dict[str, Any]) -> None:
        """Make the DEK registry client from the serde's Schema Registry configuration, and
        merge ``rule_conf`` (KMS credentials...).

        :raises RuleError: when configured again with another registry, or with another value
            for a key already set.
        """
        with self._lock:
            if client_conf:
                if self.client is not None:
                    if self.client.config() != client_conf:
                        raise RuleError("executor already configured")
                else:
                    self.client = DekRegistryClient.new_client(client_conf)
            if self.config:
                for key, value in (rule_conf or {}).items():
                    known = self.config.get(key)
                    if known is None:
                        self.config[key] = value
                    elif known != value:
                        raise RuleError(f"rule config key already set: {key}")
            else:
                self.config = rule_conf if rule_conf else {}

    def type(self) -> str:
        return "ENCRYPT_PAYLOAD"

    def transform(self, ctx: RuleContext, message: Any) -> Any:
        """Encrypt (WRITE) or decrypt (READ) the encoded record.

        :param ctx: the rule context.
        :param message: the payload (bytes, or the rest of a framed payload on read).
        :returns: the new payload.
        """
        return self.new_transform(ctx).transform(ctx, FieldType.BYTES, message)

    def new_transform(self, ctx: RuleContext) -> "EncryptionExecutorTransform":
        """The transform for one rule run (its cipher, KEK and DEK expiry).

        :param ctx: the rule context.
        :returns: the transform.
        """
        return EncryptionExecutorTransform(self, self._get_cryptor(ctx), self._get_kek_name(ctx),
                                           self._get_dek_expiry_days(ctx))

    def close(self) -> None:
        """Close the DEK registry client."""
        if self.client is not None:
            self.client.__exit__()

    def _get_cryptor(self, ctx: RuleContext) -> "Cryptor":
        name = ctx.get_parameter(ENCRYPT_DEK_ALGORITHM)
        return Cryptor(DekAlgorithm[name] if name is not None else DekAlgorithm.AES256_GCM)

    def _get_kek_name(self, ctx: RuleContext) -> str:
        name = ctx.get_parameter(ENCRYPT_KEK_NAME)
        if name is None:
            raise RuleError("no kek name found")
        if name == "":
            raise RuleError("empty kek name")
        return name

    def _get_dek_expiry_days(self, ctx: RuleContext) -> int:
        text = ctx.get_parameter(ENCRYPT_DEK_EXPIRY_DAYS)
        if text is None:
            return 0
        try:
            days = int(text)
        except ValueError:
            raise RuleError("invalid expiry days")
        if days < 0:
            raise RuleError("negative expiry days")
        return days


class Cryptor:
    """Encrypts with a raw DEK of one algorithm (Tink's AES-GCM, or AES-SIV for deterministic
    encryption).

    :param dek_format: the algorithm.
    :raises RuleError: for an unknown one.
    """

    EMPTY_AAD = b""

    def __init__(self, dek_format: DekAlgorithm) -> None:
        self.dek_format = dek_format
        self.is_deterministic = dek_format == DekAlgorithm.AES256_SIV
        self.registry = Registry()
        if dek_format is DekAlgorithm.AES128_GCM:
            self.key_template = aead.aead_key_templates.AES128_GCM_RAW
        elif dek_format is DekAlgorithm.AES256_GCM:
            self.key_template = aead.aead_key_templates.AES256_GCM_RAW
        elif dek_format is DekAlgorithm.AES256_SIV:
            # Tink has no raw AES-SIV template: two 256-bit keys, no output prefix.
            self.key_template = tink_pb2.KeyTemplate(
                type_url=daead.deterministic_aead_key_templates.AES256_SIV.type_url,
                output_prefix_type=tink_pb2.RAW,
                value=aes_siv_pb2.AesSivKeyFormat(key_size=64).SerializeToString())
        else:
            raise RuleError("invalid dek algorithm")

    def generate_key(self) -> bytes:
        """A new raw DEK (a serialized Tink key).

        :returns: the key.
        """
        value: bytes = self.registry.new_key_data(self.key_template).value
        return value

    def _primitive(self, dek: bytes) -> Any:
        key_data = tink_pb2.KeyData(type_url=self.key_template.type_url, value=dek,
                                    key_material_type=tink_pb2.KeyData.SYMMETRIC)
        return self.registry.primitive(key_data, daead.DeterministicAead if self.is_deterministic else aead.Aead)

    def encrypt(self, dek: bytes, plaintext: bytes, associated_data: bytes) -> bytes:
        """Encrypt ``plaintext`` with ``dek``."""
        primitive = self._primitive(dek)
        if self.is_deterministic:
            return bytes(primitive.encrypt_deterministically(plaintext, associated_data))
        return bytes(primitive.encrypt(plaintext, associated_data))

    def decrypt(self, dek: bytes, ciphertext: bytes, associated_data: bytes) -> bytes:
        """Decrypt ``ciphertext`` with ``dek``."""
        primitive = self._primitive(dek)
        if self.is_deterministic:
            return bytes(primitive.decrypt_deterministically(ciphertext, associated_data))
        return bytes(primitive.decrypt(ciphertext, associated_data))


class EncryptionExecutorTransform:
    """One rule run's encryption: finds (or, when producing, creates) the KEK and the DEK, and
    encrypts or decrypts values with it."""

    def __init__(self, executor: EncryptionExecutor, cryptor: Cryptor, kek_name: str, dek_expiry_days: int) -> None:
        self._executor = executor
        self._cryptor = cryptor
        self._kek_name = kek_name
        self._kek: Optional[Kek] = None
        self._dek_expiry_days = dek_expiry_days

    def _is_dek_rotated(self) -> bool:
        return self._dek_expiry_days > 0

    def _client(self) -> DekRegistryClient:
        if self._executor.client is None:
            raise RuleError("client not configured")
        return self._executor.client

    def _get_kek(self, ctx: RuleContext) -> Kek:
        if self._kek is None:
            self._kek = self._get_or_create_kek(ctx)
        return self._kek

    def _get_or_create_kek(self, ctx: RuleContext) -> Kek:
        reading = ctx.rule_mode == RuleMode.READ
        kms_type = ctx.get_parameter(ENCRYPT_KMS_TYPE)
        kms_key_id = ctx.get_parameter(ENCRYPT_KMS_KEY_ID)
        kek_id = KekId(self._kek_name, False, _context_for(ctx.subject))
        kek = self._retrieve_kek_from_registry(kek_id)
        if kek is None:
            if reading:
                raise RuleError(f"no kek found for {self._kek_name} during consume")
            if not kms_type:
                raise RuleError(f"no kms type found for {self._kek_name} during produce")
            if not kms_key_id:
                raise RuleError(f"no kms key id found for {self._kek_name} during produce")
            kek = self._store_kek_to_registry(kek_id, kms_type, kms_key_id, False)
            if kek is None:  # registered meanwhile by another producer (409)
                kek = self._retrieve_kek_from_registry(kek_id)
            if kek is None:
                raise RuleError(f"no kek found for {self._kek_name} during produce")
        if kms_type and kek.kms_type != kms_type:
            raise RuleError(f"found {self._kek_name} with kms type {kek.kms_type} which differs from rule kms type "
                            f"{kms_type}")
        if kms_key_id and kek.kms_key_id != kms_key_id:
            raise RuleError(f"found {self._kek_name} with kms key id {kek.kms_key_id} which differs from rule kms key "
                            f"id {kms_key_id}")
        return kek

    def _retrieve_kek_from_registry(self, kek_id: KekId) -> Optional[Kek]:
        client = self._client()
        try:
            return client.get_kek(kek_id.name, kek_id.deleted, kek_id.context)
        except Exception as exc:  # noqa: BLE001 - a 404 is "none yet"; anything else is the rule's failure
            if isinstance(exc, SchemaRegistryError) and exc.http_status_code == 404:
                return None
            raise RuleError(f"could not get kek {kek_id.name}") from exc

    def _store_kek_to_registry(self, kek_id: KekId, kms_type: str, kms_key_id: str, shared: bool) -> Optional[Kek]:
        client = self._client()
        try:
            return client.register_kek(kek_id.name, kms_type, kms_key_id, shared, context=kek_id.context)
        except Exception as exc:  # noqa: BLE001
            if isinstance(exc, SchemaRegistryError) and exc.http_status_code == 409:
                return None
            raise RuleError(f"could not register kek {kek_id.name}") from exc

    def _get_or_create_dek(self, ctx: RuleContext, version: Optional[int]) -> Dek:
        kek = self._get_kek(ctx)
        reading = ctx.rule_mode == RuleMode.READ
        dek_id = DekId(kek.name, ctx.subject, version or 1, self._cryptor.dek_format, reading)  # type: ignore[arg-type]
        dek = self._retrieve_dek_from_registry(dek_id)
        expired = self._is_expired(ctx, dek)
        wrapper: Optional[AeadWrapper] = None
        if dek is None or expired:
            if reading:
                raise RuleError(f"no dek found for {dek_id.kek_name} during consume")
            encrypted_dek = None
            if not kek.shared:
                if self._executor.config is None:
                    raise RuleError("config not found in executor")
                wrapper = AeadWrapper(self._executor.config, kek)
                encrypted_dek = wrapper.encrypt(self._cryptor.generate_key(), Cryptor.EMPTY_AAD)
            new_version = (dek.version + 1) if (dek is not None and dek.version is not None and expired) else 1
            try:
                dek = self._create_dek(dek_id, new_version, encrypted_dek)
            except RuleError:
                if dek is None:
                    raise
                log.warning("failed to create dek for %s, subject %s, version %d, using existing dek", kek.name,
                            ctx.subject, new_version)
        if dek.get_key_material_bytes() is None:
            if wrapper is None:
                wrapper = AeadWrapper(self._executor.config or {}, kek)
            encrypted = dek.get_encrypted_key_material_bytes()
            dek.set_key_material(wrapper.decrypt(encrypted, Cryptor.EMPTY_AAD))  # type: ignore[arg-type]
        return dek

    def _create_dek(self, dek_id: DekId, new_version: int, encrypted_dek: Optional[bytes]) -> Dek:
        created = DekId(dek_id.kek_name, dek_id.subject, new_version, dek_id.algorithm, dek_id.deleted)
        dek = self._store_dek_to_registry(created, encrypted_dek)
        if dek is None:  # registered meanwhile (409)
            dek = self._retrieve_dek_from_registry(dek_id)
        if dek is None:
            raise RuleError(f"no dek found for {dek_id.kek_name} during produce")
        return dek

    def _retrieve_dek_from_registry(self, key: DekId) -> Optional[Dek]:
        try:
            client = self._client()
            dek = client.get_dek(key.kek_name, key.subject, key.algorithm, key.version or 1, key.deleted)
            return dek if dek and dek.encrypted_key_material else None
        except Exception as exc:  # noqa: BLE001
            if isinstance(exc, SchemaRegistryError) and exc.http_status_code == 404:
                return None
            raise RuleError(f"could not get dek for kek {key.kek_name}, subject {key.subject}") from exc

    def _store_dek_to_registry(self, key: DekId, encrypted_dek: Optional[bytes]) -> Optional[Dek]:
        try:
            client = self._client()
            text = base64.b64encode(encrypted_dek).decode("utf-8") if encrypted_dek else None
            return client.register_dek(key.kek_name, key.subject, text, key.algorithm, key.version)  # type: ignore[arg-type]
        except Exception as exc:  # noqa: BLE001
            if isinstance(exc, SchemaRegistryError) and exc.http_status_code == 409:
                return None
            raise RuleError(f"could not register dek for kek {key.kek_name}, subject {key.subject}") from exc

    def _is_expired(self, ctx: RuleContext, dek: Optional[Dek]) -> bool:
        now = self._executor.clock.now()
        return (ctx.rule_mode != RuleMode.READ and self._dek_expiry_days > 0 and dek is not None
                and (now - (dek.ts or 0)) / MILLIS_IN_DAY > self._dek_expiry_days)

    def transform(self, ctx: RuleContext, field_type: FieldType, field_value: Any) -> Any:
        """Encrypt (WRITE) or decrypt (READ) one value.

        :param ctx: the rule context.
        :param field_type: STRING (kept as base64 text when encrypted) or BYTES.
        :param field_value: the value.
        :returns: the new value.
        :raises RuleError: for another type or mode, or when a key cannot be had.
        """
        if field_value is None:
            return None
        if ctx.rule_mode == RuleMode.WRITE:
            plaintext = self._to_bytes(field_type, field_value)
            if plaintext is None:
                raise RuleError(f"type {field_type} not supported for encryption")
            dek = self._get_or_create_dek(ctx, -1 if self._is_dek_rotated() else None)
            key = dek.get_key_material_bytes()
            if key is None:
                raise RuleError("no key material bytes found for dek")
            ciphertext = self._cryptor.encrypt(key, plaintext, Cryptor.EMPTY_AAD)
            if self._is_dek_rotated():
                if dek.version is None:
                    raise RuleError("no version found for dek")
                ciphertext = self._prefix_version(dek.version, ciphertext)
            if field_type == FieldType.STRING:
                return base64.b64encode(ciphertext).decode("utf-8")
            return self._to_object(field_type, ciphertext)
        if ctx.rule_mode == RuleMode.READ:
            if field_type == FieldType.STRING:
                ciphertext_or_none: Optional[bytes] = base64.b64decode(field_value)
            else:
                ciphertext_or_none = self._to_bytes(field_type, field_value)
            if ciphertext_or_none is None:
                return field_value
            ciphertext = ciphertext_or_none
            version = None
            if self._is_dek_rotated():
                version, ciphertext = self._extract_version(ciphertext)
                if version is None:
                    raise RuleError("no version found in ciphertext")
            dek = self._get_or_create_dek(ctx, version)
            key = dek.get_key_material_bytes()
            if key is None:
                raise RuleError("no key material bytes found for dek")
            return self._to_object(field_type, self._cryptor.decrypt(key, ciphertext, Cryptor.EMPTY_AAD))
        raise RuleError(f"unsupported rule mode {ctx.rule_mode}")

    @staticmethod
    def _prefix_version(version: int, ciphertext: bytes) -> bytes:
        return bytes([_MAGIC_BYTE_V0]) + version.to_bytes(4, byteorder="big") + ciphertext

    @staticmethod
    def _extract_version(ciphertext: bytes) -> Tuple[Optional[int], bytes]:
        if len(ciphertext) < 5:
            return None, ciphertext
        return int.from_bytes(ciphertext[1:5], byteorder="big"), ciphertext[5:]

    @staticmethod
    def _to_bytes(field_type: FieldType, value: Any) -> Optional[bytes]:
        if field_type == FieldType.STRING:
            return str(value).encode("utf-8")
        if field_type == FieldType.BYTES:
            if isinstance(value, io.BytesIO):
                return value.read()
            return value  # type: ignore[no-any-return]
        return None

    @staticmethod
    def _to_object(field_type: FieldType, value: bytes) -> Any:
        if field_type == FieldType.STRING:
            return value.decode("utf-8")
        if field_type == FieldType.BYTES:
            return value
        return None


class AeadWrapper(aead.Aead):  # type: ignore[misc]
    """Wraps and unwraps DEKs with a KEK's KMS key, trying the alternate key ids
    (``encrypt.alternate.kms.key.ids``) in turn.

    :param config: the rule configuration (KMS credentials).
    :param kek: the KEK.
    """

    def __init__(self, config: Dict[str, Any], kek: Kek) -> None:
        self._config = config
        self._kek = kek
        self._kms_key_ids = self._get_kms_key_ids()

    def _each(self, what: str, op: str, data: bytes, associated_data: bytes) -> bytes:
        for index, key_id in enumerate(self._kms_key_ids):
            try:
                if self._kek.kms_type is None:
                    raise RuleError("no kms type found for kek")
                primitive = self._get_aead(self._config, self._kek.kms_type, key_id)
                return bytes(getattr(primitive, op)(data, associated_data))
            except Exception as exc:  # noqa: BLE001 - the next key id may work
                log.warning("failed to %s with kek %s and kms key id %s", what, self._kek.name, key_id)
                if index == len(self._kms_key_ids) - 1:
                    raise RuleError(f"failed to {what} with all KEKs for {self._kek.name}") from exc
        raise RuleError(f"No KEK found for {what}ion")

    def encrypt(self, plaintext: bytes, associated_data: bytes) -> bytes:
        """Wrap a key."""
        return self._each("encrypt", "encrypt", plaintext, associated_data)

    def decrypt(self, ciphertext: bytes, associated_data: bytes) -> bytes:
        """Unwrap a key."""
        return self._each("decrypt", "decrypt", ciphertext, associated_data)

    def _get_kms_key_ids(self) -> List[str]:
        ids = [self._kek.kms_key_id]
        alternates = None
        if self._kek.kms_props is not None:
            alternates = self._kek.kms_props.properties.get(ENCRYPT_ALTERNATE_KMS_KEY_IDS)
        if alternates is None:
            alternates = self._config.get(ENCRYPT_ALTERNATE_KMS_KEY_IDS)
        if alternates is not None:
            ids.extend(part.strip() for part in alternates.split(",") if part.strip())
        return ids  # type: ignore[return-value]

    def _get_aead(self, config: Dict[str, Any], kms_type: str, kms_key_id: str) -> Any:
        kek_url = kms_type + "://" + kms_key_id
        conf = dict(config)
        if self._kek.kms_props is not None:
            conf.update(self._kek.kms_props.properties)
        return self._get_kms_client(conf, kek_url).get_aead(kek_url)

    def _get_kms_client(self, config: Dict[str, Any], kek_url: str) -> KmsClient:
        driver = get_kms_driver(kek_url)
        try:
            return kms_client_from_uri(kek_url)
        except TinkError:
            return self._register_kms_client(driver, config, kek_url)

    @staticmethod
    def _register_kms_client(kms_driver: KmsDriver, config: Dict[str, Any], kek_url: str) -> KmsClient:
        client = kms_driver.new_kms_client(config, kek_url)
        register_kms_client(client)
        return client


class FieldEncryptionExecutor(_Registered, FieldRuleExecutor):
    """The ``ENCRYPT`` executor: each string or bytes field the rule's tags select is encrypted
    on write and decrypted on read.

    :param clock: the time source.
    """

    def __init__(self, clock: Clock = Clock()) -> None:
        self.executor = EncryptionExecutor(clock)

    def configure(self, client_conf: Dict[str, Any], rule_conf: Dict[str, Any]) -> None:
        self.executor.configure(client_conf, rule_conf)

    def type(self) -> str:
        return "ENCRYPT"

    def new_transform(self, ctx: RuleContext) -> FieldTransform:
        return FieldEncryptionExecutorTransform(self.executor.new_transform(ctx)).transform

    def close(self) -> None:
        self.executor.close()


class FieldEncryptionExecutorTransform:
    """Applies an :class:`EncryptionExecutorTransform` to one field."""

    def __init__(self, executor_transform: EncryptionExecutorTransform) -> None:
        self.executor_transform = executor_transform

    def transform(self, ctx: RuleContext, field_ctx: FieldContext, field_value: Any) -> Any:
        """Encrypt (WRITE) or decrypt (READ) one field's value.

        :param ctx: the rule context.
        :param field_ctx: the field.
        :param field_value: its value.
        :returns: the new value."""
        return self.executor_transform.transform(ctx, field_ctx.field_type, field_value)
