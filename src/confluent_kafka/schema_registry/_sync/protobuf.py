"""The synchronous Protobuf serializer and deserializer: the shared Protobuf steps
(``common/protobuf.py``) run on a :class:`SchemaRegistryClient`."""

from __future__ import annotations

from typing import Any, Dict, Optional, Set

from google.protobuf.descriptor_pool import DescriptorPool  # type: ignore[import-untyped,unused-ignore]

from ...serialization import DeserializerBuilder, SerializationContext, SerializerBuilder
from ..common._builders import _ProtobufDeserializerSettings, _ProtobufSerializerSettings
from ..common.protobuf import ProtobufDeserializerSteps, ProtobufSerializerSteps, resolve_named_schemas_op
from ..common.schema_registry_client import Schema
from ..common.serde import run_sync
from .serde import BaseDeserializer, BaseSerializer, SyncBuild

__all__ = ["_resolve_named_schema", "ProtobufSerializer", "ProtobufSerializerBuilder", "ProtobufDeserializer",
           "ProtobufDeserializerBuilder"]


def _resolve_named_schema(schema: Schema, schema_registry_client: Any, pool: DescriptorPool,
                          visited: Optional[Set[str]] = None) -> None:
    """Add the files ``schema`` references (recursively) to ``pool``, fetched from the registry.

    :param schema: the schema.
    :param schema_registry_client: the client.
    :param pool: the descriptor pool.
    :param visited: reference names already added.
    """
    run_sync(resolve_named_schemas_op(schema, pool, visited), schema_registry_client)


