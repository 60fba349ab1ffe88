"""Client factories and collectors shared by the test tiers; each tier's conftest only says
which broker its clients talk to."""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Type, TypeVar

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Message, Producer, TopicPartition

C = TypeVar("C", Producer, Consumer)


class Reports:
    """A delivery callback that records ``(err, msg)`` pairs."""

    def __init__(self) -> None:
        self.calls: List[Tuple[Optional[KafkaError], Message]] = []

    def __call__(self, err: Optional[KafkaError], msg: Message) -> None:
        self.calls.append((err, msg))

    def __len__(self) -> int:
        return len(self.calls)

    @property
    def errors(self) -> List[Optional[KafkaError]]:
        return [e for e, _ in self.calls]

    @property
    def messages(self) -> List[Message]:
        return [m for _, m in self.calls]

    def wait(self, p: Producer, n: int, timeout: float = 30.0) -> None:
        """Poll ``p`` until ``n`` reports arrived (AssertionError after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while len(self.calls) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"only {len(self.calls)} of {n} delivery reports arrived")
            p.poll(min(left, 0.5))


def dispose(client: Any) -> None:
    """Drop what a test client still holds and close it, whatever state it is in."""
    if isinstance(client, Producer):
        try:
            client.purge(in_queue=True, in_flight=True)
            client.poll(0)
        except Exception:
            pass
    try:
        client.close()
    except Exception:
        pass


def client_factory(cls: Type[C], base: Callable[[], Dict[str, Any]]) -> Iterator[Callable[..., C]]:
    """Generator for a fixture: yields ``make(conf=None, **conf)`` (keys verbatim, merged over
    ``base()``; a value of None removes the key) and disposes of every client made."""
    made: List[C] = []

    def make(conf: Optional[Dict[str, Any]] = None, **kwargs: Any) -> C:
        merged = {**base(), **(conf or {}), **kwargs}
        client = cls({k: v for k, v in merged.items() if v is not None})
        made.append(client)
        return client

    yield make
    for client in made:
        dispose(client)


def future_results(futures: Dict[Any, Any], timeout: float = 30.0) -> Dict[Any, Any]:
    """The result of every future of an AdminClient call, by entity (raises the first failure)."""
    return {k: f.result(timeout) for k, f in futures.items()}


def partition_reader(make_consumer: Callable[..., Consumer],
                     default_timeout: float) -> Callable[..., List[Message]]:
    """``read(topic, partition, count, timeout=default_timeout, **conf)``: the first ``count``
    messages of one partition, read by a fresh consumer with assign() from the beginning."""

    def read(topic: str, partition: int, count: int, timeout: float = default_timeout,
             **conf: Any) -> List[Message]:
        c = make_consumer(conf)
        c.assign([TopicPartition(topic, partition, OFFSET_BEGINNING)])
        try:
            return read_messages(c, count, timeout, f"{topic}[{partition}]")
        finally:
            c.close()

    return read


def read_messages(c: Consumer, count: int, timeout: float, what: str) -> List[Message]:
    """The next ``count`` data messages of ``c`` (end-of-partition notices skipped)."""
    out: List[Message] = []
    deadline = time.monotonic() + timeout
    while len(out) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"read {len(out)} of {count} messages from {what}")
        for m in c.consume(min(count - len(out), 10_000), min(left, 1.0)):
            err = m.error()
            if err is not None:
                if err.code() == KafkaError._PARTITION_EOF:
                    continue
                raise AssertionError(f"consume error: {err!r}")
            out.append(m)
    return out
