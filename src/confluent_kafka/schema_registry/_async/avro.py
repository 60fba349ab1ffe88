"""The asynchronous Avro serializer and deserializer: the shared Avro steps
(``common/avro.py``) awaited on an :class:`AsyncSchemaRegistryClient`. Both are made with
``await``: ``serializer = await AsyncAvroSerializer(client, schema_str)``."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Union

from ...serialization import SerializationContext
from .._sync.avro import _DESERIALIZER_DEFAULTS, _SERIALIZER_DEFAULTS
from ..common import asyncinit
from ..common.avro import AvroDeserializerSteps, AvroSerializerSteps
from ..common.schema_registry_client import Schema
from .serde import AsyncBaseDeserializer, AsyncBaseSerializer

__all__ = ["AsyncAvroSerializer", "AsyncAvroDeserializer"]


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
        self._registry = schema_registry_client
        await self._run(self._init_op(schema_str, to_dict, conf, _SERIALIZER_DEFAULTS))
        self._init_rules(rule_conf, rule_registry)

    async def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:  # type: ignore[override]
        """Encode ``obj`` (see the synchronous serializer).

        :param obj: the value; None gives None.
        :param ctx: the serialization context.
        :returns: the framed bytes.
        """
        result: Optional[bytes] = await self._run(self._serialize_op(obj, ctx))
        return result


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
        self._registry = schema_registry_client
        await self._run(self._init_op(schema_str, from_dict, return_record_name, conf, _DESERIALIZER_DEFAULTS))
        self._init_rules(rule_conf, rule_registry)

    async def __call__(self, data: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        """Decode framed Avro bytes (see the synchronous deserializer).

        :param data: the bytes; None gives None.
        :param ctx: the serialization context.
        :returns: the record.
        """
        return await self._run(self._deserialize_op(data, ctx))