class ProtobufSerializer(ProtobufSerializerSteps, BaseSerializer):
    """Protobuf messages of one type with Confluent Schema Registry framing: the schema id
    (prefix, or guid header with ``schema.id.serializer`` set to
    :func:`~confluent_kafka.schema_registry.header_schema_id_serializer`), the message indexes,
    then the message's own encoding.

    On first use for a subject the serializer registers the message's ``.proto`` file (as a
    base64 ``FileDescriptorProto``, the registry's ``serialized`` form), after registering each
    file it imports under the subject ``reference.subject.name.strategy`` gives (by default the
    file's name) and naming them as references. The message's full name is the record name for
    the RECORD and TOPIC_RECORD strategies. Configuration (``conf``):

    * ``auto.register.schemas`` (True), ``normalize.schemas`` (False), ``use.schema.id``,
      ``use.latest.version``, ``use.latest.with.metadata``, ``subject.name.strategy``,
      ``subject.name.strategy.type``, ``subject.name.strategy.conf``, ``schema.id.serializer``
      -- as for :class:`~confluent_kafka.schema_registry.avro.AvroSerializer`.
    * ``skip.known.types`` (True) -- do not register the well-known files
      (``google/protobuf/*``, ``google/type/*``, ``confluent/*``) as references.
    * ``reference.subject.name.strategy`` -- ``(ctx, file_descriptor) -> subject`` for imported
      files (default: :func:`~confluent_kafka.schema_registry.reference_subject_name_strategy`).
    * ``use.deprecated.format`` (False) -- True is refused: the format before message indexes
      were zig-zag encoded is no longer supported.
    * ``validation.rules.execution``, ``validation.rules.fail.fast``, ``validation.rules.executor``
      -- the inline validation rules of the schema's ``(confluent.message_meta)`` and
      ``(confluent.field_meta)`` options, as for the Avro serializer.

    :param msg_type: the generated message class.
    :param schema_registry_client: the client.
    :param conf: the configuration above.
    :param rule_conf: configuration given to the rule executors and actions (``configure``).
    :param rule_registry: where rules find their executors and actions (default: the global one).
    :raises ValueError: for a bad setting or an unknown key.
    """

    def __init__(self, msg_type: Any, schema_registry_client: Any, conf: Optional[Dict[str, Any]] = None,
                 rule_conf: Optional[Dict[str, Any]] = None, rule_registry: Any = None) -> None:
        self._start(schema_registry_client, self._init_op(msg_type, conf), rule_conf, rule_registry)

    def __call__(self, message: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """Encode ``message``, registering or looking up its schema (and imports) first.

        :param message: an instance of the serializer's message type; None gives None.
        :param ctx: the serialization context (topic and key/value, for the subject).
        :returns: the framed bytes.
        :raises ValueError: for a message of another type.
        :raises ~confluent_kafka.serialization.SerializationError: without a context to find the subject.
        :raises SchemaRegistryError: when the registry refuses the schema or does not hold it.
        """
        result: Optional[bytes] = self._run(self._serialize_op(message, ctx))
        return result


class ProtobufDeserializer(ProtobufDeserializerSteps, BaseDeserializer):
    """Decodes Protobuf messages with Confluent Schema Registry framing into ``message_type``.

    With a client, the writer's schema is fetched (and the message indexes checked against it);
    without one, the payload is decoded straight into ``message_type``. Configuration
    (``conf``): ``use.latest.version``, ``use.latest.with.metadata``,
    ``subject.name.strategy`` / ``subject.name.strategy.type`` / ``subject.name.strategy.conf``,
    ``schema.id.deserializer`` (default: the guid header if present, else the payload prefix)
    and ``use.deprecated.format`` (True is refused).

    :param message_type: the generated message class to decode into.
    :param conf: the configuration above.
    :param schema_registry_client: the client, if any.
    :param rule_conf: configuration given to the rule executors and actions (``configure``).
    :param rule_registry: where rules find their executors and actions (default: the global one).
    :raises ValueError: for a bad setting or an unknown key.
    """

    def __init__(self, message_type: Any, conf: Optional[Dict[str, Any]] = None,
                 schema_registry_client: Any = None, rule_conf: Optional[Dict[str, Any]] = None,
                 rule_registry: Any = None) -> None:
        self._start(schema_registry_client, self._init_op(message_type, conf), rule_conf, rule_registry)

    def __call__(self, data: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        """Decode framed Protobuf bytes.

        :param data: the bytes; None gives None.
        :param ctx: the serialization context.
        :returns: an instance of the message type.
        :raises ~confluent_kafka.serialization.SerializationError: for a payload with an unknown magic byte, a
            message index its schema does not have, or bytes that do not decode.
        :raises EOFError: for cut message indexes (struct.error when the schema id is cut).
        :raises SchemaRegistryError: for a writer schema the registry does not hold.
        """
        return self._run(self._deserialize_op(data, ctx))


class ProtobufSerializerBuilder(_ProtobufSerializerSettings, SyncBuild[ProtobufSerializer], SerializerBuilder):
    """Builds a :class:`ProtobufSerializer` for a :class:`~confluent_kafka.SerializingProducer` that is
    made with it as ``key.serializer.builder`` or ``value.serializer.builder``, and closes it when the
    producer is closed.

    Its settings are keywords of the constructor and chaining ``set_<setting>`` methods (below):
    ``schema_registry_config`` (a client it makes and closes) or ``schema_registry_client`` (yours),
    ``message_type``, ``serializer_config``, ``rule_config``, ``rule_registry`` and
    ``serializer_init``.
    """

    def _construct(self, client: Any) -> "ProtobufSerializer":
        return ProtobufSerializer(self._msg_type, client, self._serializer_conf, self._rule_conf, self._rule_registry)


class ProtobufDeserializerBuilder(_ProtobufDeserializerSettings, SyncBuild[ProtobufDeserializer], DeserializerBuilder):
    """Builds a :class:`ProtobufDeserializer` for a :class:`~confluent_kafka.DeserializingConsumer` that
    is made with it as ``key.deserializer.builder`` or ``value.deserializer.builder``, and closes it
    when the consumer is closed.

    Its settings are keywords of the constructor and chaining ``set_<setting>`` methods (below):
    ``schema_registry_config`` (a client it makes and closes) or ``schema_registry_client`` (yours),
    ``message_type``, ``deserializer_config``, ``rule_config``, ``rule_registry`` and
    ``deserializer_init``.
    """

    def _construct(self, client: Any) -> "ProtobufDeserializer":
        return ProtobufDeserializer(self._msg_type, self._deserializer_conf, client, self._rule_conf,
                                    self._rule_registry)
