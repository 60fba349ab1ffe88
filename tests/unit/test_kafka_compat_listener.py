"""kafka-python's KafkaConsumer facade: a rebalance listener may return an awaitable, which is
run to completion before the rebalance goes on (a coroutine, or any object with __await__)."""

from __future__ import annotations

from typing import Any, Generator, List

from confluent_kafka import TopicPartition as NativeTopicPartition
from confluent_kafka.compat.kafka import KafkaConsumer
from confluent_kafka.compat.kafka.structs import TopicPartition


class _Awaitable:
    """Not a coroutine: asyncio.run alone refuses it."""

    def __init__(self, seen: List[Any], value: Any) -> None:
        self.seen, self.value = seen, value

    def __await__(self) -> Generator[Any, None, None]:
        self.seen.append(("awaited", self.value))
        return
        yield  # a generator: __await__ must return an iterator


class _Listener:
    def __init__(self) -> None:
        self.seen: List[Any] = []

    async def on_partitions_assigned(self, assigned: Any) -> None:
        self.seen.append(("assigned", assigned))

    def on_partitions_revoked(self, revoked: Any) -> _Awaitable:
        return _Awaitable(self.seen, revoked)


def _consumer_with(listener: Any) -> KafkaConsumer:
    consumer = KafkaConsumer.__new__(KafkaConsumer)  # no native client: only the listener call
    consumer._listener = listener
    return consumer


def test_listener_coroutines_and_other_awaitables_are_run() -> None:
    listener = _Listener()
    consumer = _consumer_with(listener)
    consumer._listen("on_partitions_assigned", [NativeTopicPartition("t", 0)])
    consumer._listen("on_partitions_revoked", [NativeTopicPartition("t", 1)])
    assert listener.seen == [("assigned", {TopicPartition("t", 0)}), ("awaited", {TopicPartition("t", 1)})]
