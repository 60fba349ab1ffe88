"""asyncio clients: :class:`AIOProducer` and :class:`AIOConsumer`.

They are driven by librdkafka's queue wake-ups on a descriptor the event loop watches
(``loop.add_reader``): no thread polls and no thread pool runs. See ``docs/asyncio.md``.
"""

from ._consumer import AIOConsumer
from ._producer import AIOProducer

__all__ = ["AIOConsumer", "AIOProducer"]
