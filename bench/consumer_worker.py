"""One consumer benchmark run in its own process; prints one JSON object on stdout.

Runs with whichever interpreter has the confluent_kafka under test (this project's or
upstream's), so it imports nothing from this repository.

Assigns partition 0 of an already filled topic from its beginning, with a fresh group.id, and
reads N messages with poll() one at a time (--api poll) or with consume(min(1000, remaining))
(--api consume), touching each message's error() and value() as an application would, or with
consume_arrow(min(1000, remaining)) (--api arrow), taking each batch as a pyarrow RecordBatch. The clock
starts when the first messages arrive: those (one for poll, the first batch for consume) are not
counted, and the time until then (metadata, first fetch) is reported as startup_seconds.

--prefetch S lifts librdkafka's local queue limits (queued.min.messages,
queued.max.messages.kbytes) and sleeps S seconds after the first arrival before the clock starts,
so the timed part reads messages that are already local: the cost of the client alone. Reads that
come back empty in the timed part are reported as stalls (0 when the prefetch was complete).

    python bench/consumer_worker.py --bootstrap 127.0.0.1:PORT --topic T -n 1000000 --api poll
"""
import argparse
import json
import resource
import sys
import time
import uuid

import confluent_kafka
from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

BATCH = 1000
WAIT = 1.0  # seconds each poll()/consume() may block; the run is bounded by --timeout


def version_string(v) -> str:
    """version() is a str in some releases and a (str, int) tuple in others."""
    return v[0] if isinstance(v, tuple) else v


class TimedOut(Exception):
    pass


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--topic", required=True)
    ap.add_argument("-n", type=int, required=True)
    ap.add_argument("--api", choices=("poll", "consume", "arrow"), required=True)
    ap.add_argument("--prefetch", type=float, default=0.0, help="seconds to let the queue fill first")
    ap.add_argument("--timeout", type=float, default=300.0, help="bound on the whole run, seconds")
    args = ap.parse_args()

    conf = {
        "bootstrap.servers": args.bootstrap,
        "group.id": f"bench-{uuid.uuid4().hex[:12]}",
        "auto.offset.reset": "earliest",
    }
    if args.prefetch > 0:
        conf.update({"queued.min.messages": 10_000_000, "queued.max.messages.kbytes": 2_097_151})
    consumer = Consumer(conf)
    n = args.n
    got = nbytes = errors = stalls = 0
    first_error = None
    t_start = time.perf_counter()
    deadline = time.monotonic() + args.timeout
    consumer.assign([TopicPartition(args.topic, 0, OFFSET_BEGINNING)])

    def on_error(msg) -> None:
        nonlocal errors, first_error
        errors += 1
        if first_error is None:
            first_error = str(msg.error())

    def check_deadline() -> None:
        if time.monotonic() > deadline:
            raise TimedOut

    poll, consume = consumer.poll, consumer.consume
    if args.api == "arrow":
        import pyarrow.compute as pc

    def arrow_batch(want: int) -> int:
        """Rows of one consume_arrow() batch; their value bytes are added to nbytes."""
        nonlocal nbytes
        rb = consumer.consume_arrow(want, WAIT).to_pyarrow()
        if rb.num_rows:
            nbytes += pc.sum(pc.binary_length(rb.column(1))).as_py()
        return rb.num_rows
    # The first arrival, not timed.
    try:
        while got == 0:
            if args.api == "arrow":
                got += arrow_batch(min(BATCH, n))
                first = []
            elif args.api == "poll":
                one = poll(WAIT)
                first = [] if one is None else [one]
            else:
                first = consume(min(BATCH, n), WAIT)
            for m in first:
                if m.error() is not None:
                    on_error(m)
                    continue
                nbytes += len(m.value() or b"")
                got += 1
            if got == 0:
                check_deadline()
        untimed = got
        startup = time.perf_counter() - t_start
        if args.prefetch > 0:
            time.sleep(args.prefetch)

        cpu0 = time.process_time()
        t0 = time.perf_counter()
        timed_bytes0 = nbytes
        if args.api == "poll":
            while got < n:
                msg = poll(WAIT)
                if msg is None:
                    stalls += 1
                    check_deadline()
                    continue
                if msg.error() is not None:
                    on_error(msg)
                    check_deadline()
                    continue
                nbytes += len(msg.value())  # type: ignore[arg-type]  # never None here
                got += 1
        elif args.api == "arrow":
            while got < n:
                rows = arrow_batch(min(BATCH, n - got))
                if not rows:
                    stalls += 1
                    check_deadline()
                got += rows
        else:
            while got < n:
                batch = consume(min(BATCH, n - got), WAIT)
                if not batch:
                    stalls += 1
                    check_deadline()
                    continue
                for msg in batch:
                    if msg.error() is not None:
                        on_error(msg)
                        continue
                    nbytes += len(msg.value())  # type: ignore[arg-type]  # never None here
                    got += 1
                if errors:
                    check_deadline()
        elapsed = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        timed_out = False
    except TimedOut:
        timed_out = True
    finally:
        consumer.close()

    if timed_out:
        print(f"timed out after {got:,} of {n:,} messages", file=sys.stderr)
        return 1
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    json.dump({
        "module": confluent_kafka.__file__,
        "version": version_string(confluent_kafka.version()),
        "librdkafka": confluent_kafka.libversion()[0],
        "api": args.api,
        "messages": got - untimed,
        "bytes": nbytes - timed_bytes0,
        "seconds": elapsed,
        "cpu_seconds": cpu,
        "startup_seconds": startup,
        "peak_rss_mb": rss_kb / 1024.0,
        "errors": errors,
        "stalls": stalls,
        "prefetch_seconds": args.prefetch,
        "first_error": first_error,
    }, sys.stdout)
    print()
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
