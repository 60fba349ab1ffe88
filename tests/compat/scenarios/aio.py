"""confluent_kafka.aio: AIOProducer / AIOConsumer argument handling and results, and the
serializing AsyncSerializingProducer / AsyncDeserializingConsumer, on librdkafka's built-in mock
cluster (``test.mock.num.brokers``, found through the producer's metadata) or an unreachable
broker. Every scenario runs its own event loop with bounded waits.
"""
from __future__ import annotations

import asyncio
import inspect
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable, List

from observe import data, raised

from confluent_kafka import OFFSET_BEGINNING, KafkaError, KafkaException, TopicPartition
from confluent_kafka.aio import AIOConsumer, AIOProducer, AsyncDeserializingConsumer, AsyncSerializingProducer
from confluent_kafka.error import ConsumeError, KeySerializationError, ProduceError, ValueDeserializationError
from confluent_kafka.serialization import (IntegerDeserializer, IntegerSerializer, SerializationError,
                                           StringDeserializer, StringSerializer)

NOWHERE = {"bootstrap.servers": "127.0.0.1:1", "log_level": 0}
GROUP = {"group.id": "g", "session.timeout.ms": 6000, "log_level": 0}
STEP = 10.0  # the longest any single await may take


def _run(main: Callable[[], Awaitable[Any]]) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(main(), 120)
    return asyncio.run(bounded())


def _kafka_error(exc: BaseException) -> Any:
    out: dict[str, Any] = {"type": type(exc).__name__}
    err = exc.args[0] if exc.args else None
    if isinstance(err, KafkaError):
        out.update(code=err.code(), name=err.name())
    if hasattr(exc, "exception"):
        out["exception"] = None if exc.exception is None else raised(exc.exception)
    if hasattr(exc, "kafka_message"):
        m = exc.kafka_message
        out["kafka_message"] = None if m is None else data([m.topic(), m.partition(), m.offset(), m.key(), m.value()])
    out["isinstance"] = [isinstance(exc, c) for c in (SerializationError, ProduceError, ConsumeError)]
    return out


def _d(x: Any) -> Any:
    """``data(x)``, with TopicPartitions as [topic, partition, offset, error]."""
    if isinstance(x, TopicPartition):
        return [x.topic, x.partition, x.offset, None if x.error is None else x.error.name()]
    if isinstance(x, (list, tuple)):
        return [_d(v) for v in x]
    return data(x)


async def _a(awaitable: Any, timeout: float = STEP) -> Any:
    """``await awaitable``: the result as data, or what it raised (KafkaExceptions by code)."""
    try:
        return {"ok": _d(await asyncio.wait_for(awaitable, timeout))}
    except KafkaException as exc:
        return _kafka_error(exc)
    except asyncio.TimeoutError:
        return {"timed out": True}
    except asyncio.CancelledError:  # the awaited future was cancelled (not this task)
        return {"cancelled": True}
    except Exception as exc:  # noqa: BLE001
        return raised(exc)


