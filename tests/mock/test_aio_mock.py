"""AIOProducer/AIOConsumer on the mock cluster: cancellation, failures, callbacks, misuse."""

from __future__ import annotations

import asyncio
import gc
import random
import sys
import threading
from typing import Any, List

import pytest

from aio_support import run
from confluent_kafka import OFFSET_BEGINNING, KafkaError, KafkaException, Message, TopicPartition
from confluent_kafka.aio import AIOConsumer, AIOProducer

pytestmark = pytest.mark.mock


def test_cancelled_produce_loses_no_report_and_leaks_nothing(mock_cluster: Any) -> None:
    mock_cluster.create_topic("cancel", 1)
    payload = b"payload-" + bytes(random.randrange(256) for _ in range(32))
    baseline = sys.getrefcount(payload)

    async def main() -> List[Message]:
        rnd = random.Random(3)
        async with AIOProducer({"bootstrap.servers": mock_cluster.bootstrap_servers, "linger.ms": 2}) as p:
            tasks = [asyncio.ensure_future(p.produce_and_wait("cancel", payload, key=b"%d" % i))
                     for i in range(400)]
            await asyncio.sleep(0)
            cancelled = 0
            for t in tasks:
                if rnd.random() < 0.5:
                    t.cancel()
                    cancelled += 1
                if rnd.random() < 0.1:
                    await asyncio.sleep(0.001)
            results = await asyncio.gather(*tasks, return_exceptions=True)
            assert await p.flush(30) == 0
            assert len(p) == 0
            delivered = [r for r in results if isinstance(r, Message)]
            assert all(isinstance(r, (Message, asyncio.CancelledError)) for r in results)
            assert cancelled > 0
            # Every wait that was not cancelled got its own delivered message.
            assert len(delivered) == sum(not t.cancelled() for t in tasks)
            assert all(m.error() is None and m.value() == payload for m in delivered)
            assert sorted(int(m.key()) for m in delivered) == sorted(
                i for i, t in enumerate(tasks) if not t.cancelled())
            return delivered

    delivered = run(main)
    offsets = sorted(m.offset() for m in delivered)
    assert len(set(offsets)) == len(offsets)
    del delivered
    gc.collect()
    assert sys.getrefcount(payload) == baseline  # no report kept the value alive


def test_cancel_while_waiting_for_room(mock_cluster: Any) -> None:
    mock_cluster.create_topic("room", 1)

    async def main() -> int:
        conf = {"bootstrap.servers": mock_cluster.bootstrap_servers, "queue.buffering.max.messages": 50,
                "linger.ms": 50}
        async with AIOProducer(conf) as p:
            futs: List["asyncio.Future[Message]"] = []

            async def fill() -> None:
                for i in range(10_000):
                    futs.append(await p.produce("room", b"%d" % i))

            task = asyncio.ensure_future(fill())
            while len(futs) < 120:  # past the queue size: fill() has waited for room
                await asyncio.sleep(0.001)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            done = await asyncio.gather(*futs)
            assert [m.value() for m in done] == [b"%d" % i for i in range(len(futs))]
            return len(futs)

    assert run(main) >= 120


def test_delivery_error_fails_the_future_and_the_batch_entry(mock_cluster: Any) -> None:
    mock_cluster.create_topic("errs", 1)

    async def main() -> None:
        # The first message waits, partition unknown, for the topic's metadata; the report says
        # _UNKNOWN_PARTITION only if that metadata comes before message.timeout.ms runs out
        # (else _MSG_TIMED_OUT). On a loaded machine it can take over a second: keep the timeout
        # far above that (run() bounds the test anyway).
        conf = {"bootstrap.servers": mock_cluster.bootstrap_servers, "message.timeout.ms": 30_000}
        async with AIOProducer(conf) as p:
            fut = await p.produce("errs", b"x", partition=5)  # the topic has one partition
            with pytest.raises(KafkaException) as ei:
                await fut
            assert ei.value.args[0].code() == KafkaError._UNKNOWN_PARTITION
            # Now that the partition count is known, librdkafka refuses the message at enqueue.
            with pytest.raises(KafkaException) as ei:
                await p.produce_batch("errs", [{"value": b"ok"}, {"value": b"bad", "partition": 5}])
            assert ei.value.args[0].code() == KafkaError._UNKNOWN_PARTITION
            assert await p.flush(10) == 0  # the message before it was sent

    run(main)


def test_purge_fails_pending_futures(mock_cluster: Any) -> None:
    mock_cluster.create_topic("purge", 1)

    async def main() -> None:
        conf = {"bootstrap.servers": mock_cluster.bootstrap_servers, "linger.ms": 10_000}
        async with AIOProducer(conf) as p:
            futs = [await p.produce("purge", b"%d" % i) for i in range(5)]
            await p.purge()
            for f in futs:
                with pytest.raises(KafkaException) as ei:
                    await f
                assert ei.value.args[0].code() == KafkaError._PURGE_QUEUE

    run(main)


