"""Process a topic's records concurrently, keeping each key's order and committing only finished work.

:class:`ParallelConsumer` runs a handler on worker threads; :class:`AIOParallelConsumer` runs an
``async def`` handler as asyncio tasks on :mod:`confluent_kafka.aio`. See docs/parallel.md.
"""

from ._aio import AIOParallelConsumer
from ._failures import DeadLetterError, HandlerError
from ._threaded import ParallelConsumer

__all__ = ["AIOParallelConsumer", "DeadLetterError", "HandlerError", "ParallelConsumer"]
