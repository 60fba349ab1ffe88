"""The synchronous Avro serializer and deserializer: the shared Avro steps
(``common/avro.py``) run on a :class:`SchemaRegistryClient`."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Union

from ...serialization import DeserializerBuilder, SerializationContext, SerializerBuilder
from ..common._builders import _AvroDeserializerSettings, _AvroSerializerSettings
from ..common.avro import AvroDeserializerSteps, AvroSerializerSteps
from ..common.schema_registry_client import Schema
from .serde import BaseDeserializer, BaseSerializer, SyncBuild

__all__ = ["AvroSerializer", "AvroSerializerBuilder", "AvroDeserializer", "AvroDeserializerBuilder"]


class AvroSerializer(AvroSerializerSteps, BaseSerializer):
    """Avro binary encoding with Confluent Schema Registry framing (magic byte 0 and the 4-byte
    schema id, or the schema guid in a header with ``schema.id.serializer`` set to
    :func:`~confluent_kafka.schema_registry.header_schema_id_serializer`).

    Configuration (``conf``):

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
    * ``schema.id.serializer`` -- how the id is framed (default: payload prefix).
    * ``validate.strict``, ``validate.strict.allow.default`` -- fastavro's strict checks.
    * ``validation.rules.execution`` (DISABLED) -- evaluate the schema's inline validation rules
      (``confluent:rules``) BEFORE_DOMAIN_RULES or AFTER_DOMAIN_RULES; a record failing any of
      them raises one SerializationError listing every failure (``validation.rules.fail.fast``:
      stop at the first); ``validation.rules.executor`` replaces the CEL executor.

    :param schema_registry_client: the client.
    :param schema_str: the Avro schema, as a declaration or a :class:`Schema` (with references).
    :param to_dict: ``to_dict(obj, ctx) -> dict``, converting the application's objects.
    :param conf: the configuration above.
    :param rule_conf: configuration given to the rule executors and actions (``configure``).
    :param rule_registry: where rules find their executors and actions (default: the global one).
    :raises ValueError: for a bad setting or an unknown key.
    """

    def __init__(self, schema_registry_client: Any, schema_str: Union[str, Schema, None] = None,
                 to_dict: Optional[Callable[[Any, SerializationContext], Any]] = None,
                 conf: Optional[Dict[str, Any]] = None, rule_conf: Optional[Dict[str, Any]] = None,
                 rule_registry: Any = None) -> None:
        self._start(schema_registry_client, self._init_op(schema_str, to_dict, conf), rule_conf, rule_registry)

    def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """Encode ``obj`` (after ``to_dict``), registering or looking up its schema first.

        :param obj: the value; None gives None.
        :param ctx: the serialization context (topic and key/value, for the subject).
        :returns: the framed bytes.
        :raises TypeError: when ``obj`` does not match the schema (fastavro's error, with a text naming the
            topic, field, schema and id).
        :raises ValueError: when ``obj`` lacks a field the schema has no default for (same text).
        :raises ~confluent_kafka.serialization.SerializationError: when a data-contract rule fails.
        :raises SchemaRegistryError: when the registry refuses the schema or does not hold it.
        """
        result: Optional[bytes] = self._run(self._serialize_op(obj, ctx))
        return result


class AvroDeserializer(AvroDeserializerSteps, BaseDeserializer):
    """Decodes Avro with Confluent Schema Registry framing, into the reader schema when one is
    given (``schema_str``, or the latest version with ``use.latest.version``) and into the
    writer's schema otherwise.

    Configuration (``conf``): ``use.latest.version``, ``use.latest.with.metadata``,
    ``subject.name.strategy`` / ``subject.name.strategy.type`` / ``subject.name.strategy.conf``
    (as for :class:`AvroSerializer`) and ``schema.id.deserializer`` (default: the guid header if
    present, else the payload prefix).

    :param schema_registry_client: the client.
    :param schema_str: the reader schema, if any.
    :param from_dict: ``from_dict(dict, ctx) -> object``, converting decoded records.
    :param return_record_name: decode unions as (name, value) tuples.
    :param conf: the configuration above.
    :param rule_conf: configuration given to the rule executors and actions (``configure``).
    :param rule_registry: where rules find their executors and actions (default: the global one).
    :raises ValueError: for a bad setting or an unknown key.
    """

    def __init__(self, schema_registry_client: Any, schema_str: Union[str, Schema, None] = None,
                 from_dict: Optional[Callable[[Any, SerializationContext], Any]] = None,
                 return_record_name: bool = False, conf: Optional[Dict[str, Any]] = None,
                 rule_conf: Optional[Dict[str, Any]] = None, rule_registry: Any = None) -> None:
        self._start(schema_registry_client, self._init_op(schema_str, from_dict, return_record_name, conf),
                    rule_conf, rule_registry)

    def __call__(self, data: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        """Decode framed Avro bytes.

        :param data: the bytes; None gives None.
        :param ctx: the serialization context.
        :returns: the record (a dict, or what ``from_dict`` makes of it).
        :raises ~confluent_kafka.serialization.SerializationError: for a payload with an unknown magic byte.
        :raises EOFError: for a truncated payload (struct.error when the framing itself is cut).
        :raises SchemaRegistryError: for a writer schema the registry does not hold.
        """
        return self._run(self._deserialize_op(data, ctx))


class AvroSerializerBuilder(_AvroSerializerSettings, SyncBuild[AvroSerializer], SerializerBuilder):
    """Builds an :class:`AvroSerializer` for a :class:`~confluent_kafka.SerializingProducer` that is made
    with it as ``key.serializer.builder`` or ``value.serializer.builder``, and closes it when the
    producer is closed.

    Its settings are keywords of the constructor and chaining ``set_<setting>`` methods (below):
    ``schema_registry_config`` (a client it makes and closes) or ``schema_registry_client`` (yours),
    ``schema``, ``to_dict``, ``serializer_config``, ``rule_config``, ``rule_registry`` and
    ``serializer_init``.
    """

    def _construct(self, client: Any) -> "AvroSerializer":
        return AvroSerializer(client, self._schema_str, self._to_dict, self._serializer_conf, self._rule_conf,
                              self._rule_registry)


class AvroDeserializerBuilder(_AvroDeserializerSettings, SyncBuild[AvroDeserializer], DeserializerBuilder):
    """Builds an :class:`AvroDeserializer` for a :class:`~confluent_kafka.DeserializingConsumer` that is
    made with it as ``key.deserializer.builder`` or ``value.deserializer.builder``, and closes it when
    the consumer is closed.

    Its settings are keywords of the constructor and chaining ``set_<setting>`` methods (below):
    ``schema_registry_config`` (a client it makes and closes) or ``schema_registry_client`` (yours),
    ``schema``, ``from_dict``, ``return_record_name``, ``deserializer_config``, ``rule_config``,
    ``rule_registry`` and ``deserializer_init``.
    """

    def _construct(self, client: Any) -> "AvroDeserializer":
        return AvroDeserializer(client, self._schema_str, self._from_dict, self._return_record_name,
                                self._deserializer_conf, self._rule_conf, self._rule_registry)
