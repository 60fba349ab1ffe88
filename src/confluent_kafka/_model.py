"""Small pure-Python value types that the C extension builds and hands to user callbacks."""

from __future__ import annotations

__all__ = ["ThrottleEvent"]


class ThrottleEvent:
    """A broker told the client that its requests are being throttled.

    Instances are passed to the ``throttle_cb`` configuration callback while the
    client is being polled.

    :param broker_name: The broker's name as librdkafka reports it (``host:port/id``).
    :param broker_id: The broker's node id.
    :param throttle_time: How long the broker throttles this client, in seconds.
    """

    # A dict gives each slot's descriptor its docstring.
    __slots__ = {
        "broker_name": "The broker's name as librdkafka reports it (``host:port/id``).",
        "broker_id": "The broker's node id.",
        "throttle_time": "How long the broker throttles this client, in seconds.",
    }

    broker_name: str
    broker_id: int
    throttle_time: float

    def __init__(self, broker_name: str, broker_id: int, throttle_time: float) -> None:
        self.broker_name = broker_name
        self.broker_id = broker_id
        self.throttle_time = throttle_time

    def __repr__(self) -> str:
        return (
            f"ThrottleEvent(broker_name={self.broker_name!r}, "
            f"broker_id={self.broker_id!r}, throttle_time={self.throttle_time!r})"
        )

    def __str__(self) -> str:
        ms = round(self.throttle_time * 1000)
        return f"broker {self.broker_name} (id {self.broker_id}) throttled requests for {ms} ms"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ThrottleEvent):
            return NotImplemented
        return (self.broker_name, self.broker_id, self.throttle_time) == (
            other.broker_name,
            other.broker_id,
            other.throttle_time,
        )

    def __hash__(self) -> int:
        return hash((self.broker_name, self.broker_id, self.throttle_time))


# The admin model types upstream defines in this module (confluent_kafka._model): they live with
# the admin types and name this module as theirs, so pickles and reprs match upstream's.
from .admin._model_types import (  # noqa: E402,F401
    ConsumerGroupState,
    ConsumerGroupTopicPartitions,
    ConsumerGroupType,
    ElectionType,
    IsolationLevel,
    Node,
    TopicCollection,
    TopicPartitionInfo,
)