def _o(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return {"ok": data(fn(*args, **kwargs))}
    except KafkaException as exc:
        return _kafka_error(exc)
    except Exception as exc:  # noqa: BLE001
        return raised(exc)


def _msg(m: Any) -> Any:
    if m is None:
        return None
    err = m.error()
    return {"topic": m.topic(), "partition": m.partition(), "offset": m.offset(), "key": data(m.key()),
            "value": data(m.value()), "error": None if err is None else err.name()}


async def _mock_producer(cls: Any = AIOProducer, **conf: Any) -> tuple[Any, str]:
    """A producer owning a mock cluster, and the cluster's bootstrap address."""
    p = cls({"test.mock.num.brokers": 1, "log_level": 0, **conf})
    if inspect.isawaitable(p):
        p = await p
    md = await asyncio.wait_for(p.list_topics(timeout=STEP), STEP)
    broker = sorted(md.brokers.values(), key=lambda b: b.id)[0]
    return p, f"{broker.host}:{broker.port}"


def scenario_constructor_arguments() -> Any:
    async def main() -> Any:
        pools: List[Any] = []

        def pool() -> Any:  # upstream shuts down even an executor it was given
            pools.append(ThreadPoolExecutor(2))
            return pools[-1]

        out: dict[str, Any] = {}
        cases = {
            "conf": ((dict(NOWHERE),), {}),
            "max_workers_positional": ((dict(NOWHERE), 5), {}),
            "all_positional": ((dict(NOWHERE), 5, None, 10, 0.5), {}),
            "max_workers": ((dict(NOWHERE),), {"max_workers": 5}),
            "executor": ((dict(NOWHERE),), {"executor": pool()}),
            "batch_size": ((dict(NOWHERE),), {"batch_size": 10}),
            "buffer_timeout_0": ((dict(NOWHERE),), {"buffer_timeout": 0}),
            "buffer_timeout": ((dict(NOWHERE),), {"buffer_timeout": 0.5}),
            "producer_conf": ((), {"producer_conf": dict(NOWHERE)}),
            "max_workers_0": ((dict(NOWHERE),), {"max_workers": 0}),
            "max_workers_neg": ((dict(NOWHERE),), {"max_workers": -1}),
            "max_workers_0_with_executor": ((dict(NOWHERE),), {"max_workers": 0, "executor": pool()}),
            "max_workers_str": ((dict(NOWHERE),), {"max_workers": "x"}),
            "max_workers_none": ((dict(NOWHERE),), {"max_workers": None}),
            "buffer_timeout_str": ((dict(NOWHERE),), {"buffer_timeout": "x"}),
        }
        for name, (args, kwargs) in cases.items():
            try:
                p = AIOProducer(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001
                out[f"producer:{name}"] = raised(exc)
                continue
            out[f"producer:{name}"] = {"ok": type(p).__name__}
            await p.close()
        c_conf = {**NOWHERE, **GROUP}
        cases = {
            "conf": ((dict(c_conf),), {}),
            "max_workers_positional": ((dict(c_conf), 5), {}),
            "all_positional": ((dict(c_conf), 5, pool()), {}),
            "max_workers": ((dict(c_conf),), {"max_workers": 5}),
            "executor": ((dict(c_conf),), {"executor": pool()}),
            "consumer_conf": ((), {"consumer_conf": dict(c_conf)}),
            "max_workers_0": ((dict(c_conf),), {"max_workers": 0}),
            "max_workers_0_with_executor": ((dict(c_conf),), {"max_workers": 0, "executor": pool()}),
            "max_workers_str": ((dict(c_conf),), {"max_workers": "x"}),
            "max_workers_none": ((dict(c_conf),), {"max_workers": None}),
        }
        for name, (args, kwargs) in cases.items():
            try:
                c = AIOConsumer(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001
                out[f"consumer:{name}"] = raised(exc)
                continue
            out[f"consumer:{name}"] = {"ok": type(c).__name__}
            await c.close()
        return out
    return _run(main)


def scenario_outside_a_loop() -> Any:
    """upstream needs a running event loop to construct its clients; ours binds to the loop that
    runs when it is first used (deliberate, see deliberate.py)."""
    out = {}
    for name, make in [("producer", lambda: AIOProducer(dict(NOWHERE))),
                       ("consumer", lambda: AIOConsumer({**NOWHERE, **GROUP}))]:
        try:
            client = make()
        except Exception as exc:  # noqa: BLE001
            out[name] = raised(exc)
            continue
        out[name] = {"ok": type(client).__name__}
        asyncio.run(client.close())
    return out


def scenario_produce_on_mock() -> Any:
    async def main() -> Any:
        p, _ = await _mock_producer()
        out: dict[str, Any] = {}
        futs = [
            await p.produce("pm_any", b"v0"),
            await p.produce("pm_any", b"v1", b"k1"),
            await p.produce("pm", value=b"v2", key=b"k2", partition=0),
            await p.produce(topic="pm", value="text", partition=0),
            await p.produce("pm", None, b"tombstone", partition=0),
        ]
        out["future_types"] = [type(f).__name__ for f in futs]
        out["flush"] = await _a(p.flush(STEP))
        msgs = [await asyncio.wait_for(f, STEP) for f in futs]
        # The first two go to a partition of the partitioner's choosing (of another topic).
        out["delivered"] = [_msg(m) if i >= 2 else {**_msg(m), "offset": None, "partition": None}
                            for i, m in enumerate(msgs)]
        out["types"] = [type(m).__name__ for m in msgs]
        out["len"] = len(p)
        out["poll_type"] = type(await asyncio.wait_for(p.poll(), STEP)).__name__
        out["poll_0_type"] = type(await asyncio.wait_for(p.poll(0), STEP)).__name__
        out["poll_str"] = await _a(p.poll("x"))
        out["flush_str"] = await _a(p.flush("x"))
        out["flush_again"] = await _a(p.flush())
        md = await p.list_topics(timeout=STEP)
        out["list_topics"] = [type(md).__name__, "pm" in md.topics, len(md.brokers)]
        md1 = await p.list_topics("pm", STEP)
        out["list_topic"] = sorted(md1.topics)
        cid = await asyncio.wait_for(p.cluster_id(STEP), STEP)
        out["cluster_id"] = [type(cid).__name__, cid == md.cluster_id]
        cid = await asyncio.wait_for(p.cluster_id(timeout=STEP), STEP)
        out["cluster_id_kw"] = cid == md.cluster_id
        out["close"] = await _a(p.close())
        out["len_closed"] = len(p)
        return out
    return _run(main)


def scenario_producer_calls_unreachable() -> Any:
    async def main() -> Any:
        p = AIOProducer(dict(NOWHERE))
        out = {
            "init_transactions": await _a(p.init_transactions(0.3)),
            "begin_transaction": await _a(p.begin_transaction()),
            "commit_transaction": await _a(p.commit_transaction(0.3)),
            "abort_transaction": await _a(p.abort_transaction(0.3)),
            "list_topics": await _a(p.list_topics(timeout=0.3)),
            "cluster_id": await _a(p.cluster_id(0.3)),
            "cluster_id_str": await _a(p.cluster_id("x")),
            "set_sasl_credentials": await _a(p.set_sasl_credentials("user", "secret")),
            "flush_empty": await _a(p.flush(0.1)),
            "poll_type": type(await p.poll(0.1)).__name__,
            "len": len(p),
        }
        out["close"] = await _a(p.close())
        out["len_closed"] = len(p)
        return out
    return _run(main)


def scenario_produce_headers_timestamp() -> Any:
    """upstream's AIOProducer refuses headers and timestamps; ours produces them (deliberate,
    see deliberate.py)."""
    async def main() -> Any:
        p, _ = await _mock_producer()
        out = {"aio": await _a(_then_await(p.produce("ph", b"v", headers={"h": b"1"}))),
               "aio_list": await _a(_then_await(p.produce("ph", b"v", headers=[("h", b"2")]))),
               "timestamp": await _a(_then_await(p.produce("ph", b"v", timestamp=1_700_000_000_123)))}
        await p.close()
        sp, _ = await _mock_producer(AsyncSerializingProducer, **{"value.serializer": StringSerializer()})
        out["serializing"] = await _a(_then_await(sp.produce("ph", value="v", headers={"h": b"3"})))
        out["serializing_timestamp"] = await _a(_then_await(sp.produce("ph", value="v", timestamp=1_700_000_000_000)))
        await sp.close()
        return out
    return _run(main)


async def _then_await(produced: Any) -> Any:
    fut = await produced
    msg = await fut
    return [msg.headers(), msg.value(), msg.timestamp()[1]]


def scenario_purge_pending() -> Any:
    """upstream cancels the futures of messages still in its Python buffer; ours fails them with
    KafkaException(_PURGE_QUEUE), like any purged message (deliberate, see deliberate.py)."""
    async def main() -> Any:
        p = AIOProducer(dict(NOWHERE))
        fut = await p.produce("t", b"v")
        out = {"purge": await _a(p.purge())}
        out["future"] = await _a(asyncio.shield(fut), 5)
        await p.close()
        return out
    return _run(main)


def scenario_producer_after_close() -> Any:
    """upstream's second close() and its calls after close() fail on its shut-down thread pool
    (or never resolve); ours: close() is idempotent and every call raises RuntimeError
    (deliberate, see deliberate.py)."""
    async def main() -> Any:
        p = AIOProducer(dict(NOWHERE))
        await p.close()
        return {"close_again": await _a(p.close(), 3), "produce": await _a(p.produce("t", b"v"), 3),
                "poll": await _a(p.poll(0), 3), "flush": await _a(p.flush(0), 3)}
    return _run(main)


def scenario_consumer_calls_unreachable() -> Any:
    async def main() -> Any:
        c = AIOConsumer({**NOWHERE, **GROUP})
        tp = TopicPartition("t", 0)
        out = {
            "poll": await _a(c.poll(0.1)),
            "poll_kw": await _a(c.poll(timeout=0.1)),
            "poll_str": await _a(c.poll("x")),
            "consume": await _a(c.consume(2, 0.1)),
            "consume_kw": await _a(c.consume(num_messages=2, timeout=0.1)),
            "consume_timeout_str": await _a(c.consume(2, "x")),
            "subscribe": await _a(c.subscribe(["t"])),
            "assignment": await _a(c.assignment()),
            "unsubscribe": await _a(c.unsubscribe()),
            "assign": await _a(c.assign([TopicPartition("t", 0, 5)])),
            "assignment_after": await _a(c.assignment()),
            "position": await _a(c.position([tp])),
            "pause": await _a(c.pause([tp])),
            "resume": await _a(c.resume([tp])),
            "seek": await _a(c.seek(TopicPartition("t", 0, 7))),
            "incremental_unassign": await _a(c.incremental_unassign([tp])),
            "incremental_assign": await _a(c.incremental_assign([TopicPartition("t", 1, 3)])),
            "unassign": await _a(c.unassign()),
            "commit_nothing": await _a(c.commit(asynchronous=False)),
            "cluster_id": await _a(c.cluster_id(0.3)),
            "set_sasl_credentials": await _a(c.set_sasl_credentials("user", "secret")),
            "consumer_group_metadata": await _a(_type_of(c.consumer_group_metadata())),
        }
        out["close"] = await _a(c.close())
        out["poll_closed"] = await _a(c.poll(0))
        out["assignment_closed"] = await _a(c.assignment())
        out["commit_closed"] = await _a(c.commit(asynchronous=False))
        return out
    return _run(main)


async def _type_of(awaitable: Any) -> str:
    return type(await awaitable).__name__


def scenario_consumer_close_twice() -> Any:
    """upstream's second close() raises RuntimeError; ours is idempotent (deliberate)."""
    async def main() -> Any:
        c = AIOConsumer({**NOWHERE, **GROUP})
        await c.close()
        return await _a(c.close(), 3)
    return _run(main)


async def _poll_until(c: Any, n: int, deadline: float = 20.0) -> List[Any]:
    got: List[Any] = []
    end = time.monotonic() + deadline
    while len(got) < n and time.monotonic() < end:
        try:
            m = await asyncio.wait_for(c.poll(0.5), STEP)
        except KafkaException as exc:
            got.append(_kafka_error(exc))
            continue
        if m is not None:
            got.append(_msg(m))
    return got


def scenario_consumer_on_mock() -> Any:
    async def main() -> Any:
        p, bootstrap = await _mock_producer()
        for i in range(5):
            await p.produce("cm", b"v%d" % i, b"k%d" % i, partition=0)
        await p.flush(STEP)
        c = AIOConsumer({"bootstrap.servers": bootstrap, **GROUP, "enable.auto.commit": False})
        tp = TopicPartition("cm", 0, OFFSET_BEGINNING)
        out: dict[str, Any] = {"assign": await _a(c.assign([tp]))}
        out["first"] = await _poll_until(c, 2)
        batch: List[Any] = []
        end = time.monotonic() + 20
        while len(batch) < 3 and time.monotonic() < end:
            batch += [_msg(m) for m in await asyncio.wait_for(c.consume(3 - len(batch), 1.0), STEP)]
        out["consumed"] = batch
        out["position"] = await _a(c.position([TopicPartition("cm", 0)]))
        out["watermarks"] = await _a(c.get_watermark_offsets(TopicPartition("cm", 0), timeout=STEP))
        out["commit"] = await _a(c.commit(offsets=[TopicPartition("cm", 0, 4)], asynchronous=False))
        out["committed"] = await _a(c.committed([TopicPartition("cm", 0)], timeout=STEP))
        out["store_offsets"] = await _a(c.store_offsets(offsets=[TopicPartition("cm", 0, 5)]))
        out["commit_stored"] = await _a(c.commit(asynchronous=False))
        out["committed_after"] = await _a(c.committed([TopicPartition("cm", 0)], STEP))
        out["offsets_for_times"] = await _a(c.offsets_for_times([TopicPartition("cm", 0, 0)], timeout=STEP))
        out["seek"] = await _a(c.seek(TopicPartition("cm", 0, 1)))
        out["after_seek"] = await _poll_until(c, 1)
        out["pause"] = await _a(c.pause([TopicPartition("cm", 0)]))
        out["poll_paused"] = await _a(c.poll(0.3))
        out["resume"] = await _a(c.resume([TopicPartition("cm", 0)]))
        md = await c.list_topics("cm", timeout=STEP)
        out["list_topics"] = [type(md).__name__, sorted(md.topics)]
        cid = await c.cluster_id(STEP)
        out["cluster_id"] = [type(cid).__name__, cid == md.cluster_id]
        out["assignment"] = await _a(c.assignment())
        out["close"] = await _a(c.close())
        await p.close()
        return out
    return _run(main)


def scenario_async_callbacks() -> Any:
    """``async def`` error_cb / stats_cb in the configuration are awaited (upstream requires
    coroutine functions there; ours takes both)."""
    async def main() -> Any:
        seen: dict[str, Any] = {"errors": set(), "stats": [], "consumer_errors": set()}

        async def error_cb(err: KafkaError) -> None:
            await asyncio.sleep(0)
            seen["errors"].add(err.name())

        async def stats_cb(stats: str) -> None:
            seen["stats"].append(type(stats).__name__)

        async def consumer_error_cb(err: KafkaError) -> None:
            seen["consumer_errors"].add(err.name())

        p = AIOProducer({**NOWHERE, "error_cb": error_cb, "stats_cb": stats_cb, "statistics.interval.ms": 100})
        end = time.monotonic() + 10
        while (not seen["errors"] or not seen["stats"]) and time.monotonic() < end:
            await p.poll(0.2)
        await p.close()
        c = AIOConsumer({**NOWHERE, **GROUP, "error_cb": consumer_error_cb})
        await c.subscribe(["t"])
        end = time.monotonic() + 10
        while not seen["consumer_errors"] and time.monotonic() < end:
            await c.poll(0.2)
        await c.close()
        return {"errors": "_TRANSPORT" in seen["errors"] or "_ALL_BROKERS_DOWN" in seen["errors"],
                "stats": sorted(set(seen["stats"])),
                "consumer_errors": bool(seen["consumer_errors"] & {"_TRANSPORT", "_ALL_BROKERS_DOWN"})}
    return _run(main)


def scenario_serializing_producer() -> Any:
    async def main() -> Any:
        out: dict[str, Any] = {}
        made = AsyncSerializingProducer({"test.mock.num.brokers": 1, "log_level": 0})
        out["construct_is_coroutine"] = inspect.iscoroutine(made)
        p = await made
        out["type"] = type(p).__name__
        out["is_aio_producer"] = isinstance(p, AIOProducer)
        await p.close()
        p, _ = await _mock_producer(AsyncSerializingProducer, **{"key.serializer": IntegerSerializer(),
                                                                 "value.serializer": StringSerializer()})
        fut = await p.produce("sp", key=7, value="sept", partition=0)
        out["future_type"] = type(fut).__name__
        fut2 = await p.produce("sp", 8, "huit")
        fut3 = await p.produce(topic="sp", key=None, value=None, partition=0)
        await p.flush(STEP)
        m1, m2, m3 = [await asyncio.wait_for(f, STEP) for f in (fut, fut2, fut3)]
        out["delivered"] = [[data(m.key()), data(m.value())] for m in (m1, m2, m3)]
        for name, key, value in [("key_str", "x", "v"), ("key_range", 2**40, "v"), ("value_int", 1, 5),
                                 ("both_bad", "x", 5)]:
            out[name] = await _a(p.produce("sp", key=key, value=value))
        out["topic_int"] = await _a(p.produce(5, key=1, value="v"))
        out["close"] = await _a(p.close())
        out["produce_closed"] = await _a(p.produce("sp", key=1, value="v"))
        out["close_again"] = await _a(p.close())
        out["conf_keyword"] = await _a(_made_type(AsyncSerializingProducer(conf=dict(NOWHERE))))
        out["with_max_workers"] = await _a(_made_type(AsyncSerializingProducer(dict(NOWHERE), max_workers=2,
                                                                               buffer_timeout=0.1, batch_size=5)))
        out["serde_and_builder"] = await _a(_made_type(AsyncSerializingProducer(
            {**NOWHERE, "key.serializer": StringSerializer(), "key.serializer.builder": object()})))
        return out
    return _run(main)


async def _made_type(made: Any) -> str:
    client = await made
    await client.close()
    return type(client).__name__


class _Log:
    """Records how a client treats the serdes it built or was given."""

    def __init__(self) -> None:
        self.entries: List[Any] = []

    def serde(self, name: str, is_async: bool) -> Any:
        log = self.entries

        class Serde:
            def __call__(self, obj: Any, ctx: Any) -> Any:
                log.append([name, "call", data(obj), str(ctx.field)])
                if is_async:
                    async def later() -> Any:
                        return None if obj is None else str(obj).encode()
                    return later()
                return None if obj is None else str(obj).encode()

            def set_cluster_id_resolver(self, resolver: Any) -> None:
                log.append([name, "sync resolver"])

            def set_async_cluster_id_resolver(self, resolver: Any) -> None:
                log.append([name, "async resolver", inspect.iscoroutinefunction(resolver.__call__)])

            def close(self) -> None:
                log.append([name, "close"])

        return Serde()

    def builder(self, name: str, is_async: bool) -> Any:
        log = self.entries
        outer = self

        class Builder:
            def build(self, conf: Any, is_key: bool) -> Any:
                log.append([name, "build", is_key])
                result = (outer.serde(name, is_async), conf)
                if is_async:
                    async def later() -> Any:
                        return result
                    return later()
                return result

        return Builder()


def scenario_serializing_builders() -> Any:
    async def main() -> Any:
        log = _Log()
        p, _ = await _mock_producer(AsyncSerializingProducer, **{
            "key.serializer.builder": log.builder("kb", True), "value.serializer": log.serde("ready", False)})
        fut = await p.produce("sb", key=1, value=2, partition=0)
        await p.flush(STEP)
        m = await asyncio.wait_for(fut, STEP)
        await p.close()
        c = await AsyncDeserializingConsumer({**NOWHERE, **GROUP, "value.deserializer.builder": log.builder("vb", False),
                                              "key.deserializer": log.serde("kready", True)})
        await c.close()
        return {"log": log.entries, "delivered": data([m.key(), m.value()])}
    return _run(main)


def scenario_deserializing_consumer() -> Any:
    async def main() -> Any:
        p, bootstrap = await _mock_producer()
        records = [(b"\x00\x00\x00\x01", b"one"), (b"\x00\x00\x00\x02", b"two"), (b"\x00\x01", b"three"),
                   (b"\x00\x00\x00\x04", b"\xff"), (None, None), (b"\x00\x00\x00\x06", "é".encode())]
        for key, value in records:
            await p.produce("dc", value, key, partition=0)
        await p.flush(STEP)
        out: dict[str, Any] = {}
        made = AsyncDeserializingConsumer({"bootstrap.servers": bootstrap, **GROUP,
                                           "key.deserializer": IntegerDeserializer(),
                                           "value.deserializer": StringDeserializer()})
        out["construct_is_coroutine"] = inspect.iscoroutine(made)
        c = await made
        out["type"] = [type(c).__name__, isinstance(c, AIOConsumer)]
        await c.assign([TopicPartition("dc", 0, OFFSET_BEGINNING)])
        out["polled"] = await _poll_until(c, 2)
        batch: List[Any] = []
        end = time.monotonic() + 20
        while len(batch) < 4 and time.monotonic() < end:
            try:
                batch += [_msg(m) for m in await asyncio.wait_for(c.consume(1, 1.0), STEP)]
            except KafkaException as exc:
                batch.append(_kafka_error(exc))
        out["consumed_one_by_one"] = batch
        out["close"] = await _a(c.close())
        out["close_again"] = await _a(c.close())

        c = await AsyncDeserializingConsumer({"bootstrap.servers": bootstrap, **GROUP, "group.id": "eof",
                                              "enable.partition.eof": True,
                                              "value.deserializer": StringDeserializer()})
        await c.assign([TopicPartition("dc", 0, 5)])
        got: List[Any] = []
        end = time.monotonic() + 20
        while len(got) < 2 and time.monotonic() < end:
            got += [_msg(m) for m in await asyncio.wait_for(c.consume(5, 1.0), STEP)]
        out["consume_passes_events"] = got
        await c.seek(TopicPartition("dc", 0, 5))
        out["poll_raises_events"] = await _poll_until(c, 2)
        await c.close()
        await p.close()
        out["conf_keyword"] = await _a(_made_type(AsyncDeserializingConsumer(conf={**NOWHERE, **GROUP},
                                                                             max_workers=3)))
        out["both"] = await _a(_made_type(AsyncDeserializingConsumer(
            {**NOWHERE, **GROUP, "value.deserializer": 1, "value.deserializer.builder": 2})))
        return out
    return _run(main)


def scenario_deserializing_batch_failure() -> Any:
    """A deserializer failing in the middle of a consume() batch: upstream raises and the rest
    of the batch is gone; ours returns the messages before it, raises on the next call, then
    carries on (deliberate, see deliberate.py)."""
    async def main() -> Any:
        p, bootstrap = await _mock_producer()
        for value in (b"\x00\x00\x00\x01", b"\x01", b"\x00\x00\x00\x03"):
            await p.produce("bf", value, partition=0)
        await p.flush(STEP)
        c = await AsyncDeserializingConsumer({"bootstrap.servers": bootstrap, **GROUP,
                                              "value.deserializer": IntegerDeserializer()})
        await c.assign([TopicPartition("bf", 0, OFFSET_BEGINNING)])
        calls: List[Any] = []
        end = time.monotonic() + 20
        seen = 0
        while seen < 3 and time.monotonic() < end and len(calls) < 10:
            try:
                msgs = await asyncio.wait_for(c.consume(3, 2.0), STEP)
            except ValueDeserializationError as exc:
                calls.append(_kafka_error(exc))
                seen += 1
                continue
            if msgs:
                calls.append([_msg(m) for m in msgs])
                seen += len(msgs)
        await c.close()
        await p.close()
        return calls
    return _run(main)


def scenario_rebalance_on_mock() -> Any:
    """subscribe() with ``async def`` rebalance callbacks (upstream requires coroutine functions;
    ours takes both), async with, commit(message=)."""
    async def main() -> Any:
        p, bootstrap = await _mock_producer()
        for i in range(3):
            await p.produce("rb", b"r%d" % i, partition=0)
        await p.flush(STEP)
        calls: List[Any] = []

        async def on_assign(consumer: Any, partitions: List[TopicPartition]) -> None:
            await asyncio.sleep(0)
            calls.append(["assign", type(consumer).__name__, sorted((tp.topic, tp.partition) for tp in partitions)])

        async def on_revoke(consumer: Any, partitions: List[TopicPartition]) -> None:
            calls.append(["revoke", type(consumer).__name__, sorted((tp.topic, tp.partition) for tp in partitions)])

        out: dict[str, Any] = {}
        conf = {"bootstrap.servers": bootstrap, **GROUP, "group.id": "rb", "auto.offset.reset": "earliest",
                "enable.auto.commit": False}
        async with AIOConsumer(conf) as c:
            out["aenter"] = type(c).__name__
            out["subscribe"] = await _a(c.subscribe(["rb"], on_assign=on_assign, on_revoke=on_revoke))
            got = await _poll_until(c, 1, 30)
            out["first"] = got
            m = None
            end = time.monotonic() + 20
            while m is None and time.monotonic() < end:
                m = await c.poll(0.5)
            out["second"] = _msg(m)
            if m is not None:
                out["commit_message"] = await _a(c.commit(message=m, asynchronous=False))
                out["commit_async"] = await _a(c.commit(message=m, asynchronous=True))
            out["assignment"] = await _a(c.assignment())
            out["unsubscribe"] = await _a(c.unsubscribe())
            end = time.monotonic() + 10
            while len(calls) < 2 and time.monotonic() < end:
                await c.poll(0.2)
        out["calls"] = calls
        async with p:
            pass
        out["len_after_aexit"] = len(p)
        return out
    return _run(main)


def scenario_transaction_offsets_on_mock() -> Any:
    """A consume-process-produce transaction: send_offsets_to_transaction and its misuse."""
    async def main() -> Any:
        p, bootstrap = await _mock_producer(**{"transactional.id": "cpp-scenario"})
        c = AIOConsumer({"bootstrap.servers": bootstrap, **GROUP})
        metadata = await c.consumer_group_metadata()
        positions = [TopicPartition("txn_src", 0, 1)]
        out: dict[str, Any] = {"metadata_type": type(metadata).__name__}
        out["before_init"] = await _a(p.send_offsets_to_transaction(positions, metadata, STEP))
        out["init"] = await _a(p.init_transactions(STEP))
        out["outside_txn"] = await _a(p.send_offsets_to_transaction(positions, metadata, STEP))
        out["begin"] = await _a(p.begin_transaction())
        # Both topics exist once a message went to each (the mock cluster creates them).
        futs = [await p.produce(t, b"processed", partition=0) for t in ("txn_src", "txn_dst")]
        out["flush"] = await _a(p.flush(STEP))
        out["send_offsets"] = await _a(p.send_offsets_to_transaction(positions, metadata, STEP))
        out["send_again"] = await _a(p.send_offsets_to_transaction([TopicPartition("txn_src", 0, 2)], metadata, STEP))
        out["no_valid_offsets"] = await _a(p.send_offsets_to_transaction(
            [TopicPartition("txn_src", 0, OFFSET_BEGINNING)], metadata, STEP))
        out["timeout_str"] = await _a(p.send_offsets_to_transaction(positions, metadata, "x"))
        out["positions_none"] = await _a(p.send_offsets_to_transaction(None, metadata, STEP))
        out["commit"] = await _a(p.commit_transaction(STEP))
        out["delivered"] = [_msg(await asyncio.wait_for(f, STEP)) for f in futs]
        out["close"] = await _a(p.close())
        await c.close()
        return out
    return _run(main)
