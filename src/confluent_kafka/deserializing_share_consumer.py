"""``DeserializingShareConsumer``: a share consumer whose ``poll()`` deserializes keys and values.

Like :class:`~confluent_kafka.ShareConsumer`, it needs librdkafka's share consumer API, which
this build does not have: constructing one raises :class:`NotImplementedError`.
"""
from __future__ import annotations

from typing import Any, Dict

from ._model import Messages
from .cimpl import ShareConsumer

__all__ = ["DeserializingShareConsumer"]


class DeserializingShareConsumer(ShareConsumer):
    """A :class:`~confluent_kafka.ShareConsumer` with ``key.deserializer`` and
    ``value.deserializer`` configuration keys (``Callable(bytes, SerializationContext)``).

    :param conf: the configuration.
    :raises NotImplementedError: always, naming the librdkafka version the API needs.
    """

    def __init__(self, conf: Dict[str, Any]) -> None:
        super().__init__(conf)

    def poll(self, timeout: float = -1) -> Messages:
        """The next batch of records, keys and values deserialized in place."""
        return super().poll(timeout)
