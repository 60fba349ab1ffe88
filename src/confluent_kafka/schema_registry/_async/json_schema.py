"""The asynchronous JSON Schema serializer and deserializer: the shared JSON steps
(``common/json_schema.py``) awaited on an :class:`AsyncSchemaRegistryClient`. Both are made with
``await``: ``serializer = await AsyncJSONSerializer(schema_str, client)``."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Union

from ...serialization import DeserializerBuilder, SerializationContext, SerializerBuilder
from ..common import asyncinit
from ..common._builders import _JSONDeserializerSettings, _JSONSerializerSettings
from ..common.json_schema import JsonDeserializerSteps, JsonSerializerSteps, resolve_named_schemas_op
from ..common.schema_registry_client import Schema
from ..common.serde import run_async
from .serde import AsyncBaseDeserializer, AsyncBaseSerializer, AsyncBuild

__all__ = ["_resolve_named_schema", "AsyncJSONSerializer", "AsyncJSONSerializerBuilder", "AsyncJSONDeserializer",
           "AsyncJSONDeserializerBuilder"]


async def _resolve_named_schema(schema: Schema, schema_registry_client: Any, ref_registry: Any = None) -> Any:
    """The schemas ``schema`` references, fetched through the async client (see the
    synchronous ``_resolve_named_schema``).

    :param schema: the schema.
    :param schema_registry_client: the :class:`AsyncSchemaRegistryClient`.
    :param ref_registry: a ``referencing.Registry`` to add to (a new one when None).
    :returns: the ``referencing.Registry``.
    """
    return await run_async(resolve_named_schemas_op(schema, ref_registry), schema_registry_client)


@asyncinit
class AsyncJSONSerializer(JsonSerializerSteps, AsyncBaseSerializer):
    """The asyncio form of :class:`~confluent_kafka.schema_registry.json_schema.JSONSerializer`:
    ``await AsyncJSONSerializer(...)`` makes it, ``await serializer(obj, ctx)`` encodes.

    :param schema_str: the JSON Schema.
    :param schema_registry_client: the :class:`AsyncSchemaRegistryClient`.
    :param to_dict: ``to_dict(obj, ctx) -> dict``.
    :param conf: as for the synchronous serializer.
    :param rule_conf: configuration given to the rule executors and actions.
    :param rule_registry: where rules find their executors and actions (default: the global one).
    :param json_encode: the encoder.
    """

    async def __init__(self, schema_str: Union[str, Schema, None], schema_registry_client: Any,  # type: ignore[misc]
                       to_dict: Optional[Callable[[Any, SerializationContext], Any]] = None,
                       conf: Optional[Dict[str, Any]] = None, rule_conf: Optional[Dict[str, Any]] = None,
                       rule_registry: Any = None, json_encode: Optional[Callable[[Any], Any]] = None) -> None:
        await self._start(schema_registry_client, self._init_op(schema_str, to_dict, conf, json_encode),
                          rule_conf, rule_registry)


@asyncinit
class AsyncJSONDeserializer(JsonDeserializerSteps, AsyncBaseDeserializer):
    """The asyncio form of :class:`~confluent_kafka.schema_registry.json_schema.JSONDeserializer`.

    :param schema_str: the reader schema, if any.
    :param from_dict: ``from_dict(dict, ctx) -> object``.
    :param schema_registry_client: the :class:`AsyncSchemaRegistryClient`.
    :param conf: as for the synchronous deserializer.
    :param rule_conf: configuration given to the rule executors and actions.
    :param rule_registry: where rules find their executors and actions (default: the global one).
    :param json_decode: the decoder.
    """

    async def __init__(self, schema_str: Union[str, Schema, None],  # type: ignore[misc]
                       from_dict: Optional[Callable[[Any, SerializationContext], Any]] = None,
                       schema_registry_client: Any = None, conf: Optional[Dict[str, Any]] = None,
                       rule_conf: Optional[Dict[str, Any]] = None, rule_registry: Any = None,
                       json_decode: Optional[Callable[[Any], Any]] = None) -> None:
        await self._start(schema_registry_client, self._init_op(schema_str, from_dict, conf, json_decode),
                          rule_conf, rule_registry)


class AsyncJSONSerializerBuilder(  # type: ignore[misc]
        _JSONSerializerSettings, AsyncBuild[AsyncJSONSerializer], SerializerBuilder):
    """The asyncio form of :class:`JSONSerializerBuilder`, for an
    :class:`~confluent_kafka.aio.AsyncSerializingProducer`: ``build()`` and ``serializer_init`` are
    coroutines, and the registry client is an
    :class:`~confluent_kafka.schema_registry.AsyncSchemaRegistryClient`.
    """

    def _construct(self, client: Any) -> Any:
        return AsyncJSONSerializer(self._schema_str, client, self._to_dict, self._serializer_conf, self._rule_conf,
                                   self._rule_registry, self._json_encode)


class AsyncJSONDeserializerBuilder(  # type: ignore[misc]
        _JSONDeserializerSettings, AsyncBuild[AsyncJSONDeserializer], DeserializerBuilder):
    """The asyncio form of :class:`JSONDeserializerBuilder`, for an asyncio deserializing consumer:
    ``build()`` and ``deserializer_init`` are coroutines, and the registry client is an
    :class:`~confluent_kafka.schema_registry.AsyncSchemaRegistryClient`.
    """

    def _construct(self, client: Any) -> Any:
        return AsyncJSONDeserializer(self._schema_str, self._from_dict, client, self._deserializer_conf,
                                     self._rule_conf, self._rule_registry, self._json_decode)
