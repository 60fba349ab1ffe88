"""One benchmark run of a pure-Python peer (kafka-python or aiokafka); prints one JSON object.

Runs in the peers' virtualenv (.bench-venv) and imports nothing from this repository. The
workloads mirror producer_worker.py and consumer_worker.py as closely as each library allows:

  produce            send() per message, with a callback on each delivery future (--callback) or
                     none, then flush(); acks=all and linger 5 ms, librdkafka's defaults
  produce --acked    one message at a time, each acknowledged before the next (kafka-python:
                     send().get(); aiokafka: send_and_wait()), linger 0
  consume --api poll one message at a time (kafka-python: iteration; aiokafka: getone())
  consume --api consume
                     up to 1000 at a time (kafka-python: poll(max_records=1000);
                     aiokafka: getmany(max_records=1000))

The consumer's clock starts at the first arrival, as in consumer_worker.py.

    python bench/peer_worker.py --client kafka-python --role produce --bootstrap H:P --topic T -n N
"""
import argparse
import asyncio
import json
import resource
import sys
import time

BATCH = 1000


def report(module, args, messages: int, nbytes: int, seconds: float, cpu: float, startup: float,
           errors: int) -> None:
    json.dump({
        "module": module.__file__,
        "version": f"{args.client} {module.__version__}",
        "librdkafka": "-",
        "messages": messages,
        "size": args.size,
        "bytes": nbytes,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "startup_seconds": startup,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
        "errors": errors,
    }, sys.stdout)
    print()


class Clock:
    """Wall and CPU time of the timed part."""

    def start(self) -> None:
        self.cpu0, self.t0 = time.process_time(), time.perf_counter()

    def stop(self) -> tuple:
        return time.perf_counter() - self.t0, time.process_time() - self.cpu0


# ---- kafka-python --------------------------------------------------------------------------

def kafka_python_produce(args) -> int:
    import kafka
    t_start = time.perf_counter()
    producer = kafka.KafkaProducer(bootstrap_servers=args.bootstrap, acks="all", linger_ms=0 if args.acked else 5)
    producer.send(args.topic, b"warm-up").get(timeout=30)
    startup = time.perf_counter() - t_start
    value, done, errors = b"v" * args.size, [0], [0]
    if args.acked:
        clock = Clock()
        clock.start()
        for _ in range(args.n):
            producer.send(args.topic, value).get(timeout=args.timeout)
        seconds, cpu = clock.stop()
        producer.close()
        report(kafka, args, args.n, args.n * args.size, seconds, cpu, startup, 0)
        return 0

    def ok(_):
        done[0] += 1

    def failed(_):
        errors[0] += 1

    clock = Clock()
    clock.start()
    send = producer.send
    for _ in range(args.n):
        fut = send(args.topic, value)
        if args.callback:
            fut.add_callback(ok)
            fut.add_errback(failed)
    producer.flush(timeout=args.timeout)
    seconds, cpu = clock.stop()
    producer.close()
    report(kafka, args, args.n, args.n * args.size, seconds, cpu, startup, errors[0])
    return 0 if errors[0] == 0 and (done[0] == args.n or not args.callback) else 1


def kafka_python_consume(args) -> int:
    import kafka
    t_start = time.perf_counter()
    consumer = kafka.KafkaConsumer(bootstrap_servers=args.bootstrap, enable_auto_commit=False,
                                   auto_offset_reset="earliest", consumer_timeout_ms=int(args.timeout * 1000))
    tp = kafka.TopicPartition(args.topic, 0)
    consumer.assign([tp])
    consumer.seek_to_beginning(tp)
    deadline = time.monotonic() + args.timeout
    clock = Clock()
    got = nbytes = 0

    def batch(want: int) -> list:
        records = consumer.poll(timeout_ms=1000, max_records=want)
        return [r for rs in records.values() for r in rs]

    it = iter(consumer)
    first = [next(it)] if args.api == "poll" else []
    while not first and time.monotonic() < deadline:
        first = batch(min(BATCH, args.n))
    untimed = len(first)
    startup = time.perf_counter() - t_start
    clock.start()
    got = untimed
    while got < args.n and time.monotonic() < deadline:
        if args.api == "poll":
            r = next(it)
            nbytes += len(r.value)
            got += 1
        else:
            for r in batch(min(BATCH, args.n - got)):
                nbytes += len(r.value)
                got += 1
    seconds, cpu = clock.stop()
    consumer.close()
    report(kafka, args, got - untimed, nbytes, seconds, cpu, startup, 0)
    return 0 if got >= args.n else 1


