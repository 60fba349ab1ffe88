"""AIOConsumer against tansu: fetching, offsets, a two-member group, cancellation."""

from __future__ import annotations

import asyncio
import random
from typing import Any, Dict, List, Set, Tuple

import pytest

from aio_support import LOOPS, run
from confluent_kafka import OFFSET_BEGINNING, KafkaException, Message, TopicPartition
from confluent_kafka.aio import AIOConsumer
from consumer_helpers import GROUP_TIMEOUTS, produce_values

pytestmark = pytest.mark.integration

PARTS = {0, 1, 2, 3}  # tansu auto-creates topics with 4 partitions


def _conf(consumer_conf: Any, **more: Any) -> Dict[str, Any]:
    return consumer_conf({"enable.auto.commit": False, **GROUP_TIMEOUTS, **more})


@pytest.mark.parametrize("loop", LOOPS)
def test_poll_consume_iterate_and_offsets(kafka_bootstrap: str, unique_topic: str, consumer_conf: Any,
                                          make_consumer: Any, loop: str) -> None:
    values = [b"m%d" % i for i in range(30)]
    produce_values(kafka_bootstrap, unique_topic, {0: values})
    tp = TopicPartition(unique_topic, 0)

    async def main() -> None:
        async with AIOConsumer(_conf(consumer_conf)) as c:
            await c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
            assert await c.assignment() == [tp]
            first = await c.poll(30)
            assert first is not None and first.value() == b"m0"
            got: List[Message] = [first]
            while len(got) < 10:
                batch = await c.consume(10 - len(got), 30, by_partition=True)
                assert set(batch) <= {tp}
                got.extend(batch.get(tp, []))
            async for m in c:
                got.append(m)
                if len(got) == 30:
                    break
            assert [m.value() for m in got] == values

            committed = await c.commit(got[19])
            assert [(t.topic, t.partition, t.offset) for t in committed] == [(unique_topic, 0, 20)]
            [stored] = await c.committed([tp], timeout=30)
            assert stored.offset == 20
            [pos] = await c.position([tp])
            assert pos.offset == 30
            # What the broker answers (tansu's high watermark of a batched partition differs
            # from Kafka's), asked through the plain client too.
            assert await c.get_watermark_offsets(tp, timeout=30) == make_consumer().get_watermark_offsets(tp, 30)

            await c.seek(TopicPartition(unique_topic, 0, 5))
            m = await c.poll(30)
            assert m is not None and m.offset() == 5

            await c.pause([tp])
            assert await c.paused() == [tp]
            await c.resume([tp])
            assert await c.paused() == []
            m = await c.poll(30)
            assert m is not None and m.offset() >= 6
            md = await c.list_topics(unique_topic, timeout=30)
            assert set(md.topics[unique_topic].partitions) == PARTS

    run(main, loop)


def test_group_of_two_rebalances(kafka_bootstrap: str, unique_topic: str, consumer_conf: Any) -> None:
    conf = _conf(consumer_conf)
    produce_values(kafka_bootstrap, unique_topic, {p: [b"a-%d-%d" % (p, i) for i in range(5)] for p in PARTS})

    async def main() -> Tuple[List[Any], List[Any], Set[bytes]]:
        events_a: List[Any] = []
        events_b: List[Any] = []
        seen: Set[bytes] = set()

        def member(events: List[Any]) -> Dict[str, Any]:
            async def on_assign(consumer: AIOConsumer, parts: List[TopicPartition]) -> None:
                await asyncio.sleep(0.01)  # a callback that really awaits
                events.append(("assign", {p.partition for p in parts}))

            def on_revoke(consumer: AIOConsumer, parts: List[TopicPartition]) -> None:
                assert isinstance(consumer, AIOConsumer)
                events.append(("revoke", {p.partition for p in parts}))

            return {"on_assign": on_assign, "on_revoke": on_revoke}

        async def owned(c: AIOConsumer) -> Set[int]:
            return {p.partition for p in await c.assignment()}

        async def pump(c: AIOConsumer, until: Any, what: str) -> None:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while not await until():
                assert loop.time() < deadline, f"timed out waiting for {what}"
                for m in await c.consume(100, 0.2):
                    if m.error() is None:
                        seen.add(m.value())

        a = AIOConsumer(conf)
        b = AIOConsumer(conf)
        try:
            await a.subscribe([unique_topic], **member(events_a))

            async def a_owns_all() -> bool:
                return await owned(a) == PARTS and len(seen) == 20

            await pump(a, a_owns_all, "a to own every partition")
            await b.subscribe([unique_topic], **member(events_b))

            async def split() -> bool:
                oa, ob = await owned(a), await owned(b)
                return len(oa) == 2 and len(ob) == 2 and oa | ob == PARTS

            pump_b = asyncio.ensure_future(pump(b, split, "the split (b)"))
            await pump(a, split, "the split (a)")
            await pump_b
        finally:
            await b.close()
            await a.close()
        return events_a, events_b, seen

    events_a, events_b, seen = run(main, timeout=180)
    assert seen == {b"a-%d-%d" % (p, i) for p in PARTS for i in range(5)}
    assert events_a[0] == ("assign", PARTS)
    assert ("revoke", PARTS) in events_a, events_a  # eager: a gave everything back on b's join
    assert events_a[-1][0] == "revoke" and events_b[-1][0] == "revoke"  # close() revoked


def test_cancelled_polls_lose_no_message(kafka_bootstrap: str, unique_topic: str, consumer_conf: Any) -> None:
    values = [b"c%d" % i for i in range(200)]
    produce_values(kafka_bootstrap, unique_topic, {0: values})

    async def main() -> List[bytes]:
        got: List[bytes] = []
        rnd = random.Random(7)
        async with AIOConsumer(_conf(consumer_conf)) as c:
            await c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while len(got) < len(values) and loop.time() < deadline:
                task = asyncio.ensure_future(c.poll(5) if rnd.random() < 0.5 else c.consume(7, 5))
                await asyncio.sleep(rnd.choice([0, 0, 0.0005, 0.002]))
                task.cancel()
                try:
                    res = await task
                except asyncio.CancelledError:
                    continue
                msgs = res if isinstance(res, list) else [res] if res is not None else []
                got.extend(m.value() for m in msgs if m.error() is None)
        return got

    assert run(main) == values


def test_commit_without_offsets_raises(kafka_bootstrap: str, unique_topic: str, consumer_conf: Any) -> None:
    async def main() -> None:
        async with AIOConsumer(_conf(consumer_conf)) as c:
            await c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
            with pytest.raises(KafkaException):
                await c.commit()

    run(main)
