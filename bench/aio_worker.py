"""One asyncio benchmark run in its own process; prints one JSON object on stdout.

Runs with whichever interpreter has the client under test: this project's confluent_kafka.aio
(--client ours), upstream confluent-kafka's confluent_kafka.aio (--client upstream) or aiokafka
(--client aiokafka, installed next to upstream), so it imports nothing from this repository.

  --mode batches   N produces awaited in groups of BATCH: each produce's delivery future is
                   collected and the group is awaited at once (asyncio.gather)
  --mode forget    N produces whose futures are dropped (ours: enqueue(), which makes none),
                   then one flush
  --mode consume   N messages of partition 0 of a filled topic, BATCH at a time (consume() /
                   aiokafka getmany()); the clock starts at the first arrival
  --mode concurrent
                   --tasks T tasks, each sending N/T messages one at a time, each awaited until
                   delivered (ours: produce() and its future; aiokafka: send_and_wait()), every
                   message with a key of its own with --keyed; also reports the mean and p99
                   of a message's wait
  --mode floor     no Kafka: the asyncio work that 'batches' asks of any client (a coroutine
                   awaited, a future made, gathered and resolved per message), the ceiling of
                   that workload on this interpreter and machine
  --mode floor-callback
                   no Kafka: the same for peer_worker.py's produce --callback (a future and a
                   done-callback per message, resolved 1,024 at a time, every callback run)

    python bench/aio_worker.py --client ours --bootstrap 127.0.0.1:PORT --topic T -n 100000 --mode batches
"""
import argparse
import asyncio
import json
import resource
import sys
import time
import uuid

BATCH = 1000


def version_string(v) -> str:
    """version() is a str in some releases and a (str, int) tuple in others."""
    return v[0] if isinstance(v, tuple) else v


class Confluent:
    """Ours and upstream share the confluent_kafka.aio API for what is measured here."""

    def __init__(self, client: str) -> None:
        import confluent_kafka
        from confluent_kafka import aio

        self.client = client
        self.aio = aio
        self.module = confluent_kafka.__file__
        self.version = version_string(confluent_kafka.version())
        self.librdkafka = confluent_kafka.libversion()[0]
        self.futures = True

    def producer(self, bootstrap: str):
        return self.aio.AIOProducer({"bootstrap.servers": bootstrap})

    async def produce_batches(self, p, topic: str, value: bytes, n: int) -> None:
        if self.client == "ours" and self.futures is False:
            # The batch form: one await (and one future) for the whole group.
            for start in range(0, n, BATCH):
                await p.produce_batch(topic, [{"value": value}] * min(BATCH, n - start))
            return
        for start in range(0, n, BATCH):
            futs = [await p.produce(topic, value) for _ in range(min(BATCH, n - start))]
            await asyncio.gather(*futs)

    async def send_and_wait(self, p, topic: str, value: bytes, key) -> None:
        await (await p.produce(topic, value, key=key))

    async def produce_forget(self, p, topic: str, value: bytes, n: int) -> None:
        if self.client == "ours":
            enqueue = p.enqueue
            for _ in range(n):
                await enqueue(topic, value)
        else:
            for _ in range(n):
                await p.produce(topic, value)
        await p.flush()

    async def close_producer(self, p) -> None:
        await p.close()

    async def consumer(self, bootstrap: str, topic: str):
        from confluent_kafka import OFFSET_BEGINNING, TopicPartition

        c = self.aio.AIOConsumer({"bootstrap.servers": bootstrap, "group.id": f"bench-{uuid.uuid4().hex[:12]}",
                                  "auto.offset.reset": "earliest", "enable.auto.commit": False})
        await c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        return c

    async def fetch(self, c, want: int):
        return await c.consume(min(BATCH, want), 1.0)

    async def close_consumer(self, c) -> None:
        await c.close()


