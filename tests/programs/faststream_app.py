"""A FastStream application, written as its users write one, run against a broker and read back.

Run by test_faststream.py with FastStream 0.7.8 (installed by scripts/install-programs.sh), in one
of two flavours:

* ``kafka``: ``faststream.kafka``, which is built on aiokafka; run with the real aiokafka 0.14
  (.bench-venv) and with this package's aiokafka facade (``python -m confluent_kafka.compat run``);
* ``confluent``: ``faststream.confluent``, which is built on confluent-kafka; run with upstream
  2.16.1 (.compat-venv) and with this package.

Arguments: FLAVOUR BOOTSTRAP PREFIX (topics and groups are named after PREFIX). Prints one JSON
document of what the handlers received (sorted where arrival order is not promised) and what
the broker calls returned.
"""
from __future__ import annotations

import asyncio
import json
import logging
import sys
from typing import Any, Dict, List

from faststream import AckPolicy

FLAVOUR, BOOTSTRAP, PREFIX = sys.argv[1:4]
if FLAVOUR == "kafka":
    from faststream.kafka import KafkaBroker, KafkaMessage, TestKafkaBroker, Topic, TopicPartition
else:
    from faststream.confluent import KafkaBroker, KafkaMessage, TestKafkaBroker, TopicPartition
    from faststream.confluent.schemas import Topic

N = 5
WAIT_S = 120
# FastStream's own log (INFO and up, as by default) goes nowhere, so stdout stays the JSON; it is
# still written, so the attributes its messages read of the client are read.
QUIET = logging.getLogger("faststream-app")
QUIET.setLevel(logging.INFO)
QUIET.propagate = False
QUIET.addHandler(logging.NullHandler())


def topic(name: str) -> str:
    return f"{PREFIX}-{name}"


def raw_fields(msg: Any) -> Dict[str, Any]:
    """The record under a FastStream message: an aiokafka ConsumerRecord or a confluent Message."""
    raw = msg.raw_message
    if FLAVOUR == "kafka":
        return {"key": raw.key, "partition": raw.partition, "offset": raw.offset}
    return {"key": raw.key(), "partition": raw.partition(), "offset": raw.offset()}


def build(seen: Dict[str, List[Any]], arrived: asyncio.Event) -> Any:
    """The application: its subscribers record what they receive in ``seen``."""
    broker = KafkaBroker(BOOTSTRAP, logger=QUIET)
    earliest = {"auto_offset_reset": "earliest"}
    wanted = {"orders": N, "chained": N, "batch": N, "manual": N, "assigned": N, "meta": 1, "declared": 1,
              "retry": N + 1}

    def note(kind: str, value: Any) -> None:
        seen.setdefault(kind, []).append(value)
        counts = {k: len(v) if k != "batch" else sum(map(len, v)) for k, v in seen.items()}
        if all(counts.get(k, 0) >= n for k, n in wanted.items()):
            arrived.set()

    # A subscriber whose return value a publisher sends on (FastStream's pipeline idiom).
    @broker.subscriber(topic("orders"), group_id=topic("g-orders"), **earliest)
    @broker.publisher(topic("chained"))
    async def orders(body: dict) -> dict:
        note("orders", body["n"])
        return {"doubled": body["n"] * 2}

    @broker.subscriber(topic("chained"), group_id=topic("g-chained"), **earliest)
    async def chained(body: dict) -> None:
        note("chained", body["doubled"])

    @broker.subscriber(topic("batch"), group_id=topic("g-batch"), batch=True, **earliest)
    async def batch(bodies: List[str]) -> None:
        note("batch", bodies)

    @broker.subscriber(topic("manual"), group_id=topic("g-manual"), ack_policy=AckPolicy.MANUAL, **earliest)
    async def manual(body: str, msg: KafkaMessage) -> None:
        await msg.ack()
        note("manual", body)

    # No group: the partition is assigned, not subscribed.
    @broker.subscriber(partitions=[TopicPartition(topic("assigned"), 0)], **earliest)
    async def assigned(body: bytes) -> None:
        note("assigned", body.decode())

    @broker.subscriber(topic("meta"), group_id=topic("g-meta"), **earliest)
    async def meta(body: str, msg: KafkaMessage) -> None:
        note("meta", {"body": body, "headers": {k: v for k, v in msg.headers.items() if k.startswith("h")},
                      "correlation_id": msg.correlation_id, "content_type": msg.content_type, **raw_fields(msg)})

    # A topic FastStream creates through the admin client, with three partitions.
    @broker.subscriber(Topic(topic("declared"), num_partitions=3), group_id=topic("g-declared"), **earliest)
    async def declared(body: str, msg: KafkaMessage) -> None:
        note("declared", {"body": body, "partition": raw_fields(msg)["partition"]})

    # A handler that fails once: the message is nacked (the consumer seeks back to it) and comes again.
    # (FastStream creates each subscriber's topic with one partition at start: the order is the
    # publishing order.)
    @broker.subscriber(topic("retry"), group_id=topic("g-retry"), ack_policy=AckPolicy.NACK_ON_ERROR, **earliest)
    async def retry(body: str) -> None:
        note("retry", body)
        if body == "r1" and seen["retry"].count(body) == 1:
            raise PlannedFailure(body)

    return broker


