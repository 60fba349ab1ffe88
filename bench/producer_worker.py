"""One producer benchmark run in its own process; prints one JSON object on stdout.

Runs with whichever interpreter has the confluent_kafka under test (this project's or
upstream's), so it imports nothing from this repository.

    python bench/producer_worker.py --bootstrap 127.0.0.1:PORT --topic T -n 1000000 --size 100 --callback

--api produce (default): produce() + poll(0) per message. --api batch: produce_batch() with a
list of CHUNK values at a time; --api arrow: the same with slices of one Arrow binary array (built
before the clock starts, as a data pipeline would hold it). Both go on from the count
produce_batch() returns, serving reports with poll() when the queue is full. --api acked: one
message at a time, each waited for (poll() until its delivery report) before the next, with
linger.ms 0: the round trip a request/response program pays per message.
"""
import argparse
import json
import resource
import sys
import time

import confluent_kafka
from confluent_kafka import Producer


def version_string(v) -> str:
    """version() is a str in some releases and a (str, int) tuple in others."""
    return v[0] if isinstance(v, tuple) else v


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--topic", required=True)
    ap.add_argument("-n", type=int, required=True)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--callback", action="store_true", help="a delivery callback on every produce()")
    ap.add_argument("--timeout", type=float, default=300.0, help="bound on the timed part, seconds")
    ap.add_argument("--api", choices=("produce", "batch", "arrow", "acked"), default="produce")
    ap.add_argument("--chunk", type=int, default=10_000, help="values per produce_batch() call")
    args = ap.parse_args()

    value = b"v" * args.size
    if args.api == "arrow":
        import pyarrow as pa
        column = pa.array([value] * args.n, type=pa.binary())
    elif args.api == "batch":
        column = [value] * args.n
    delivered = 0
    errors = 0

    def on_delivery(err, msg):
        nonlocal delivered, errors
        if err is None:
            delivered += 1
        else:
            errors += 1

    t_start = time.perf_counter()
    conf = {"bootstrap.servers": args.bootstrap}
    if args.api == "acked":
        conf["linger.ms"] = 0  # as the peers' acknowledged row: the round trip, no batching wait
    producer = Producer(conf)
    # Warm-up outside the timing: the topic gets created and the connection established.
    producer.produce(args.topic, b"warm-up")
    if producer.flush(30) != 0:
        raise SystemExit("warm-up message was not delivered within 30 s")

    startup = time.perf_counter() - t_start
    deadline = time.monotonic() + args.timeout
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    produce, poll, topic = producer.produce, producer.poll, args.topic
    if args.api == "produce":
        for _ in range(args.n):
            while True:
                try:
                    if args.callback:
                        produce(topic, value, on_delivery=on_delivery)
                    else:
                        produce(topic, value)
                    break
                except BufferError:
                    poll(0.1)
                    if time.monotonic() > deadline:
                        raise SystemExit("timed out waiting for queue space") from None
            poll(0)
    elif args.api == "acked":
        for i in range(args.n):
            produce(topic, value, on_delivery=on_delivery)
            while delivered + errors <= i:
                poll(1.0)
                if time.monotonic() > deadline:
                    raise SystemExit("timed out waiting for a delivery report") from None
    else:
        callback = on_delivery if args.callback else None
        sent = 0
        while sent < args.n:
            end = min(sent + args.chunk, args.n)
            chunk = column.slice(sent, end - sent) if args.api == "arrow" else column[sent:end]
            try:
                sent += producer.produce_batch(topic, chunk, on_delivery=callback)
            except BufferError:
                poll(0.1)
                if time.monotonic() > deadline:
                    raise SystemExit("timed out waiting for queue space") from None
            poll(0)
    left = producer.flush(max(0.0, deadline - time.monotonic()))
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    if hasattr(producer, "close"):
        producer.close()

    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    json.dump({
        "module": confluent_kafka.__file__,
        "version": version_string(confluent_kafka.version()),
        "librdkafka": confluent_kafka.libversion()[0],
        "messages": args.n,
        "size": args.size,
        "callback": args.callback,
        "api": args.api,
        "seconds": elapsed,
        "cpu_seconds": cpu,
        "startup_seconds": startup,
        "peak_rss_mb": rss_kb / 1024.0,
        "undelivered": left,
        "delivered": delivered if args.callback or args.api == "acked" else args.n - left,
        "errors": errors,
    }, sys.stdout)
    print()
    ok = left == 0 and errors == 0 and (delivered == args.n or not (args.callback or args.api == "acked"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
