"""One test body for the sync and the async serdes of a Schema Registry format: the unit tests
of the Avro, JSON Schema and Protobuf serdes (tests/unit/test_schema_registry_*.py) each subclass
:class:`SerdeSide` with their format's classes and take the ``side`` fixture
:func:`side_fixture` makes from it."""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Iterator, Type

import pytest

from confluent_kafka.schema_registry import AsyncSchemaRegistryClient, SchemaRegistryClient
from confluent_kafka.serialization import MessageField, SerializationContext

#: The context a serde runs with unless a test gives another.
VALUE = SerializationContext("users", MessageField.VALUE)


class SerdeSide:
    """Builds serdes and runs them, sync or async (``kind``), on a ``mock://`` registry of its own
    (``url``). A subclass adds ``serializer(...)`` and ``deserializer(...)``, each returning
    :meth:`bound` of the serde it makes with :meth:`pick`."""

    url = "mock://"

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.loop = asyncio.new_event_loop()
        self.client = self.pick(SchemaRegistryClient, AsyncSchemaRegistryClient).new_client({"url": self.url})

    def pick(self, sync: Any, asynchronous: Any) -> Any:
        """The class of this side's kind."""
        return sync if self.kind == "sync" else asynchronous

    def run(self, value: Any) -> Any:
        """``value``, awaited on this side's loop when it is a coroutine."""
        return self.loop.run_until_complete(value) if asyncio.iscoroutine(value) else value

    def bound(self, made: Any) -> Callable[..., Any]:
        """A serde (or the coroutine making one) as a plain function of a value and a context
        (:data:`VALUE` by default)."""
        serde = self.run(made)
        return lambda value, ctx=VALUE: self.run(serde(value, ctx))

    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Call the registry client's method ``name`` (awaited on the async side)."""
        return self.run(getattr(self.client, name)(*args, **kwargs))


def side_fixture(side_class: Type[SerdeSide]) -> Any:
    """The ``side`` fixture of a test module: ``side_class`` made sync, then async."""

    @pytest.fixture(params=["sync", "async"])
    def side(request: pytest.FixtureRequest) -> Iterator[SerdeSide]:
        made = side_class(request.param)
        yield made
        made.loop.close()

    return side
