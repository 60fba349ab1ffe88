"""asyncio clients: :class:`AIOProducer` and :class:`AIOConsumer`, and their serializing forms
:class:`AsyncSerializingProducer` and :class:`AsyncDeserializingConsumer`.

They are driven by librdkafka's queue wake-ups on a descriptor the event loop watches
(``loop.add_reader``): no thread polls and no thread pool runs. See ``docs/asyncio.md``.
"""

from ._consumer import AIOConsumer
from ._producer import AIOProducer
from ._serde_clients import AsyncDeserializingConsumer, AsyncSerializingProducer

__all__ = ["AIOConsumer", "AIOProducer", "AsyncDeserializingConsumer", "AsyncSerializingProducer"]
