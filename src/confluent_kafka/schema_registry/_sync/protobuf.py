"""The synchronous Protobuf serializer and deserializer: the shared Protobuf steps
(``common/protobuf.py``) run on a :class:`SchemaRegistryClient`."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Set, Tuple

from google.protobuf.descriptor_pool import DescriptorPool  # type: ignore[import-untyped,unused-ignore]

from ...serialization import DeserializerBuilder, SerializationContext, SerializerBuilder
from .. import dual_schema_id_deserializer, prefix_schema_id_serializer, reference_subject_name_strategy
from ..common._builders import (
    DeserializerSettings,
    MessageTypeSetter,
    SerdeBuilderBase,
    SerializerSettings,
)
from ..common.protobuf import ProtobufDeserializerSteps, ProtobufSerializerSteps, resolve_named_schemas_op
from ..common.schema_registry_client import Schema
from ..common.serde import ValidationRulesExecution, run_sync
from .serde import BaseDeserializer, BaseSerializer, build_sync

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

    _default_conf: Dict[str, Any] = {
        "auto.register.schemas": True,
        "normalize.schemas": False,
        "use.schema.id": None,
        "use.latest.version": False,
        "use.latest.with.metadata": None,
        "skip.known.types": True,
        "subject.name.strategy.type": None,
        "subject.name.strategy.conf": None,
        "subject.name.strategy": None,
        "reference.subject.name.strategy": reference_subject_name_strategy,
        "schema.id.serializer": prefix_schema_id_serializer,
        "use.deprecated.format": False,
        "validation.rules.execution": ValidationRulesExecution.DISABLED,
        "validation.rules.fail.fast": False,
        "validation.rules.executor": None,
    }

    def __init__(self, msg_type: Any, schema_registry_client: Any, conf: Optional[Dict[str, Any]] = None,
                 rule_conf: Optional[Dict[str, Any]] = None, rule_registry: Any = None) -> None:
        self._registry = schema_registry_client
        self._init(msg_type, conf, self._default_conf)
        self._init_rules(rule_conf, rule_registry)

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

    _default_conf: Dict[str, Any] = {
        "use.latest.version": False,
        "use.latest.with.metadata": None,
        "subject.name.strategy.type": None,
        "subject.name.strategy.conf": None,
        "subject.name.strategy": None,
        "schema.id.deserializer": dual_schema_id_deserializer,
        "use.deprecated.format": False,
    }

    def __init__(self, message_type: Any, conf: Optional[Dict[str, Any]] = None,
                 schema_registry_client: Any = None, rule_conf: Optional[Dict[str, Any]] = None,
                 rule_registry: Any = None) -> None:
        self._registry = schema_registry_client
        self._init(message_type, conf, self._default_conf)
        self._init_rules(rule_conf, rule_registry)

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


class _ProtobufSerializerSettings(SerdeBuilderBase, MessageTypeSetter, SerializerSettings):
    """The settings of the Protobuf serializer builders, sync and async."""

    def __init__(self, schema_registry_config: Optional[Dict[str, Any]] = None, schema_registry_client: Any = None,
                 message_type: Any = None, serializer_config: Optional[Dict[str, Any]] = None,
                 rule_config: Optional[Dict[str, Any]] = None, rule_registry: Any = None,
                 serializer_init: Optional[Callable[[Any], Any]] = None) -> None:
        self._schema_registry_conf = schema_registry_config
        self._schema_registry_client = schema_registry_client
        self._msg_type = message_type
        self._serializer_conf = serializer_config
        self._rule_conf = rule_config
        self._rule_registry = rule_registry
        self._init = serializer_init

    def _ready(self) -> None:
        if self._msg_type is None:
            raise ValueError("Protobuf serializer requires a message type; call set_message_type()")


class _ProtobufDeserializerSettings(SerdeBuilderBase, MessageTypeSetter, DeserializerSettings):
    """The settings of the Protobuf deserializer builders, sync and async."""

    def __init__(self, schema_registry_config: Optional[Dict[str, Any]] = None, schema_registry_client: Any = None,
                 message_type: Any = None, deserializer_config: Optional[Dict[str, Any]] = None,
                 rule_config: Optional[Dict[str, Any]] = None, rule_registry: Any = None,
                 deserializer_init: Optional[Callable[[Any], Any]] = None) -> None:
        self._schema_registry_conf = schema_registry_config
        self._schema_registry_client = schema_registry_client
        self._msg_type = message_type
        self._deserializer_conf = deserializer_config
        self._rule_conf = rule_config
        self._rule_registry = rule_registry
        self._init = deserializer_init

    def _ready(self) -> None:
        if self._msg_type is None:
            raise ValueError("Protobuf deserializer requires a message type; call set_message_type()")


class ProtobufSerializerBuilder(_ProtobufSerializerSettings, SerializerBuilder):
    """Builds a :class:`ProtobufSerializer` when a :class:`~confluent_kafka.SerializingProducer`
    is made with it as ``key.serializer.builder`` or ``value.serializer.builder``; the producer
    closes the serializer (and a Schema Registry client made from ``schema_registry_config``)
    when it is closed. Every setting also has a chaining ``set_*`` method.

    :param schema_registry_config: configuration of a Schema Registry client for the serializer
        to make and own.
    :param schema_registry_client: the application's client instead.
    :param message_type: the generated message class (required).
    :param serializer_config: the serializer's configuration.
    :param rule_config: configuration given to the rule executors and actions.
    :param rule_registry: where rules find their executors and actions.
    :param serializer_init: called with the serializer once made.
    """

    def _construct(self, client: Any) -> "ProtobufSerializer":
        return ProtobufSerializer(self._msg_type, client, self._serializer_conf, self._rule_conf, self._rule_registry)

    def build(self, conf: Dict[str, Any], is_key: bool) -> Tuple["ProtobufSerializer", Dict[str, Any]]:
        """Make the serializer (the producer calls this).

        :param conf: the producer's configuration, handed back unchanged.
        :param is_key: whether the serializer is for keys.
        :returns: the serializer and the configuration.
        :raises ValueError: without a message type, or with both a client and a client configuration.
        """
        return build_sync(self, conf)


class ProtobufDeserializerBuilder(_ProtobufDeserializerSettings, DeserializerBuilder):
    """Builds a :class:`ProtobufDeserializer` when a
    :class:`~confluent_kafka.DeserializingConsumer` is made with it as
    ``key.deserializer.builder`` or ``value.deserializer.builder`` (see
    :class:`ProtobufSerializerBuilder`).

    :param schema_registry_config: configuration of a Schema Registry client to make and own.
    :param schema_registry_client: the application's client instead.
    :param message_type: the generated message class (required).
    :param deserializer_config: the deserializer's configuration.
    :param rule_config: configuration given to the rule executors and actions.
    :param rule_registry: where rules find their executors and actions.
    :param deserializer_init: called with the deserializer once made.
    """

    def _construct(self, client: Any) -> "ProtobufDeserializer":
        return ProtobufDeserializer(self._msg_type, self._deserializer_conf, client, self._rule_conf,
                                    self._rule_registry)

    def build(self, conf: Dict[str, Any], is_key: bool) -> Tuple["ProtobufDeserializer", Dict[str, Any]]:
        """Make the deserializer (the consumer calls this).

        :param conf: the consumer's configuration, handed back unchanged.
        :param is_key: whether the deserializer is for keys.
        :returns: the deserializer and the configuration.
        :raises ValueError: without a message type, or with both a client and a client configuration.
        """
        return build_sync(self, conf)