def test_bad_arguments_raise_cleanly(mock_cluster: Any) -> None:
    async def main() -> None:
        async with AIOProducer({"bootstrap.servers": mock_cluster.bootstrap_servers}) as p:
            with pytest.raises(TypeError):
                await p.produce(123, b"x")  # type: ignore[arg-type]
            with pytest.raises(TypeError):
                await p.produce("t", object())
            with pytest.raises(TypeError):
                await p.enqueue("t", b"x", partition="0")  # type: ignore[arg-type]
            assert len(p) == 0

    run(main)


def test_use_outside_a_running_loop_is_refused(mock_cluster: Any) -> None:
    p = AIOProducer({"bootstrap.servers": mock_cluster.bootstrap_servers})
    coro = p.produce("t", b"x")
    with pytest.raises(RuntimeError):
        coro.send(None)
    coro.close()
    run(p.close)


def test_one_producer_serves_one_loop_after_another(mock_cluster: Any) -> None:
    """The producer follows the running loop: a second asyncio.run() after the first loop
    closed gets its futures settled and its fire-and-forget messages flushed."""
    mock_cluster.create_topic("two-loops", 1)
    p = AIOProducer({"bootstrap.servers": mock_cluster.bootstrap_servers})

    async def round_trip(tag: bytes) -> int:
        await p.enqueue("two-loops", tag + b"-forget", partition=0)
        await p.enqueue("two-loops", tag + b"-plain")
        msg = await p.produce_and_wait("two-loops", tag + b"-awaited", partition=0)
        assert await p.flush(30) == 0
        return msg.offset()

    assert run(lambda: round_trip(b"first")) == 2
    assert run(lambda: round_trip(b"second")) == 5
    run(p.close)


def _fill(bootstrap: str, topic: str, n: int) -> None:
    async def main() -> None:
        async with AIOProducer({"bootstrap.servers": bootstrap}) as p:
            await p.produce_batch(topic, [{"value": b"%d" % i} for i in range(n)], partition=0)

    run(main)


@pytest.mark.parametrize("kind", ["async", "plain"])
def test_raising_rebalance_callback_surfaces_from_poll(mock_cluster: Any, kind: str) -> None:
    mock_cluster.create_topic("rb", 1)
    _fill(mock_cluster.bootstrap_servers, "rb", 3)

    class Boom(Exception):
        pass

    async def async_cb(consumer: AIOConsumer, parts: List[TopicPartition]) -> None:
        await asyncio.sleep(0)
        raise Boom("async")

    def plain_cb(consumer: AIOConsumer, parts: List[TopicPartition]) -> None:
        raise Boom("plain")

    async def main() -> List[bytes]:
        conf = {"bootstrap.servers": mock_cluster.bootstrap_servers, "group.id": f"rb-{kind}",
                "auto.offset.reset": "earliest", "session.timeout.ms": 6000, "heartbeat.interval.ms": 1000}
        async with AIOConsumer(conf) as c:
            await c.subscribe(["rb"], on_assign=async_cb if kind == "async" else plain_cb)
            with pytest.raises(Boom):
                for _ in range(100):
                    await c.poll(0.2)
            got: List[bytes] = []
            while len(got) < 3:  # the default assignment was still made: consumption goes on
                m = await c.poll(10)
                assert m is not None
                got.append(m.value())
            return got

    assert run(main) == [b"0", b"1", b"2"]


def test_async_rebalance_callback_can_seek_before_fetching(mock_cluster: Any) -> None:
    mock_cluster.create_topic("seek", 1)
    _fill(mock_cluster.bootstrap_servers, "seek", 10)

    async def main() -> int:
        conf = {"bootstrap.servers": mock_cluster.bootstrap_servers, "group.id": "seek-grp",
                "auto.offset.reset": "earliest", "session.timeout.ms": 6000, "heartbeat.interval.ms": 1000}
        async with AIOConsumer(conf) as c:
            async def on_assign(consumer: AIOConsumer, parts: List[TopicPartition]) -> None:
                await asyncio.sleep(0.01)
                for p in parts:
                    p.offset = 7
                await consumer.assign(parts)

            await c.subscribe(["seek"], on_assign=on_assign)
            m = None
            while m is None:
                m = await c.poll(10)
            return m.offset()

    assert run(main) == 7


