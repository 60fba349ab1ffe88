"""The asynchronous Protobuf serializer and deserializer: the shared Protobuf steps
(``common/protobuf.py``) awaited on an :class:`AsyncSchemaRegistryClient`. Both are made with
``await``: ``serializer = await AsyncProtobufSerializer(User, client)``."""

from __future__ import annotations

from typing import Any, Dict, Optional, Set

from google.protobuf.descriptor_pool import DescriptorPool  # type: ignore[import-untyped,unused-ignore]

from ...serialization import DeserializerBuilder, SerializationContext, SerializerBuilder
from ..common import asyncinit
from ..common._builders import _ProtobufDeserializerSettings, _ProtobufSerializerSettings
from ..common.protobuf import ProtobufDeserializerSteps, ProtobufSerializerSteps, resolve_named_schemas_op
from ..common.schema_registry_client import Schema
from ..common.serde import run_async
from .serde import AsyncBaseDeserializer, AsyncBaseSerializer, AsyncBuild

__all__ = ["_resolve_named_schema", "AsyncProtobufSerializer", "AsyncProtobufSerializerBuilder",
           "AsyncProtobufDeserializer", "AsyncProtobufDeserializerBuilder"]


async def _resolve_named_schema(schema: Schema, schema_registry_client: Any, pool: DescriptorPool,
                                visited: Optional[Set[str]] = None) -> None:
    """Add the files ``schema`` references (recursively) to ``pool``, fetched through the
    async client.

    :param schema: the schema.
    :param schema_registry_client: the :class:`AsyncSchemaRegistryClient`.
    :param pool: the descriptor pool.
    :param visited: reference names already added.
    """
    await run_async(resolve_named_schemas_op(schema, pool, visited), schema_registry_client)


@asyncinit
class AsyncProtobufSerializer(ProtobufSerializerSteps, AsyncBaseSerializer):
    """The asyncio form of :class:`~confluent_kafka.schema_registry.protobuf.ProtobufSerializer`:
    ``await AsyncProtobufSerializer(...)`` makes it, ``await serializer(message, ctx)`` encodes.

    :param msg_type: the generated message class.
    :param schema_registry_client: the :class:`AsyncSchemaRegistryClient`.
    :param conf: as for the synchronous serializer.
    :param rule_conf: configuration given to the rule executors and actions.
    :param rule_registry: where rules find their executors and actions (default: the global one).
    """

    async def __init__(self, msg_type: Any, schema_registry_client: Any,  # type: ignore[misc]
                       conf: Optional[Dict[str, Any]] = None, rule_conf: Optional[Dict[str, Any]] = None,
                       rule_registry: Any = None) -> None:
        await self._start(schema_registry_client, self._init_op(msg_type, conf), rule_conf, rule_registry)

    async def __call__(self, message: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:  # type: ignore[override]
        """Encode ``message`` (see the synchronous serializer).

        :param message: an instance of the message type; None gives None.
        :param ctx: the serialization context.
        :returns: the framed bytes.
        """
        result: Optional[bytes] = await self._run(self._serialize_op(message, ctx))
        return result


@asyncinit
class AsyncProtobufDeserializer(ProtobufDeserializerSteps, AsyncBaseDeserializer):
    """The asyncio form of
    :class:`~confluent_kafka.schema_registry.protobuf.ProtobufDeserializer`.

    :param message_type: the generated message class to decode into.
    :param conf: as for the synchronous deserializer.
    :param schema_registry_client: the :class:`AsyncSchemaRegistryClient`, if any.
    :param rule_conf: configuration given to the rule executors and actions.
    :param rule_registry: where rules find their executors and actions (default: the global one).
    """

    async def __init__(self, message_type: Any, conf: Optional[Dict[str, Any]] = None,  # type: ignore[misc]
                       schema_registry_client: Any = None, rule_conf: Optional[Dict[str, Any]] = None,
                       rule_registry: Any = None) -> None:
        await self._start(schema_registry_client, self._init_op(message_type, conf), rule_conf, rule_registry)


class AsyncProtobufSerializerBuilder(  # type: ignore[misc]
        _ProtobufSerializerSettings, AsyncBuild[AsyncProtobufSerializer], SerializerBuilder):
    """The asyncio form of :class:`ProtobufSerializerBuilder`, for an
    :class:`~confluent_kafka.aio.AsyncSerializingProducer`: ``build()`` and ``serializer_init`` are
    coroutines, and the registry client is an
    :class:`~confluent_kafka.schema_registry.AsyncSchemaRegistryClient`.
    """

    def _construct(self, client: Any) -> Any:
        return AsyncProtobufSerializer(self._msg_type, client, self._serializer_conf, self._rule_conf,
                                       self._rule_registry)


class AsyncProtobufDeserializerBuilder(  # type: ignore[misc]
        _ProtobufDeserializerSettings, AsyncBuild[AsyncProtobufDeserializer], DeserializerBuilder):
    """The asyncio form of :class:`ProtobufDeserializerBuilder`, for an asyncio deserializing consumer:
    ``build()`` and ``deserializer_init`` are coroutines, and the registry client is an
    :class:`~confluent_kafka.schema_registry.AsyncSchemaRegistryClient`.
    """

    def _construct(self, client: Any) -> Any:
        return AsyncProtobufDeserializer(self._msg_type, self._deserializer_conf, client, self._rule_conf,
                                         self._rule_registry)
