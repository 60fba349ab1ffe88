"""Small pure-Python value types that the C extension builds and hands to user callbacks."""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Tuple, Union, overload

if TYPE_CHECKING:
    from .cimpl import Message

__all__ = ["AcknowledgeType", "Messages", "ThrottleEvent"]


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

    # Upstream defines the class in the package itself: pickles name it there, so they load on
    # either side.
    __module__ = "confluent_kafka"

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
        # Upstream's text, whole milliseconds truncated toward zero, so logs parse the same.
        return f"{self.broker_name}/{self.broker_id} throttled for {int(self.throttle_time * 1000)} ms"

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

    def __reduce__(self) -> Tuple[type, Tuple[str, int, float]]:
        # Rebuilt through the constructor, which upstream's class shares.
        return (ThrottleEvent, (self.broker_name, self.broker_id, self.throttle_time))

    def __setstate__(self, state: Dict[str, Any]) -> None:
        """Take the state of an upstream pickle: its instance's ``__dict__``."""
        for name in self.__slots__:
            setattr(self, name, state[name])


# The admin model types upstream defines in this module (confluent_kafka._model): they live with
# the admin types and name this module as theirs, so pickles and reprs match upstream's.
from .admin._model_types import *  # noqa: E402,F401,F403 - the names in its __all__
class AcknowledgeType(IntEnum):
    """How a share consumer tells the broker to treat a record it was given (KIP-932).

    The values are those of ``cimpl.SHARE_ACKNOWLEDGE_TYPE_*``.
    """

    #: Processed: the broker will not deliver the record again.
    ACCEPT = 1
    #: Not processed: the broker may deliver the record again, to any member of the group.
    RELEASE = 2
    #: Not processable: the broker will not deliver the record again.
    REJECT = 3


class Messages:
    """A batch of records as ``ShareConsumer.poll()`` returns it: read-only, sized, iterable
    and indexable (a slice is a ``Messages`` again).

    :param messages: the records of the batch.
    """

    def __init__(self, messages: Iterable[Message] = ()) -> None:
        # The attribute's name is what a pickled batch carries (upstream's too).
        self._records: List[Message] = list(messages)

    def records(self) -> List[Message]:
        """The records, as a new list (changing it leaves the batch as it is).

        :returns: the records in order.
        """
        return self._records[:]

    def count(self) -> int:
        """How many records the batch holds.

        :returns: the number of records.
        """
        return len(self._records)

    def is_empty(self) -> bool:
        """Whether the batch holds no record.

        :returns: True for an empty batch.
        """
        return not self._records

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[Message]:
        return iter(self._records)

    @overload
    def __getitem__(self, index: int) -> Message: ...

    @overload
    def __getitem__(self, index: slice) -> "Messages": ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Message, "Messages"]:
        if isinstance(index, slice):
            part = type(self).__new__(type(self))
            part._records = self._records[index]
            return part
        return self._records[index]

    def __repr__(self) -> str:
        return f"Messages({self._records!r})"
