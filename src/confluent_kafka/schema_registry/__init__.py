"""Confluent Schema Registry: the clients (:class:`SchemaRegistryClient`,
:class:`AsyncSchemaRegistryClient`, ``mock://`` for tests), the data model, the subject name
strategies and the schema id framing helpers used by the serializers in
:mod:`confluent_kafka.schema_registry.avro`.

Needs the ``schemaregistry`` extra (``pip install 'confluent-kafka[schemaregistry]'``), and the
``avro`` extra for the Avro serializers.
"""

from __future__ import annotations

import io
from typing import Any, Optional

from ..serialization import MessageField, SerializationContext, SerializationError
from .schema_registry_client import (
    Association,
    AssociationCreateOrUpdateInfo,
    AssociationCreateOrUpdateRequest,
    AssociationInfo,
    AssociationResponse,
    AsyncSchemaRegistryClient,
    ConfigCompatibilityLevel,
    Metadata,
    MetadataProperties,
    MetadataTags,
    RegisteredSchema,
    Rule,
    RuleKind,
    RuleMode,
    RuleParams,
    RuleSet,
    Schema,
    SchemaReference,
    SchemaRegistryClient,
    ServerConfig,
)
from .error import SchemaRegistryError

# Header names carrying a schema guid, and the first byte of a framed payload.
_KEY_SCHEMA_ID = "__key_schema_id"
_VALUE_SCHEMA_ID = "__value_schema_id"
_MAGIC_BYTE = 0
_MAGIC_BYTE_V0 = _MAGIC_BYTE
_MAGIC_BYTE_V1 = 1

__all__ = [
    "Association",
    "AssociationCreateOrUpdateInfo",
    "AssociationCreateOrUpdateRequest",
    "AssociationInfo",
    "AssociationResponse",
    "ConfigCompatibilityLevel",
    "Metadata",
    "MetadataProperties",
    "MetadataTags",
    "RegisteredSchema",
    "Rule",
    "RuleKind",
    "RuleMode",
    "RuleParams",
    "RuleSet",
    "Schema",
    "SchemaRegistryClient",
    "AsyncSchemaRegistryClient",
    "SchemaRegistryError",
    "SchemaReference",
    "ServerConfig",
    "topic_subject_name_strategy",
    "topic_record_subject_name_strategy",
    "record_subject_name_strategy",
    "header_schema_id_serializer",
    "prefix_schema_id_serializer",
    "dual_schema_id_deserializer",
    "prefix_schema_id_deserializer",
]


def _context_required(strategy: str) -> ValueError:
    return ValueError(f"SerializationContext is required for {strategy}. "
                      "Either provide a SerializationContext or use record_subject_name_strategy.")


def topic_subject_name_strategy(ctx: Optional[SerializationContext], record_name: Optional[str]) -> Optional[str]:
    """The subject ``{topic}-key`` or ``{topic}-value``.

    :param ctx: the serialization context (required).
    :param record_name: the record's name (unused).
    :returns: the subject name.
    :raises ValueError: when ``ctx`` is None.
    """
    if ctx is None:
        raise _context_required("topic_subject_name_strategy")
    return str(ctx.topic) + "-" + str(ctx.field)


def topic_record_subject_name_strategy(ctx: Optional[SerializationContext],
                                       record_name: Optional[str]) -> Optional[str]:
    """The subject ``{topic}-{record name}``.

    :param ctx: the serialization context (required).
    :param record_name: the record's fully qualified name.
    :returns: the subject name, or None without a record name.
    :raises ValueError: when ``ctx`` is None.
    """
    if ctx is None:
        raise _context_required("topic_record_subject_name_strategy")
    return None if record_name is None else str(ctx.topic) + "-" + record_name


def record_subject_name_strategy(ctx: Optional[SerializationContext], record_name: Optional[str]) -> Optional[str]:
    """The subject ``{record name}`` (the context is not used).

    :param ctx: the serialization context (may be None).
    :param record_name: the record's fully qualified name.
    :returns: the subject name, or None without a record name.
    """
    return record_name


