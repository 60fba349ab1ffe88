"""The asyncio clients' upstream-compatible surface on the mock cluster: upstream's constructor
arguments (no pool behind them), cluster_id(), ``async def`` configuration callbacks, and the
serializing AsyncSerializingProducer / AsyncDeserializingConsumer end to end."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional

import pytest

from aio_support import run
from confluent_kafka import OFFSET_BEGINNING, KafkaError, KafkaException, Message, TopicPartition
from confluent_kafka.aio import AIOConsumer, AIOProducer, AsyncDeserializingConsumer, AsyncSerializingProducer
from confluent_kafka.error import ConsumeError, KeySerializationError, ValueDeserializationError, ValueSerializationError
from confluent_kafka.serialization import (IntegerDeserializer, IntegerSerializer, MessageField, SerializationContext,
                                           StringDeserializer, StringSerializer)

pytestmark = pytest.mark.mock

NOWHERE = {"bootstrap.servers": "127.0.0.1:1", "log_level": 0}


def _group(bootstrap: str, group: str = "g", **extra: Any) -> Dict[str, Any]:
    return {"bootstrap.servers": bootstrap, "group.id": group, "session.timeout.ms": 6000,
            "enable.auto.commit": False, **extra}


async def _poll_n(c: Any, n: int, deadline: float = 30.0) -> List[Any]:
    """``n`` polled messages, or the exceptions poll() raised, in order."""
    got: List[Any] = []
    end = time.monotonic() + deadline
    while len(got) < n and time.monotonic() < end:
        try:
            m = await c.poll(0.5)
        except KafkaException as exc:
            got.append(exc)
            continue
        if m is not None:
            got.append(m)
    assert len(got) == n, got
    return got


def test_upstream_constructor_arguments_start_no_thread(mock_cluster: Any) -> None:
    pool = ThreadPoolExecutor(1)
    threads = threading.active_count()

    async def main() -> None:
        conf = {"bootstrap.servers": mock_cluster.bootstrap_servers}
        producers = [AIOProducer(dict(conf), 5), AIOProducer(producer_conf=dict(conf), max_workers=2, executor=pool,
                                                             batch_size=10, buffer_timeout=0.01),
                     AIOProducer(dict(conf), 4, None, 1, 0)]
        consumers = [AIOConsumer({**conf, "group.id": "g"}, 7), AIOConsumer(consumer_conf={**conf, "group.id": "g"},
                                                                          max_workers=0, executor=pool)]
        assert threading.active_count() == threads
        for p in producers:
            msg = await p.produce_and_wait("args", b"v")
            assert msg.error() is None
            await p.close()
        for c in consumers:
            await c.close()

    run(main)
    # The executor was never used, and is still the caller's to use and shut down.
    assert pool.submit(lambda: 42).result() == 42
    pool.shutdown()
    assert threading.active_count() == threads


def test_upstream_refusals_of_max_workers() -> None:
    async def main() -> None:
        with pytest.raises(ValueError, match="max_workers must be greater than 0"):
            AIOProducer(dict(NOWHERE), max_workers=0)
        with pytest.raises(ValueError, match="max_workers must be at least 1"):
            AIOConsumer({**NOWHERE, "group.id": "g"}, max_workers=0)
        with pytest.raises(TypeError):
            AIOProducer(dict(NOWHERE), buffer_timeout="1")  # type: ignore[arg-type]

    run(main)


def test_poll_does_not_wait_by_default() -> None:
    async def main() -> None:
        async with AIOProducer(dict(NOWHERE)) as p:
            start = time.monotonic()
            assert isinstance(await asyncio.wait_for(p.poll(), 5), int)
            assert time.monotonic() - start < 2
            with pytest.raises(TypeError, match="must be real number, not str"):
                await p.poll("1")  # type: ignore[arg-type]
        assert len(p) == 0  # closed

    run(main)


def test_cluster_id(mock_cluster: Any) -> None:
    async def main() -> None:
        conf = {"bootstrap.servers": mock_cluster.bootstrap_servers}
        async with AIOProducer(conf) as p, AIOConsumer({**conf, "group.id": "g"}) as c:
            md = await p.list_topics(timeout=10)
            assert await p.cluster_id(10) == md.cluster_id
            assert await c.cluster_id(timeout=10) == md.cluster_id
        async with AIOProducer(dict(NOWHERE)) as nowhere:
            start = time.monotonic()
            with pytest.raises(KafkaException) as ei:
                await nowhere.cluster_id(0.3)
            assert ei.value.args[0].code() == KafkaError._TIMED_OUT
            assert time.monotonic() - start < 10

    run(main)


def test_async_conf_callbacks_run_on_the_loop_and_their_errors_surface() -> None:
    seen: List[Any] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()

        async def error_cb(err: KafkaError) -> None:
            assert asyncio.get_running_loop() is loop
            await asyncio.sleep(0)
            seen.append(err.code())

        def stats_cb(stats: str) -> None:  # a plain one, in the same configuration
            seen.append("stats")

        async with AIOProducer({**NOWHERE, "error_cb": error_cb, "stats_cb": stats_cb,
                                "statistics.interval.ms": 50}) as p:
            end = time.monotonic() + 20
            while not (KafkaError._TRANSPORT in seen or KafkaError._ALL_BROKERS_DOWN in seen) or "stats" not in seen:
                assert time.monotonic() < end, seen
                await p.poll(0.1)

        async def failing(err: KafkaError) -> None:
            raise LookupError("from error_cb")

        c = AIOConsumer({**NOWHERE, "group.id": "g", "error_cb": failing})
        await c.subscribe(["t"])
        with pytest.raises(LookupError, match="from error_cb"):
            end = time.monotonic() + 20
            while time.monotonic() < end:
                await c.poll(0.1)
        await c.close()

    run(main)


def test_async_on_delivery(mock_cluster: Any) -> None:
    reports: List[Any] = []

    async def main() -> None:
        async def on_delivery(err: Optional[KafkaError], msg: Message) -> None:
            await asyncio.sleep(0)
            reports.append((err, msg.value()))

        async with AIOProducer({"bootstrap.servers": mock_cluster.bootstrap_servers}) as p:
            fut = await p.produce("cb", b"one", on_delivery=on_delivery)
            assert (await fut).value() == b"one"
        # close() waited for the callback tasks too.
        assert reports == [(None, b"one")]

    run(main)


def test_serializing_clients_end_to_end(mock_cluster: Any) -> None:
    mock_cluster.create_topic("serde", 1)
    bootstrap = mock_cluster.bootstrap_servers

    async def main() -> None:
        made = AsyncSerializingProducer({"bootstrap.servers": bootstrap, "key.serializer": IntegerSerializer(),
                                         "value.serializer": StringSerializer()})
        assert asyncio.iscoroutine(made)
        p = await made
        assert isinstance(p, AIOProducer)
        futs = [await p.produce("serde", key=i, value=f"v{i}", headers={"n": str(i)}) for i in range(3)]
        with pytest.raises(KeySerializationError) as ki:
            await p.produce("serde", key="not an int", value="x")
        assert str(ki.value.exception) == "required argument is not an integer"
        with pytest.raises(ValueSerializationError, match="'int' object has no attribute 'encode'"):
            await p.produce("serde", key=1, value=5)
        with pytest.raises(TypeError, match="topic must be a str, not bytes"):
            await p.produce(b"serde", key=1, value="x")  # type: ignore[arg-type]
        delivered = [await f for f in futs]
        assert [(m.key(), m.value(), m.headers()) for m in delivered] == [
            (bytes([0, 0, 0, i]), b"v%d" % i, [("n", b"%d" % i)]) for i in range(3)]
        raw = AIOProducer({"bootstrap.servers": bootstrap})
        await raw.produce_and_wait("serde", b"\xff", b"\x00\x00\x00\x09")  # a value that is not UTF-8
        await raw.produce_and_wait("serde", b"ok", b"\x00\x00\x00\x0a")
        await raw.close()
        await p.close()
        with pytest.raises(RuntimeError, match="Producer has been closed"):
            await p.produce("serde", key=1, value="x")

        c = await AsyncDeserializingConsumer({**_group(bootstrap), "key.deserializer": IntegerDeserializer(),
                                              "value.deserializer": StringDeserializer()})
        await c.assign([TopicPartition("serde", 0, OFFSET_BEGINNING)])
        first = await _poll_n(c, 1)
        assert (first[0].key(), first[0].value()) == (0, "v0")
        batch: List[Message] = []
        while len(batch) < 2:
            batch += await c.consume(2 - len(batch), 5)
        assert [(m.key(), m.value()) for m in batch] == [(1, "v1"), (2, "v2")]
        (bad,) = await _poll_n(c, 1)
        assert isinstance(bad, ValueDeserializationError)
        assert bad.kafka_message is not None and bad.kafka_message.value() == b"\xff"
        assert bad.kafka_message.key() == b"\x00\x00\x00\x09"  # raw: neither field was set
        async for m in c:
            assert (m.key(), m.value()) == (10, "ok")
            break
        await c.close()
        await c.close()

    run(main)


def test_a_failure_mid_batch_loses_no_message(mock_cluster: Any) -> None:
    mock_cluster.create_topic("midbatch", 1)
    bootstrap = mock_cluster.bootstrap_servers

    async def main() -> None:
        async with AIOProducer({"bootstrap.servers": bootstrap}) as p:
            await p.produce_batch("midbatch", [{"value": v} for v in (b"\x00\x00\x00\x01", b"\x01",
                                                                     b"\x00\x00\x00\x03", b"\x00\x00\x00\x04")])
        c = await AsyncDeserializingConsumer({**_group(bootstrap), "value.deserializer": IntegerDeserializer()})
        await c.assign([TopicPartition("midbatch", 0, OFFSET_BEGINNING)])
        outcomes: List[Any] = []
        end = time.monotonic() + 30
        while len(outcomes) < 4 and time.monotonic() < end:
            try:
                outcomes += [m.value() for m in await c.consume(10, 1)]
            except ValueDeserializationError as e:
                assert e.kafka_message is not None
                outcomes.append(("failed", e.kafka_message.offset()))
        assert outcomes == [1, ("failed", 1), 3, 4]
        await c.close()

    run(main)


def test_error_events_pass_through_consume_and_raise_from_poll(mock_cluster: Any) -> None:
    mock_cluster.create_topic("events", 1)
    bootstrap = mock_cluster.bootstrap_servers

    async def main() -> None:
        async with AIOProducer({"bootstrap.servers": bootstrap}) as p:
            await p.produce_and_wait("events", b"x", partition=0)
        c = await AsyncDeserializingConsumer({**_group(bootstrap, **{"enable.partition.eof": True}),
                                              "value.deserializer": StringDeserializer()})
        await c.assign([TopicPartition("events", 0, OFFSET_BEGINNING)])
        got: List[Message] = []
        while len(got) < 2:
            got += await c.consume(5, 5)
        assert got[0].value() == "x"
        assert got[1].error() is not None and got[1].error().code() == KafkaError._PARTITION_EOF
        await c.seek(TopicPartition("events", 0, 0))
        polled = await _poll_n(c, 2)
        assert polled[0].value() == "x"
        assert type(polled[1]) is ConsumeError and polled[1].code == KafkaError._PARTITION_EOF
        await c.close()

    run(main)


class _Log:
    def __init__(self) -> None:
        self.entries: List[Any] = []

    def serde(self, name: str) -> Any:
        log = self.entries

        class AsyncSerde:
            async def __call__(self, obj: Any, ctx: SerializationContext) -> Any:
                log.append((name, ctx.field))
                await asyncio.sleep(0)
                return None if obj is None else str(obj).encode()

            def set_cluster_id_resolver(self, resolver: Any) -> None:
                log.append((name, "sync resolver"))

            def set_async_cluster_id_resolver(self, resolver: Any) -> None:
                self.resolver = resolver
                log.append((name, "async resolver"))

            async def aclose(self) -> None:
                log.append((name, "aclose"))

        return AsyncSerde()

    def builder(self, name: str) -> Any:
        outer = self

        class AsyncBuilder:
            async def build(self, conf: Dict[str, Any], is_key: bool) -> Any:
                outer.entries.append((name, "build", is_key, conf.get("custom." + name)))
                return outer.serde(name), {k: v for k, v in conf.items() if k != "custom." + name}

        return AsyncBuilder()


def test_async_serdes_builders_and_resolver(mock_cluster: Any) -> None:
    mock_cluster.create_topic("built", 1)
    bootstrap = mock_cluster.bootstrap_servers
    log = _Log()

    async def main() -> None:
        ready = log.serde("ready")
        p = await AsyncSerializingProducer({"bootstrap.servers": bootstrap, "custom.kb": 1,
                                            "key.serializer.builder": log.builder("kb"), "value.serializer": ready},
                                           max_workers=2)
        msg = await (await p.produce("built", key=1, value=2))
        assert (msg.key(), msg.value()) == (b"1", b"2")
        md = await p.list_topics(timeout=10)
        assert await ready.resolver() == md.cluster_id  # the async resolver: await it
        await p.close()
        await p.close()
        assert log.entries == [("kb", "build", True, 1), ("kb", "async resolver"), ("ready", "async resolver"),
                               ("kb", MessageField.KEY), ("ready", MessageField.VALUE), ("kb", "aclose")]
        with pytest.raises(ValueError, match="Cannot configure both"):
            await AsyncDeserializingConsumer({"group.id": "g", "key.deserializer": ready,
                                              "key.deserializer.builder": log.builder("x")})

    run(main)
