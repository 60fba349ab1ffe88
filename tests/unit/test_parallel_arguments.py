"""Bad arguments to the parallel consumer raise a clear error before anything starts."""

from __future__ import annotations

import asyncio
import pickle

import pytest

from confluent_kafka.parallel import AIOParallelConsumer, HandlerError, ParallelConsumer

CONF = {"bootstrap.servers": "127.0.0.1:1", "group.id": "g"}


@pytest.mark.parametrize("options, error, text", [
    ({"ordering": "keys"}, ValueError, "unknown ordering 'keys'"),
    ({"ordering": 1}, TypeError, "ordering must be a str"),
    ({"max_concurrency": 0}, ValueError, "max_concurrency must be at least 1"),
    ({"max_concurrency": 2.0}, TypeError, "max_concurrency must be an int"),
    ({"max_concurrency": True}, TypeError, "max_concurrency must be an int"),
    ({"commit_interval": 0}, ValueError, "commit_interval must be a finite number of seconds above 0"),
    ({"commit_interval": "1"}, TypeError, "commit_interval must be a number of seconds"),
    ({"revoke_timeout": float("nan")}, ValueError, "revoke_timeout"),
    ({"retry_backoff": -1}, ValueError, "retry_backoff"),
    ({"max_attempts": 0}, ValueError, "max_attempts must be at least 1"),
    ({"max_waiting": 0}, ValueError, "max_waiting must be at least 1"),
    ({"on_failure": "retry"}, ValueError, "unknown on_failure 'retry'"),
    ({"on_failure": "dead_letter"}, ValueError, "needs dead_letter_topic"),
    ({"dead_letter_topic": ""}, TypeError, "dead_letter_topic must be a non-empty str"),
    ({"dead_letter_config": ["acks"]}, TypeError, "dead_letter_config must be a dict"),
    ({"stats_cb": 3}, TypeError, "stats_cb must be callable"),
    ({"max_concurency": 3}, TypeError, "unknown option: max_concurency"),
])
@pytest.mark.parametrize("cls", [ParallelConsumer, AIOParallelConsumer])
def test_bad_options(cls, options, error, text) -> None:
    with pytest.raises(error, match=text.replace("(", r"\(").replace(")", r"\)")):
        cls(CONF, **options)


@pytest.mark.parametrize("conf, error, text", [
    ("bootstrap.servers=x", TypeError, "the configuration must be a dict"),
    ({"bootstrap.servers": "127.0.0.1:1"}, ValueError, "needs a group.id"),
    ({**CONF, "enable.auto.commit": True}, ValueError, "enable.auto.commit must be false"),
    ({**CONF, "on_commit": 5}, TypeError, "on_commit must be callable"),
    ({**CONF, "no.such.key": 1}, Exception, "no.such.key"),
])
def test_bad_configuration(conf, error, text) -> None:
    with pytest.raises(error, match=text):
        ParallelConsumer(conf)


def test_bad_topics_and_handlers() -> None:
    pc = ParallelConsumer(CONF)
    try:
        with pytest.raises(TypeError, match="topics must be a list of str"):
            pc.subscribe("orders")
        with pytest.raises(ValueError, match="non-empty list"):
            pc.subscribe([])
        with pytest.raises(RuntimeError, match="call subscribe"):
            pc.run(print)
        pc.subscribe(["orders"])
        with pytest.raises(TypeError, match="handler must be callable"):
            pc.run(None)

        async def handler(msg):
            pass
        with pytest.raises(TypeError, match="use AIOParallelConsumer"):
            pc.run(handler)
    finally:
        pc.close()
    with pytest.raises(RuntimeError, match="closed"):
        pc.run(print)


def test_aio_refuses_a_plain_handler() -> None:
    async def main() -> None:
        pc = AIOParallelConsumer(CONF)
        pc.subscribe(["orders"])
        with pytest.raises(TypeError, match="use ParallelConsumer"):
            await pc.run(print)
        await pc.close()
    asyncio.run(main())


def test_handler_error_names_the_record_and_pickles() -> None:
    class Record:
        def topic(self):
            return "orders"

        def partition(self):
            return 2

        def offset(self):
            return 41

    error = HandlerError(Record(), ValueError("bad row"), 3)
    assert str(error) == "handler failed on orders [2] at offset 41 after 3 attempts: ValueError: bad row"
    assert (error.topic, error.partition, error.offset, error.attempts) == ("orders", 2, 41, 3)
    error.record = None  # the Message pickles; this stand-in does not
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error) and copy.offset == 41