def test_cancelled_poll_and_closed_consumer(mock_cluster: Any) -> None:
    mock_cluster.create_topic("cp", 1)
    before = threading.active_count()

    async def main() -> None:
        conf = {"bootstrap.servers": mock_cluster.bootstrap_servers, "group.id": "cp"}
        c = AIOConsumer(conf)
        await c.assign([TopicPartition("cp", 0, OFFSET_BEGINNING)])
        waiter = asyncio.ensure_future(c.poll(30))
        await asyncio.sleep(0.2)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        _fill_task = AIOProducer({"bootstrap.servers": mock_cluster.bootstrap_servers})
        await _fill_task.produce_and_wait("cp", b"after", partition=0)
        await _fill_task.close()
        m = await c.poll(30)
        assert m is not None and m.value() == b"after"
        iterating = asyncio.ensure_future(c.__anext__())
        await asyncio.sleep(0.1)
        await c.close()
        with pytest.raises(StopAsyncIteration):
            await iterating
        with pytest.raises(RuntimeError):
            await c.poll(0)
        await c.close()  # idempotent
        assert threading.active_count() == before

    run(main)


def test_close_is_refused_inside_an_async_rebalance_callback(mock_cluster: Any) -> None:
    mock_cluster.create_topic("inside", 1)

    async def main() -> List[BaseException]:
        refused: List[BaseException] = []
        conf = {"bootstrap.servers": mock_cluster.bootstrap_servers, "group.id": "inside",
                "session.timeout.ms": 6000, "heartbeat.interval.ms": 1000}
        async with AIOConsumer(conf) as c:
            async def on_assign(consumer: AIOConsumer, parts: List[TopicPartition]) -> None:
                try:
                    await consumer.close()
                except RuntimeError as e:
                    refused.append(e)

            await c.subscribe(["inside"], on_assign=on_assign)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 30
            while not refused and loop.time() < deadline:
                await c.poll(0.2)
            assert await c.assignment() == [TopicPartition("inside", 0)]  # still assigned after
        return refused

    refused = run(main)
    assert len(refused) == 1 and "own callbacks" in str(refused[0])


def test_close_with_a_cooperative_revoke_waiting(mock_cluster: Any) -> None:
    """As the plain Consumer's test of that name: close() while a cooperative rebalance's revoke
    waits, then close()'s own revoke, whose awaited commit reaches a group that has already left
    and terminated (the callback waits for it, so that is certain). The commit fails and close()
    returns; it waited for that callback forever before."""
    mock_cluster.create_topic("coop-close", 4)
    conf = {"bootstrap.servers": mock_cluster.bootstrap_servers, "group.id": "coop-close",
            "partition.assignment.strategy": "cooperative-sticky", "heartbeat.interval.ms": 100,
            "session.timeout.ms": 6000}
    events: List[Any] = []

    async def on_revoke(consumer: AIOConsumer, parts: List[TopicPartition]) -> None:
        events.append(("revoke", {tp.partition for tp in parts}))
        if len(events) == 3:  # close()'s own revoke: wait until the group is gone
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 15
            while not consumer._native._group_closed() and loop.time() < deadline:
                await asyncio.sleep(0.01)
        try:
            await consumer.commit(offsets=[TopicPartition("coop-close", tp.partition, 1) for tp in parts],
                                  asynchronous=False)
            events.append("committed")
        except KafkaException as exc:
            events.append(exc.args[0].code())

    async def main() -> None:
        a = AIOConsumer(conf)
        await a.subscribe(["coop-close"], on_revoke=on_revoke)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while len(await a.assignment()) < 4:
            assert loop.time() < deadline, "the first member never got every partition"
            await a.poll(0.05)
        # A second member joins; the first one polls no more, so its share of the revoke waits.
        b = AIOConsumer(conf)
        b_assigned = asyncio.Event()

        async def on_assign(_c: AIOConsumer, _p: List[TopicPartition]) -> None:
            b_assigned.set()

        await b.subscribe(["coop-close"], on_assign=on_assign)

        async def poll_b() -> None:
            while True:
                await b.poll(0.05)

        poller = asyncio.ensure_future(poll_b())
        try:
            await asyncio.wait_for(b_assigned.wait(), 30)
            await asyncio.sleep(0.3)  # the first member's sync completes and queues its revoke
            await asyncio.wait_for(a.close(), 30)
        finally:
            poller.cancel()
            await asyncio.gather(poller, return_exceptions=True)
            await b.close()

    run(main)
    first, second = events[0][1], events[2][1]
    # The first revoke comes before the group can terminate, so its commit is answered: done, or
    # refused when the coordinator already dropped the member (seen under load).
    assert events[1] in ("committed", KafkaError.UNKNOWN_MEMBER_ID, KafkaError.ILLEGAL_GENERATION,
                         KafkaError.REBALANCE_IN_PROGRESS), events
    assert not first & second and first | second == {0, 1, 2, 3}, events
    assert events[3] == KafkaError._DESTROY, events