# ---- aiokafka ------------------------------------------------------------------------------

async def aiokafka_produce(args) -> int:
    import aiokafka
    t_start = time.perf_counter()
    producer = aiokafka.AIOKafkaProducer(bootstrap_servers=args.bootstrap, acks="all",
                                         linger_ms=0 if args.acked else 5)
    await producer.start()
    await (await producer.send(args.topic, b"warm-up"))
    startup = time.perf_counter() - t_start
    value, done, errors = b"v" * args.size, [0], [0]
    if args.acked:
        clock = Clock()
        clock.start()
        for _ in range(args.n):
            await asyncio.wait_for(producer.send_and_wait(args.topic, value), args.timeout)
        seconds, cpu = clock.stop()
        await producer.stop()
        report(aiokafka, args, args.n, args.n * args.size, seconds, cpu, startup, 0)
        return 0

    def on_done(fut) -> None:
        if fut.exception() is None:
            done[0] += 1
        else:
            errors[0] += 1

    clock = Clock()
    clock.start()
    send = producer.send
    for _ in range(args.n):
        fut = await send(args.topic, value)
        if args.callback:
            fut.add_done_callback(on_done)
    await asyncio.wait_for(producer.flush(), args.timeout)
    seconds, cpu = clock.stop()
    await producer.stop()
    report(aiokafka, args, args.n, args.n * args.size, seconds, cpu, startup, errors[0])
    return 0 if errors[0] == 0 and (done[0] == args.n or not args.callback) else 1


async def aiokafka_consume(args) -> int:
    import aiokafka
    t_start = time.perf_counter()
    consumer = aiokafka.AIOKafkaConsumer(bootstrap_servers=args.bootstrap, enable_auto_commit=False,
                                         auto_offset_reset="earliest")
    await consumer.start()
    tp = aiokafka.TopicPartition(args.topic, 0)
    consumer.assign([tp])
    await consumer.seek_to_beginning(tp)
    deadline = time.monotonic() + args.timeout

    async def batch(want: int) -> list:
        records = await consumer.getmany(timeout_ms=1000, max_records=want)
        return [r for rs in records.values() for r in rs]

    first = [await asyncio.wait_for(consumer.getone(), args.timeout)] if args.api == "poll" else []
    while not first and time.monotonic() < deadline:
        first = await batch(min(BATCH, args.n))
    untimed = got = len(first)
    startup = time.perf_counter() - t_start
    nbytes = 0
    clock = Clock()
    clock.start()
    getone = consumer.getone
    while got < args.n and time.monotonic() < deadline:
        if args.api == "poll":
            r = await getone()
            nbytes += len(r.value)
            got += 1
        else:
            for r in await batch(min(BATCH, args.n - got)):
                nbytes += len(r.value)
                got += 1
    seconds, cpu = clock.stop()
    await consumer.stop()
    report(aiokafka, args, got - untimed, nbytes, seconds, cpu, startup, 0)
    return 0 if got >= args.n else 1


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--client", choices=("kafka-python", "aiokafka"), required=True)
    ap.add_argument("--role", choices=("produce", "consume"), required=True)
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--topic", required=True)
    ap.add_argument("-n", type=int, required=True)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--callback", action="store_true")
    ap.add_argument("--acked", action="store_true", help="produce: each message acknowledged before the next")
    ap.add_argument("--api", choices=("poll", "consume"), default="consume")
    ap.add_argument("--timeout", type=float, default=300.0)
    args = ap.parse_args()
    if args.client == "kafka-python":
        return (kafka_python_produce if args.role == "produce" else kafka_python_consume)(args)
    return asyncio.run((aiokafka_produce if args.role == "produce" else aiokafka_consume)(args))


if __name__ == "__main__":
    sys.exit(main())
