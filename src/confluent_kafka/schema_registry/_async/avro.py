"""The asynchronous Avro serializer and deserializer: the shared Avro steps
(``common/avro.py``) awaited on an :class:`AsyncSchemaRegistryClient`. Both are made with
``await``: ``serializer = await AsyncAvroSerializer(client, schema_str)``."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Union

from ...serialization import DeserializerBuilder, SerializationContext, SerializerBuilder
from ..common import asyncinit
from ..common._builders import _AvroDeserializerSettings, _AvroSerializerSettings
from ..common.avro import AvroDeserializerSteps, AvroSerializerSteps
from ..common.schema_registry_client import Schema
from .serde import AsyncBaseDeserializer, AsyncBaseSerializer, AsyncBuild

__all__ = ["AsyncAvroSerializer", "AsyncAvroSerializerBuilder", "AsyncAvroDeserializer",
           "AsyncAvroDeserializerBuilder"]


@asyncinit
class AsyncAvroSerializer(AvroSerializerSteps, AsyncBaseSerializer):
    """The asyncio form of :class:`~confluent_kafka.schema_registry.avro.AvroSerializer`:
    ``await AsyncAvroSerializer(...)`` makes it, ``await serializer(obj, ctx)`` encodes.

    :param schema_registry_client: the :class:`AsyncSchemaRegistryClient`.
    :param schema_str: the Avro schema.
    :param to_dict: ``to_dict(obj, ctx) -> dict``.
    :param conf: as for the synchronous serializer.
    :param rule_conf: configuration given to the rule executors and actions.
    :param rule_registry: where rules find their executors and actions (default: the global one).
    """

    async def __init__(self, schema_registry_client: Any, schema_str: Union[str, Schema, None] = None,  # type: ignore[misc]
                       to_dict: Optional[Callable[[Any, SerializationContext], Any]] = None,
                       conf: Optional[Dict[str, Any]] = None, rule_conf: Optional[Dict[str, Any]] = None,
                       rule_registry: Any = None) -> None:
        await self._start(schema_registry_client, self._init_op(schema_str, to_dict, conf), rule_conf, rule_registry)


@asyncinit
class AsyncAvroDeserializer(AvroDeserializerSteps, AsyncBaseDeserializer):
    """The asyncio form of :class:`~confluent_kafka.schema_registry.avro.AvroDeserializer`.

    :param schema_registry_client: the :class:`AsyncSchemaRegistryClient`.
    :param schema_str: the reader schema, if any.
    :param from_dict: ``from_dict(dict, ctx) -> object``.
    :param return_record_name: decode unions as (name, value) tuples.
    :param conf: as for the synchronous deserializer.
    :param rule_conf: configuration given to the rule executors and actions.
    :param rule_registry: where rules find their executors and actions (default: the global one).
    """

    async def __init__(self, schema_registry_client: Any, schema_str: Union[str, Schema, None] = None,  # type: ignore[misc]
                       from_dict: Optional[Callable[[Any, SerializationContext], Any]] = None,
                       return_record_name: bool = False, conf: Optional[Dict[str, Any]] = None,
                       rule_conf: Optional[Dict[str, Any]] = None, rule_registry: Any = None) -> None:
        await self._start(schema_registry_client, self._init_op(schema_str, from_dict, return_record_name, conf),
                          rule_conf, rule_registry)


class AsyncAvroSerializerBuilder(  # type: ignore[misc]
        _AvroSerializerSettings, AsyncBuild[AsyncAvroSerializer], SerializerBuilder):
    """The asyncio form of :class:`AvroSerializerBuilder`, for an
    :class:`~confluent_kafka.aio.AsyncSerializingProducer`: ``build()`` and ``serializer_init`` are
    coroutines, and the registry client is an
    :class:`~confluent_kafka.schema_registry.AsyncSchemaRegistryClient`.
    """

    def _construct(self, client: Any) -> Any:
        return AsyncAvroSerializer(client, self._schema_str, self._to_dict, self._serializer_conf, self._rule_conf,
                                   self._rule_registry)


class AsyncAvroDeserializerBuilder(  # type: ignore[misc]
        _AvroDeserializerSettings, AsyncBuild[AsyncAvroDeserializer], DeserializerBuilder):
    """The asyncio form of :class:`AvroDeserializerBuilder`, for an asyncio deserializing consumer:
    ``build()`` and ``deserializer_init`` are coroutines, and the registry client is an
    :class:`~confluent_kafka.schema_registry.AsyncSchemaRegistryClient`.
    """

    def _construct(self, client: Any) -> Any:
        return AsyncAvroDeserializer(client, self._schema_str, self._from_dict, self._return_record_name,
                                     self._deserializer_conf, self._rule_conf, self._rule_registry)