def reference_subject_name_strategy(ctx: Optional[SerializationContext], schema_ref: SchemaReference) -> Optional[str]:
    """The subject of a referenced schema: the reference's name.

    :param ctx: the serialization context (not used).
    :param schema_ref: the reference.
    :returns: its name, or None without a reference.
    """
    return None if schema_ref is None else schema_ref.name


def _header_key(ctx: SerializationContext) -> str:
    return _KEY_SCHEMA_ID if ctx.field == MessageField.KEY else _VALUE_SCHEMA_ID


def header_schema_id_serializer(payload: bytes, ctx: Optional[SerializationContext], schema_id: Any) -> bytes:
    """Put the schema guid in a header (``__key_schema_id``/``__value_schema_id``) and leave the
    payload as it is. Use as a serializer's ``schema.id.serializer``.

    :param payload: the encoded record.
    :param ctx: the serialization context, whose headers (a list or dict) receive the guid.
    :param schema_id: the :class:`~confluent_kafka.schema_registry.serde.SchemaId`.
    :returns: ``payload``.
    :raises ~confluent_kafka.serialization.SerializationError: without a context or headers, or with headers of
        another type.
    """
    if ctx is None:
        raise SerializationError("SerializationContext is required for header_schema_id_serializer")
    headers = ctx.headers
    if headers is None:
        raise SerializationError("Missing headers")
    value = schema_id.guid_to_bytes()
    if isinstance(headers, list):
        headers.append((_header_key(ctx), value))
    elif isinstance(headers, dict):
        headers[_header_key(ctx)] = value
    else:
        raise SerializationError("Invalid headers type")
    return payload


def prefix_schema_id_serializer(payload: bytes, ctx: Optional[SerializationContext], schema_id: Any) -> bytes:
    """Prefix the payload with the magic byte 0 and the 4-byte big-endian schema id (the
    default ``schema.id.serializer``).

    :param payload: the encoded record.
    :param ctx: the serialization context (not used).
    :param schema_id: the :class:`~confluent_kafka.schema_registry.serde.SchemaId`.
    :returns: the framed payload.
    """
    return bytes(schema_id.id_to_bytes()) + payload


def dual_schema_id_deserializer(payload: bytes, ctx: Optional[SerializationContext], schema_id: Any) -> io.BytesIO:
    """Read the schema id from the guid header when there is one, else from the payload's
    prefix (the default ``schema.id.deserializer``).

    :param payload: the consumed bytes.
    :param ctx: the serialization context, whose headers are searched.
    :param schema_id: the :class:`~confluent_kafka.schema_registry.serde.SchemaId` to fill.
    :returns: the encoded record, positioned after any prefix.
    :raises ~confluent_kafka.serialization.SerializationError: for a prefix with an unknown magic byte.
    """
    found = None
    if ctx is not None and ctx.headers is not None:
        key = _header_key(ctx)
        if isinstance(ctx.headers, list):
            found = next((header[1] for header in ctx.headers if header[0] == key), None)
        elif isinstance(ctx.headers, dict):
            found = ctx.headers.get(key)
    if found is not None:
        schema_id.from_bytes(io.BytesIO(found))  # type: ignore[arg-type]  # a str header fails as upstream
        return io.BytesIO(payload)
    result: io.BytesIO = schema_id.from_bytes(io.BytesIO(payload))
    return result


def prefix_schema_id_deserializer(payload: bytes, ctx: Optional[SerializationContext], schema_id: Any) -> io.BytesIO:
    """Read the schema id from the payload's prefix only.

    :param payload: the consumed bytes.
    :param ctx: the serialization context (not used).
    :param schema_id: the :class:`~confluent_kafka.schema_registry.serde.SchemaId` to fill.
    :returns: the encoded record, positioned after the prefix.
    :raises ~confluent_kafka.serialization.SerializationError: for an unknown magic byte.
    """
    result: io.BytesIO = schema_id.from_bytes(io.BytesIO(payload))
    return result
