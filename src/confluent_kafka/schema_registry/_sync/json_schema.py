"""The synchronous JSON Schema serializer and deserializer: the shared JSON steps
(``common/json_schema.py``) run on a :class:`SchemaRegistryClient`."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Union

from ...serialization import DeserializerBuilder, SerializationContext, SerializerBuilder
from ..common._builders import _JSONDeserializerSettings, _JSONSerializerSettings
from ..common.json_schema import JsonDeserializerSteps, JsonSerializerSteps, resolve_named_schemas_op
from ..common.schema_registry_client import Schema
from ..common.serde import run_sync
from .serde import BaseDeserializer, BaseSerializer, SyncBuild

__all__ = ["_resolve_named_schema", "JSONSerializer", "JSONSerializerBuilder", "JSONDeserializer",
           "JSONDeserializerBuilder"]


def _resolve_named_schema(schema: Schema, schema_registry_client: Any, ref_registry: Any = None) -> Any:
    """The schemas ``schema`` references, fetched from the registry (recursively) into a
    ``referencing`` registry under the names the references give them.

    :param schema: the schema.
    :param schema_registry_client: the client.
    :param ref_registry: a ``referencing.Registry`` to add to (a new one when None).
    :returns: the ``referencing.Registry``.
    """
    return run_sync(resolve_named_schemas_op(schema, ref_registry), schema_registry_client)


class JSONSerializer(JsonSerializerSteps, BaseSerializer):
    """JSON encoding, validated against a JSON Schema, with Confluent Schema Registry framing
    (magic byte 0 and the 4-byte schema id, or the schema guid in a header with
    ``schema.id.serializer`` set to
    :func:`~confluent_kafka.schema_registry.header_schema_id_serializer`).

    The schema's ``title`` is the record name for the RECORD and TOPIC_RECORD subject name
    strategies. Configuration (``conf``):

    * ``auto.register.schemas`` (True) -- register the schema under the subject; when False it
      must already be registered there.
    * ``normalize.schemas`` (False) -- have the registry normalize it first.
    * ``use.schema.id`` (None) -- write with this registered schema id.
    * ``use.latest.version`` (False) -- write with the subject's latest version (needs
      ``auto.register.schemas`` False).
    * ``use.latest.with.metadata`` (None) -- write with the latest version whose metadata
      properties include this dict.
    * ``subject.name.strategy`` -- a callable ``(ctx, record_name) -> subject``; or
      ``subject.name.strategy.type`` -- TOPIC, RECORD, TOPIC_RECORD or ASSOCIATED (the default:
      the subject associated with the topic, else TOPIC), with ``subject.name.strategy.conf``.
    * ``validate`` (True) -- validate each record against the schema before writing it.
    * ``schema.id.serializer`` -- how the id is framed (default: payload prefix).
    * ``validation.rules.execution``, ``validation.rules.fail.fast``, ``validation.rules.executor``
      -- the schema's inline validation rules (``confluent:rules``), as for
      :class:`~confluent_kafka.schema_registry.avro.AvroSerializer`; failures name their JSON path.

    :param schema_str: the JSON Schema, as text or a :class:`Schema` (which may have references).
    :param schema_registry_client: the client.
    :param to_dict: ``to_dict(obj, ctx) -> dict``, converting the application's objects.
    :param conf: the configuration above.
    :param rule_conf: configuration given to the rule executors and actions (``configure``).
    :param rule_registry: where rules find their executors and actions (default: the global one).
    :param json_encode: the encoder (``obj -> str or bytes``); default: compact JSON, UTF-8.
    :raises ValueError: for a bad setting or an unknown key.
    """

    def __init__(self, schema_str: Union[str, Schema, None], schema_registry_client: Any,
                 to_dict: Optional[Callable[[Any, SerializationContext], Any]] = None,
                 conf: Optional[Dict[str, Any]] = None, rule_conf: Optional[Dict[str, Any]] = None,
                 rule_registry: Any = None, json_encode: Optional[Callable[[Any], Any]] = None) -> None:
        self._start(schema_registry_client, self._init_op(schema_str, to_dict, conf, json_encode),
                    rule_conf, rule_registry)

    def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """Validate and encode ``obj`` (after ``to_dict``), registering or looking up its schema
        first.

        :param obj: the value; None gives None.
        :param ctx: the serialization context (topic and key/value, for the subject).
        :returns: the framed bytes.
        :raises ~confluent_kafka.serialization.SerializationError: when ``obj`` does not match the schema (naming the
            topic, schema, id and the failing value's path).
        :raises TypeError: when ``obj`` cannot be encoded as JSON.
        :raises SchemaRegistryError: when the registry refuses the schema or does not hold it.
        """
        result: Optional[bytes] = self._run(self._serialize_op(obj, ctx))
        return result


class JSONDeserializer(JsonDeserializerSteps, BaseDeserializer):
    """Decodes JSON with Confluent Schema Registry framing and validates it against the reader
    schema: the latest version with ``use.latest.version`` (or
    ``use.latest.with.metadata``), else ``schema_str``, else the writer's schema.

    Configuration (``conf``): ``use.latest.version``, ``use.latest.with.metadata``,
    ``subject.name.strategy`` / ``subject.name.strategy.type`` / ``subject.name.strategy.conf``
    (as for :class:`JSONSerializer`), ``validate`` (True) and ``schema.id.deserializer``
    (default: the guid header if present, else the payload prefix).

    :param schema_str: the reader schema, if any (needed without a client).
    :param from_dict: ``from_dict(dict, ctx) -> object``, converting decoded records.
    :param schema_registry_client: the client (needed without ``schema_str``, or when it has
        references).
    :param conf: the configuration above.
    :param rule_conf: configuration given to the rule executors and actions (``configure``).
    :param rule_registry: where rules find their executors and actions (default: the global one).
    :param json_decode: the decoder (``bytes -> object``); default: the json module (or orjson).
    :raises ValueError: for a bad setting, an unknown key, or neither a schema nor a client.
    """

    def __init__(self, schema_str: Union[str, Schema, None],
                 from_dict: Optional[Callable[[Any, SerializationContext], Any]] = None,
                 schema_registry_client: Any = None, conf: Optional[Dict[str, Any]] = None,
                 rule_conf: Optional[Dict[str, Any]] = None, rule_registry: Any = None,
                 json_decode: Optional[Callable[[Any], Any]] = None) -> None:
        self._start(schema_registry_client, self._init_op(schema_str, from_dict, conf, json_decode),
                    rule_conf, rule_registry)

    def __call__(self, data: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        """Decode and validate framed JSON bytes.

        :param data: the bytes; None gives None.
        :param ctx: the serialization context.
        :returns: the record (a dict, or what ``from_dict`` makes of it).
        :raises ~confluent_kafka.serialization.SerializationError: for a payload with an unknown magic byte, or
            one that does not match the reader schema.
        :raises struct.error: for a payload too short for its framing.
        :raises json.JSONDecodeError: for a payload that is not JSON.
        :raises SchemaRegistryError: for a writer schema the registry does not hold.
        """
        return self._run(self._deserialize_op(data, ctx))


class JSONSerializerBuilder(_JSONSerializerSettings, SyncBuild[JSONSerializer], SerializerBuilder):
    """Builds a :class:`JSONSerializer` for a :class:`~confluent_kafka.SerializingProducer` that is made
    with it as ``key.serializer.builder`` or ``value.serializer.builder``, and closes it when the
    producer is closed.

    Its settings are keywords of the constructor and chaining ``set_<setting>`` methods (below):
    ``schema_registry_config`` (a client it makes and closes) or ``schema_registry_client`` (yours),
    ``schema``, ``to_dict``, ``serializer_config``, ``rule_config``, ``rule_registry``, ``json_encode``
    and ``serializer_init``.
    """

    def _construct(self, client: Any) -> "JSONSerializer":
        return JSONSerializer(self._schema_str, client, self._to_dict, self._serializer_conf, self._rule_conf,
                              self._rule_registry, self._json_encode)


class JSONDeserializerBuilder(_JSONDeserializerSettings, SyncBuild[JSONDeserializer], DeserializerBuilder):
    """Builds a :class:`JSONDeserializer` for a :class:`~confluent_kafka.DeserializingConsumer` that is
    made with it as ``key.deserializer.builder`` or ``value.deserializer.builder``, and closes it when
    the consumer is closed.

    Its settings are keywords of the constructor and chaining ``set_<setting>`` methods (below):
    ``schema_registry_config`` (a client it makes and closes) or ``schema_registry_client`` (yours),
    ``schema``, ``from_dict``, ``deserializer_config``, ``rule_config``, ``rule_registry``,
    ``json_decode`` and ``deserializer_init``.
    """

    def _construct(self, client: Any) -> "JSONDeserializer":
        return JSONDeserializer(self._schema_str, self._from_dict, client, self._deserializer_conf, self._rule_conf,
                                self._rule_registry, self._json_decode)