class PlannedFailure(Exception):
    """Raised once by the retry handler: FastStream logs it, and the program expects that."""


async def against_broker(out: Dict[str, Any]) -> None:
    seen: Dict[str, List[Any]] = {}
    arrived = asyncio.Event()
    broker = build(seen, arrived)
    async with broker:
        await broker.start()
        out["ping"] = await broker.ping(timeout=10)
        for i in range(N):
            await broker.publish({"n": i}, topic("orders"))
            await broker.publish(f"m{i}", topic("manual"), key=b"k")
            await broker.publish(f"a{i}".encode(), topic("assigned"), partition=0)
            await broker.publish(f"r{i}", topic("retry"))
        await broker.publish_batch(*[f"b{i}" for i in range(N)], topic=topic("batch"))
        await broker.publish("hello", topic("meta"), key=b"key-1", headers={"h1": "v1", "h2": "v2"},
                             correlation_id="corr-1", partition=0)
        await broker.publish("third", topic("declared"), partition=2)
        try:
            await asyncio.wait_for(arrived.wait(), WAIT_S)
        except asyncio.TimeoutError:
            out["timed_out_with"] = {k: len(v) for k, v in seen.items()}
    for kind in ("orders", "chained", "manual", "batch"):
        values = seen.get(kind, [])
        out[kind] = sorted(v for vs in values for v in vs) if kind == "batch" else sorted(values)
    for kind in ("assigned", "meta", "declared", "retry"):
        out[kind] = seen.get(kind, [])


async def in_memory(out: Dict[str, Any]) -> None:
    """FastStream's test client: no broker; it builds the client's own record objects. Requests
    (request/reply) run only there: FastStream's Kafka brokers refuse them against a real one."""
    broker = KafkaBroker(BOOTSTRAP, logger=QUIET)
    got: List[Any] = []

    @broker.subscriber(topic("memory"), group_id=topic("g-memory"))
    async def handle(body: dict, msg: KafkaMessage) -> None:
        got.append({"body": body, **raw_fields(msg)})

    @broker.subscriber(topic("rpc"), group_id=topic("g-rpc"))
    async def rpc(body: str) -> str:
        return body.upper()

    async with TestKafkaBroker(broker) as test_broker:
        await test_broker.publish({"x": 1}, topic("memory"), key=b"mk")
        reply = await test_broker.request("ping", topic("rpc"))
        out["in_memory_reply"] = await reply.decode()
    out["in_memory"] = got


class Errors(logging.Handler):
    """Every error logged (by FastStream, the client or a rebalance listener) or left unhandled in
    a task: a program that "works" while its framework logs tracebacks is not running unchanged."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: List[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, PlannedFailure):
            return
        self.seen.append(f"{record.name}: {record.getMessage()}" + (f" ({exc!r})" if exc else ""))

    def on_loop_error(self, loop: asyncio.AbstractEventLoop, context: Dict[str, Any]) -> None:
        self.seen.append(f"loop: {context.get('message')} ({context.get('exception')!r})")


async def main() -> None:
    errors = Errors()
    logging.getLogger().addHandler(errors)
    asyncio.get_running_loop().set_exception_handler(errors.on_loop_error)
    out: Dict[str, Any] = {}
    await in_memory(out)
    await against_broker(out)
    out["errors"] = errors.seen
    print(json.dumps(out, sort_keys=True, default=repr))


asyncio.run(main())