class AioKafka:
    """aiokafka's producer (send() futures) and consumer (getmany())."""

    def __init__(self, client: str) -> None:
        import aiokafka

        self.aiokafka = aiokafka
        self.module = aiokafka.__file__
        self.version = f"aiokafka {aiokafka.__version__}"
        self.librdkafka = "-"

    async def _start(self, obj):
        await obj.start()
        return obj

    def producer(self, bootstrap: str):
        return self.aiokafka.AIOKafkaProducer(bootstrap_servers=bootstrap)

    async def produce_batches(self, p, topic: str, value: bytes, n: int) -> None:
        for start in range(0, n, BATCH):
            futs = [await p.send(topic, value) for _ in range(min(BATCH, n - start))]
            await asyncio.gather(*futs)

    async def send_and_wait(self, p, topic: str, value: bytes, key) -> None:
        await p.send_and_wait(topic, value, key=key)

    async def produce_forget(self, p, topic: str, value: bytes, n: int) -> None:
        for _ in range(n):
            await p.send(topic, value)
        await p.flush()

    async def close_producer(self, p) -> None:
        await p.stop()

    async def consumer(self, bootstrap: str, topic: str):
        from aiokafka.structs import TopicPartition

        c = self.aiokafka.AIOKafkaConsumer(bootstrap_servers=bootstrap, group_id=None,
                                           auto_offset_reset="earliest", enable_auto_commit=False)
        await c.start()
        tp = TopicPartition(topic, 0)
        c.assign([tp])
        await c.seek_to_beginning(tp)
        self.tp = tp
        return c

    async def fetch(self, c, want: int):
        batches = await c.getmany(self.tp, timeout_ms=1000, max_records=min(BATCH, want))
        return batches.get(self.tp, [])

    async def close_consumer(self, c) -> None:
        await c.stop()


async def produce(api, args) -> dict:
    value = b"v" * args.size
    t_start = time.perf_counter()
    p = api.producer(args.bootstrap)
    if isinstance(api, AioKafka):
        await p.start()
    # Warm-up outside the timing: the topic gets created and the connection established.
    await asyncio.wait_for(await p.send(args.topic, b"warm-up") if isinstance(api, AioKafka)
                           else await p.produce(args.topic, b"warm-up"), 30)
    startup = time.perf_counter() - t_start
    if args.mode == "concurrent":
        result = await produce_concurrently(api, p, args, value)
        await api.close_producer(p)
        return dict(result, startup_seconds=startup)
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    if args.mode == "batches":
        await api.produce_batches(p, args.topic, value, args.n)
    else:
        await api.produce_forget(p, args.topic, value, args.n)
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    await api.close_producer(p)
    return {"messages": args.n, "seconds": elapsed, "cpu_seconds": cpu, "startup_seconds": startup}


async def produce_concurrently(api, p, args, value: bytes) -> dict:
    """args.tasks tasks, each sending its share one message at a time, each delivered before the
    next: what a service handling requests at once asks of one shared producer."""
    waits: list = []
    per_task = args.n // args.tasks

    async def task(t: int) -> None:
        for i in range(per_task):
            key = b"%d-%d" % (t, i) if args.keyed else None
            sent = time.perf_counter()
            await api.send_and_wait(p, args.topic, value, key)
            waits.append(time.perf_counter() - sent)

    cpu0 = time.process_time()
    t0 = time.perf_counter()
    await asyncio.gather(*(task(t) for t in range(args.tasks)))
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    waits.sort()
    return {"messages": len(waits), "seconds": elapsed, "cpu_seconds": cpu,
            "mean_wait_ms": 1000 * sum(waits) / len(waits), "p99_wait_ms": 1000 * waits[int(0.99 * len(waits))]}


