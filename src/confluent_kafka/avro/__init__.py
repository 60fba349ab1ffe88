"""The legacy Avro API (deprecated): :class:`AvroProducer` and :class:`AvroConsumer`, which
encode and decode message keys and values with Avro schemas kept in a Schema Registry.

Kept so that code written for it runs unchanged; it warns (``DeprecationWarning``) when a client
is made. New code uses :class:`~confluent_kafka.SerializingProducer` /
:class:`~confluent_kafka.DeserializingConsumer` with
:class:`~confluent_kafka.schema_registry.avro.AvroSerializer` /
:class:`~confluent_kafka.schema_registry.avro.AvroDeserializer` (docs/schema_registry.md, "The
legacy confluent_kafka.avro API"). Both write the same bytes, so the two can share topics while
code moves over. Needs the ``avro`` extra (fastavro and the ``avro`` library).
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Optional

from confluent_kafka import Consumer, Producer
from confluent_kafka.avro.cached_schema_registry_client import CachedSchemaRegistryClient
from confluent_kafka.avro.error import ClientError
from confluent_kafka.avro.load import load, loads
from confluent_kafka.avro.serializer import KeySerializerError, SerializerError, ValueSerializerError
from confluent_kafka.avro.serializer.message_serializer import MessageSerializer

__all__ = ["AvroProducer", "AvroConsumer", "CachedSchemaRegistryClient", "ClientError", "load", "loads",
           "SerializerError", "KeySerializerError", "ValueSerializerError", "MessageSerializer"]

_PREFIX = "schema.registry."


def _split(config: Dict[str, Any], producer: bool) -> "tuple[Dict[str, Any], Dict[str, Any]]":
    """The registry's settings (``schema.registry.*`` without the prefix) and the client's."""
    registry = {key.replace(_PREFIX, ""): value for key, value in config.items() if key.startswith("schema.registry")}
    if registry.get("basic.auth.credentials.source") == "SASL_INHERIT":
        registry["sasl.mechanism"] = config.get("sasl.mechanism", config.get("sasl.mechanisms", ""))
        registry["sasl.username"] = config.get("sasl.username", "")
        registry["sasl.password"] = config.get("sasl.password", "")
        if producer:
            registry["auto.register.schemas"] = config.get("auto.register.schemas", True)
    client = {key: value for key, value in config.items() if not key.startswith("schema.registry")}
    return registry, client


def _registry(registry_conf: Dict[str, Any], schema_registry: Any) -> Any:
    if schema_registry is None:
        return CachedSchemaRegistryClient(registry_conf)
    if registry_conf.get("url", None) is not None:
        raise ValueError("Cannot pass schema_registry along with schema.registry.url config")
    return schema_registry


class AvroProducer(Producer):
    """A :class:`~confluent_kafka.Producer` that Avro-encodes keys and values, registering
    their schemas under ``<topic>-key`` / ``<topic>-value``.

    .. deprecated:: 2.0.2
       Use :class:`~confluent_kafka.SerializingProducer` with
       :class:`~confluent_kafka.schema_registry.avro.AvroSerializer`.

    :param config: the producer configuration plus ``schema.registry.url`` and the other
        ``schema.registry.*`` settings of :class:`CachedSchemaRegistryClient`.
    :param default_key_schema: the key schema used when :meth:`produce` is given none.
    :param default_value_schema: the value schema used when :meth:`produce` is given none.
    :param schema_registry: a registry client to use instead of one made from the config.
    :param kwargs: passed to :class:`~confluent_kafka.Producer` (``logger``, ...).
    :raises ValueError: for both ``schema_registry`` and ``schema.registry.url``, or a bad
        registry setting.
    """

    def __init__(self, config: Dict[str, Any], default_key_schema: Any = None, default_value_schema: Any = None,
                 schema_registry: Any = None, **kwargs: Any) -> None:
        warnings.warn("AvroProducer has been deprecated. Use AvroSerializer instead.", category=DeprecationWarning,
                      stacklevel=2)
        registry_conf, producer_conf = _split(config, producer=True)
        registry = _registry(registry_conf, schema_registry)
        super().__init__(producer_conf, **kwargs)
        self._serializer = MessageSerializer(registry)
        self._key_schema = default_key_schema
        self._value_schema = default_value_schema

    def produce(self, **kwargs: Any) -> None:  # type: ignore[override]
        """Encode the key and value with their schemas and produce the message (keywords only).

        :param kwargs: ``topic`` (required), ``value``, ``value_schema``, ``key``, ``key_schema``
            (the schemas default to the constructor's), and any other keyword of
            :meth:`confluent_kafka.Producer.produce`.
        :raises ClientError: when no topic is given, or the registry refuses a schema.
        :raises ValueSerializerError: for a value without a schema.
        :raises KeySerializerError: for a key without a schema.
        :raises BufferError: when the producer queue is full.
        :raises confluent_kafka.KafkaException: for other produce failures.
        """
        key_schema = kwargs.pop("key_schema", self._key_schema)
        value_schema = kwargs.pop("value_schema", self._value_schema)
        topic = kwargs.pop("topic", None)
        if not topic:
            raise ClientError("Topic name not specified.")
        value = kwargs.pop("value", None)
        key = kwargs.pop("key", None)
        if value is not None:
            if not value_schema:
                raise ValueSerializerError("Avro schema required for values")
            value = self._serializer.encode_record_with_schema(topic, value_schema, value)
        if key is not None:
            if not key_schema:
                raise KeySerializerError("Avro schema required for key")
            key = self._serializer.encode_record_with_schema(topic, key_schema, key, True)
        super().produce(topic, value, key, **kwargs)


class AvroConsumer(Consumer):
    """A :class:`~confluent_kafka.Consumer` whose :meth:`poll` decodes Avro keys and values
    (the writer schema fetched from the registry by the id in each message).

    .. deprecated:: 2.0.2
       Use :class:`~confluent_kafka.DeserializingConsumer` with
       :class:`~confluent_kafka.schema_registry.avro.AvroDeserializer`.

    :param config: the consumer configuration plus ``schema.registry.url`` and the other
        ``schema.registry.*`` settings of :class:`CachedSchemaRegistryClient`.
    :param schema_registry: a registry client to use instead of one made from the config.
    :param reader_key_schema: the schema keys are decoded into (default: the writer's).
    :param reader_value_schema: the schema values are decoded into (default: the writer's).
    :param kwargs: passed to :class:`~confluent_kafka.Consumer` (``logger``, ...).
    :raises ValueError: for both ``schema_registry`` and ``schema.registry.url``, or a bad
        registry setting.
    """

    def __init__(self, config: Dict[str, Any], schema_registry: Any = None, reader_key_schema: Any = None,
                 reader_value_schema: Any = None, **kwargs: Any) -> None:
        warnings.warn("AvroConsumer has been deprecated. Use AvroDeserializer instead.", category=DeprecationWarning,
                      stacklevel=2)
        registry_conf, consumer_conf = _split(config, producer=False)
        registry = _registry(registry_conf, schema_registry)
        super().__init__(consumer_conf, **kwargs)
        self._serializer = MessageSerializer(registry, reader_key_schema, reader_value_schema)

    def poll(self, timeout: Optional[float] = None) -> Any:
        """Poll for one message and decode its value and key (messages carrying an error are
        returned as they are). :meth:`consume` does not decode.

        :param timeout: seconds to wait (None: without limit).
        :returns: the message with decoded key and value, or None on timeout.
        :raises SerializerError: when a key or value cannot be decoded (naming the message's
            topic, partition and offset).
        """
        message = super().poll(-1 if timeout is None else timeout)
        if message is None:
            return None
        if not message.error():
            try:
                if message.value() is not None:
                    message.set_value(self._serializer.decode_message(message.value(), is_key=False))
                if message.key() is not None:
                    message.set_key(self._serializer.decode_message(message.key(), is_key=True))
            except SerializerError as exc:
                raise SerializerError("Message deserialization failed for message at {} [{}] offset {}: {}".format(
                    message.topic(), message.partition(), message.offset(), exc))
        return message
