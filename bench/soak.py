"""Soak: 10 M messages produced and consumed by one process, its RSS sampled at every million.

Starts tansu on loopback, produces N messages (produce() with a delivery callback on each, the
path that keeps the most per-message state) and then consumes them all (consume(1000)), and
reports the resident set size after each million in both phases. The verdict compares the RSS
after the 2nd and after the 10th million of each phase: a leak of even a few bytes per message
shows up as growth there, while the first million pays for the warm-up (queues, buffers,
interned strings).

    .venv/bin/python bench/soak.py [-n 10000000] [--size 100] [--max-growth 5]
    (`make soak`)
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import os
import pathlib
import sys
import time
import uuid
from typing import Callable, List

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from tansu_broker import TansuBroker  # noqa: E402

from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition  # noqa: E402
from confluent_kafka.admin import AdminClient, NewTopic  # noqa: E402

STEP = 1_000_000


def _malloc_trim() -> Callable[[], None]:
    """glibc's malloc_trim(0), or a no-op elsewhere."""
    try:
        trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return lambda: None
    return lambda: None if trim(0) is None else None


trim_heap = _malloc_trim()


def rss_mb() -> float:
    """Current resident set size of this process (not the peak), after handing the allocator's
    free pages back to the system: what is left is memory in use, not the allocator's whims."""
    gc.collect()
    trim_heap()
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def produce(bootstrap: str, topic: str, n: int, size: int, sample: Callable[[int], None]) -> None:
    delivered = errors = 0

    def on_delivery(err: object, _msg: object) -> None:
        nonlocal delivered, errors
        if err is None:
            delivered += 1
        else:
            errors += 1

    p = Producer({"bootstrap.servers": bootstrap})
    value = b"s" * size
    deadline = time.monotonic() + 3600
    for i in range(1, n + 1):
        while True:
            try:
                p.produce(topic, value, on_delivery=on_delivery)
                break
            except BufferError:
                p.poll(0.1)
                if time.monotonic() > deadline:
                    raise SystemExit("soak: no queue space for an hour")
        p.poll(0)
        if i % STEP == 0:
            p.flush(60)  # sample with the queue drained, so the samples compare like with like
            sample(i)
    if p.flush(120) != 0 or delivered != n or errors:
        raise SystemExit(f"soak: {delivered:,} of {n:,} delivered, {errors:,} errors")
    p.close()


def consume(bootstrap: str, topic: str, n: int, sample: Callable[[int], None]) -> None:
    # A small local queue, so how full it happens to be at a sample moves RSS by little.
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"soak-{uuid.uuid4().hex[:8]}",
                  "queued.max.messages.kbytes": 2048, "fetch.max.bytes": 1048576})
    c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    got, next_mark, idle_since = 0, STEP, time.monotonic()
    while got < n:
        batch = c.consume(1000, 1.0)
        if not batch and time.monotonic() - idle_since > 60:
            raise SystemExit(f"soak: consumer stalled at {got:,} of {n:,}")
        for m in batch:
            if m.error() is None:
                got += 1
        if batch:
            idle_since = time.monotonic()
        if got >= next_mark:
            sample(next_mark)
            next_mark += STEP
    c.close()


def growth(samples: List[float]) -> float:
    """Percent growth from the 2nd sample to the last (the 2nd and the 10th million)."""
    return 100.0 * (samples[-1] - samples[1]) / samples[1]


def bytes_per_message(samples: List[float]) -> float:
    """Least-squares slope of the samples from the 2nd on, in bytes per message: a leak's size."""
    ys = samples[1:]
    xs = list(range(len(ys)))
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope_mb_per_step = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return slope_mb_per_step * 1e6 / STEP


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=10_000_000)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--max-growth", type=float, default=5.0, help="percent allowed from the 2nd million on")
    args = ap.parse_args()
    if args.n < 3 * STEP:
        ap.error(f"-n must be at least {3 * STEP:,} (the verdict compares the 2nd million with the last)")
    verdicts = []
    with TansuBroker() as broker:
        topic = f"soak-{uuid.uuid4().hex[:12]}"
        admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
        admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)  # one partition, read by one consumer
        admin.close()
        for phase, run in (("produce", lambda s: produce(broker.bootstrap_servers, topic, args.n, args.size, s)),
                           ("consume", lambda s: consume(broker.bootstrap_servers, topic, args.n, s))):
            samples: List[float] = []
            t0 = time.perf_counter()

            def sample(i: int) -> None:
                samples.append(rss_mb())
                print(f"  {phase} {i:>12,}  RSS {samples[-1]:8.1f} MB  Python blocks "
                      f"{sys.getallocatedblocks():>9,}  {time.perf_counter() - t0:7.1f} s", flush=True)

            run(sample)
            g = growth(samples)
            verdicts.append(g <= args.max_growth)
            print(f"{phase}: RSS {samples[1]:.1f} MB after the 2nd million, {samples[-1]:.1f} MB after the "
                  f"last: {g:+.2f} % ({'within' if verdicts[-1] else 'OVER'} {args.max_growth} %); trend "
                  f"{bytes_per_message(samples):+.3f} bytes per message", flush=True)
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