async def consume(api, args) -> dict:
    t_start = time.perf_counter()
    c = await api.consumer(args.bootstrap, args.topic)
    first = []
    while not first:
        first = await api.fetch(c, args.n)
        if time.perf_counter() - t_start > 60:
            raise SystemExit("no message arrived within 60 s")
    startup = time.perf_counter() - t_start
    got, nbytes = 0, 0
    want = args.n - len(first)
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    while got < want:
        msgs = await api.fetch(c, want - got)
        for m in msgs:
            v = m.value() if callable(m.value) else m.value
            nbytes += len(v)
        got += len(msgs)
        if time.perf_counter() - t0 > args.timeout:
            raise SystemExit(f"only {got} of {want} messages within {args.timeout} s")
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    await api.close_consumer(c)
    return {"messages": got, "bytes": nbytes, "seconds": elapsed, "cpu_seconds": cpu,
            "startup_seconds": startup}


async def floor(api, args) -> dict:
    """The 'batches' shape with nothing behind the futures: each group is resolved by one loop
    callback, as a client's delivery reports would be."""
    loop = asyncio.get_running_loop()

    async def produce() -> "asyncio.Future[None]":
        return loop.create_future()

    def resolve(futs: list) -> None:
        for f in futs:
            f.set_result(None)

    cpu0 = time.process_time()
    t0 = time.perf_counter()
    for start in range(0, args.n, BATCH):
        futs = [await produce() for _ in range(min(BATCH, args.n - start))]
        loop.call_soon(resolve, futs)
        await asyncio.gather(*futs)
    return {"messages": args.n, "seconds": time.perf_counter() - t0,
            "cpu_seconds": time.process_time() - cpu0, "startup_seconds": 0.0}


async def floor_callback(api, args) -> dict:
    """The shape of bench/peer_worker.py's produce --callback (a done-callback on every future)
    with nothing behind the futures: a coroutine returning a new future per message, a
    done-callback added, the futures resolved 1,024 at a time by one loop callback (as a
    client's delivery reports would be) while the sending loop lets it run, every callback run."""
    loop = asyncio.get_running_loop()
    done = [0]

    def on_done(fut: "asyncio.Future[None]") -> None:
        if fut.exception() is None:
            done[0] += 1

    async def send() -> "asyncio.Future[None]":
        return loop.create_future()

    def resolve(futs: list) -> None:
        for f in futs:
            f.set_result(None)

    cpu0 = time.process_time()
    t0 = time.perf_counter()
    pending: list = []
    for _ in range(args.n):
        fut = await send()
        fut.add_done_callback(on_done)
        pending.append(fut)
        if len(pending) == 1024:
            loop.call_soon(resolve, pending)
            pending = []
            await asyncio.sleep(0)
    loop.call_soon(resolve, pending)
    while done[0] < args.n:
        await asyncio.sleep(0)
    return {"messages": args.n, "seconds": time.perf_counter() - t0,
            "cpu_seconds": time.process_time() - cpu0, "startup_seconds": 0.0}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--client", choices=("ours", "upstream", "aiokafka"), required=True)
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--topic", required=True)
    ap.add_argument("-n", type=int, required=True)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--mode", choices=("batches", "forget", "concurrent", "consume", "floor", "floor-callback"),
                    required=True)
    ap.add_argument("--tasks", type=int, default=16, help="concurrent: how many tasks send")
    ap.add_argument("--keyed", action="store_true", help="concurrent: a key of its own on every message")
    ap.add_argument("--timeout", type=float, default=300.0, help="bound on the timed part, seconds")
    ap.add_argument("--batch-form", action="store_true", help="ours: produce_batch() instead of futures")
    args = ap.parse_args()

    api = AioKafka(args.client) if args.client == "aiokafka" else Confluent(args.client)
    if args.batch_form:
        api.futures = False
    work = {"consume": consume, "floor": floor, "floor-callback": floor_callback}.get(args.mode, produce)
    result = asyncio.run(asyncio.wait_for(work(api, args), args.timeout + 60))
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result.update({"module": api.module, "version": api.version, "librdkafka": api.librdkafka,
                   "size": args.size, "peak_rss_mb": rss_kb / 1024.0})
    json.dump(result, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
