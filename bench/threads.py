"""Throughput with 1, 2 and 4 threads, with and without the GIL (docs/performance.md, section
"Threads and free-threaded Python").

Two workloads on librdkafka's in-process mock cluster (no broker to start, the same on every
interpreter):

- produce: T threads share one Producer; each produces its share of the messages (100 B values,
  a per-message delivery callback that counts) and calls poll(0) after each; timed until
  flush() returned and every report was counted.
- consume: the messages of an 8-partition topic, produced beforehand; T threads each run their
  own Consumer, assigned 8/T of the partitions, and read them with consume(1000) touching every
  message's key and value. Each consumer first reads one batch and then waits `--prefetch`
  seconds, so that librdkafka has fetched the rest: the timed part (from then until all messages
  were read) measures the client, not the fetching.

- control: no client at all; T threads share a pure-Python loop of the same number of steps
  (an integer hash per "message"). It shows how far threads can scale on the machine and
  interpreter at hand, the ceiling for the rows above.

Every (interpreter, workload, threads) point runs in a fresh process, `--repeat` times; the
median is reported. Usage:

    python bench/threads.py --python .ft-venv/bin/python --python /usr/bin/python3.13 \\
        [--label 3.13t --label 3.13] [-n 200000] [--repeat 3] [--json out.json]

A label may end in "+GIL": that interpreter then runs with PYTHON_GIL=1 (a free-threaded build
with its GIL turned back on: the same binary, with and without the GIL). Each interpreter must
have this package's extension built for it (scripts/build-ext.sh PYTHON); the source tree's
src/ is put on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import threading
import time
from typing import Any, Dict, List, Optional

ROOT = pathlib.Path(__file__).resolve().parent.parent
PARTITIONS = 8
VALUE = b"x" * 100


def gil_state() -> str:
    is_enabled = getattr(sys, "_is_gil_enabled", None)
    return "on" if is_enabled is None or is_enabled() else "off"


def run_produce(bootstrap: str, topic: str, n: int, threads: int) -> float:
    from confluent_kafka import Producer

    # Reports are counted per serving thread (a thread-local counter: without a GIL, `n += 1` on
    # an object two threads share loses updates, and a shared object's lock would measure the
    # benchmark instead of the client); the counts are added up at the end.
    local = threading.local()
    totals: List[int] = []
    totals_lock = threading.Lock()

    def on_delivery(err: Any, msg: Any) -> None:
        if err is None:
            local.n = getattr(local, "n", 0) + 1

    def add_mine() -> None:
        with totals_lock:
            totals.append(getattr(local, "n", 0))

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.num.messages": 10000,
                  "queue.buffering.max.messages": 1000000})
    share = n // threads
    start_line = threading.Barrier(threads)
    # Each thread notes when it started (a loaded machine may run the main thread much later).
    starts: List[float] = []

    def work(i: int) -> None:
        produce, poll = p.produce, p.poll
        start_line.wait()
        starts.append(time.perf_counter())
        for _ in range(share):
            while True:
                try:
                    produce(topic, VALUE, on_delivery=on_delivery)
                    break
                except BufferError:
                    poll(0.001)
            poll(0)
        add_mine()

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    left = p.flush(60)
    elapsed = time.perf_counter() - min(starts)
    p.close()
    add_mine()  # the reports flush() served on this thread
    delivered = sum(totals)
    if left or delivered != share * threads:
        raise RuntimeError(f"produce: {delivered} of {share * threads} reports, {left} left")
    return share * threads / elapsed


def fill(bootstrap: str, topic: str, n: int) -> None:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20, "batch.num.messages": 10000,
                  "queue.buffering.max.messages": 2000000})
    for i in range(n):
        while True:
            try:
                p.produce(topic, VALUE, key=str(i).encode(), partition=i % PARTITIONS)
                break
            except BufferError:
                p.poll(0.01)
    if p.flush(120):
        raise RuntimeError("fill: messages left")
    p.close()


def run_consume(bootstrap: str, topic: str, n: int, threads: int, prefetch: float) -> float:
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    got = [0] * threads
    start_line = threading.Barrier(threads)
    spans: List[float] = []  # each thread's start and end (the main thread may run much later)
    consumers = []
    for i in range(threads):
        c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"bench-{i}", "enable.auto.commit": False,
                      "enable.partition.eof": False})
        c.assign([TopicPartition(topic, part, OFFSET_BEGINNING) for part in range(i, PARTITIONS, threads)])
        consumers.append(c)
    expected = [sum(n // PARTITIONS + (1 if part < n % PARTITIONS else 0)
                    for part in range(i, PARTITIONS, threads)) for i in range(threads)]

    warm = [0] * threads

    def read(c: Any) -> int:
        n = size = 0
        for m in c.consume(1000, 0.5):
            if m.error() is None:
                size += len(m.value() or b"") + len(m.key() or b"")
                n += 1
        return n

    def work(i: int) -> None:
        # Counted in locals, stored once: no object shared between the threads while timed.
        c, count, want = consumers[i], 0, expected[i]
        deadline = time.monotonic() + 120
        # Not timed: connecting and the first fetch (the mock cluster's start-up, not the client).
        while count == 0 and time.monotonic() < deadline:
            count += read(c)
        warm[i] = count
        time.sleep(prefetch)  # librdkafka fetches the rest meanwhile
        start_line.wait()
        t0 = time.perf_counter()
        while count < want and time.monotonic() < deadline:
            count += read(c)
        spans.extend((t0, time.perf_counter()))
        got[i] = count

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = max(spans) - min(spans)
    for c in consumers:
        c.close()
    if got != expected:
        raise RuntimeError(f"consume: read {got}, expected {expected}")
    return (n - sum(warm)) / elapsed


def run_control(n: int, threads: int) -> float:
    start_line = threading.Barrier(threads)
    spans: List[float] = []

    def work() -> None:
        x = 0
        start_line.wait()
        t0 = time.perf_counter()
        for i in range(n // threads):
            x = (x * 31 + i) & 0xFFFFFFFF
        spans.extend((t0, time.perf_counter()))

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return (n // threads) * threads / (max(spans) - min(spans))


def point(workload: str, n: int, threads: int, prefetch: float) -> Dict[str, Any]:
    """One measurement in this process (a fresh one per point)."""
    from confluent_kafka.testing import MockCluster

    if workload == "control":
        return {"msgs_per_s": run_control(n * 10, threads), "gil": gil_state(), "python": sys.version.split()[0]}
    with MockCluster(num_brokers=1) as cluster:
        topic = "bench"
        cluster.create_topic(topic, PARTITIONS, 1)
        if workload == "produce":
            rate = run_produce(cluster.bootstrap_servers, topic, n, threads)
        else:
            fill(cluster.bootstrap_servers, topic, n)
            rate = run_consume(cluster.bootstrap_servers, topic, n, threads, prefetch)
    return {"msgs_per_s": rate, "gil": gil_state(), "python": sys.version.split()[0]}


def measure(python: str, gil: Optional[str], workload: str, n: int, threads: int, prefetch: float) -> Dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    if gil is not None:
        env["PYTHON_GIL"] = gil
    out = subprocess.run([python, __file__, "--point", workload, "-n", str(n), "--threads-one", str(threads),
                          "--prefetch", str(prefetch)],
                         env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"{python} {workload} x{threads} failed:\n{out.stderr}")
    result: Dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", action="append", default=[], help="an interpreter to measure (repeatable)")
    ap.add_argument("--label", action="append", default=[], help="its label in the table (repeatable)")
    ap.add_argument("-n", type=int, default=200_000, help="messages per point")
    ap.add_argument("--threads", default="1,2,4")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workloads", default="produce,consume,control")
    ap.add_argument("--prefetch", type=float, default=2.0, help="seconds a consumer fetches before the clock starts")
    ap.add_argument("--json", help="write the raw results here")
    ap.add_argument("--point", choices=("produce", "consume", "control"), help=argparse.SUPPRESS)
    ap.add_argument("--threads-one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.point:
        print(json.dumps(point(args.point, args.n, args.threads_one, args.prefetch)))
        return 0
    pythons = args.python or [sys.executable]
    labels = args.label or [pathlib.Path(p).name for p in pythons]
    if len(labels) != len(pythons):
        ap.error("one --label per --python")
    counts = [int(t) for t in args.threads.split(",")]
    workloads = args.workloads.split(",")
    results: List[Dict[str, Any]] = []
    for python, label in zip(pythons, labels):
        gil = "1" if label.endswith("+GIL") else None
        for workload in workloads:
            for threads in counts:
                runs = [measure(python, gil, workload, args.n, threads, args.prefetch) for _ in range(args.repeat)]
                rate = statistics.median(r["msgs_per_s"] for r in runs)
                results.append({"label": label, "workload": workload, "threads": threads, "msgs_per_s": rate,
                                "gil": runs[0]["gil"], "python": runs[0]["python"],
                                "runs": [r["msgs_per_s"] for r in runs]})
                print(f"{label:12s} {workload:8s} x{threads}: {rate:12,.0f} msgs/s (GIL {runs[0]['gil']})",
                      file=sys.stderr)
                if args.json:
                    pathlib.Path(args.json).write_text(json.dumps(results, indent=1))
    # The table: a row per interpreter and workload, a column per thread count, and the
    # speed-up of the largest count over one thread.
    print(f"| interpreter | GIL | workload | " + " | ".join(f"{t} thread{'s' if t > 1 else ''}" for t in counts)
          + f" | {counts[-1]} vs 1 |")
    print("|---|---|---|" + "---:|" * (len(counts) + 1))
    for label in labels:
        for workload in workloads:
            row = {r["threads"]: r for r in results if r["label"] == label and r["workload"] == workload}
            cells = " | ".join(f"{row[t]['msgs_per_s']:,.0f}" for t in counts)
            speedup = row[counts[-1]]["msgs_per_s"] / row[counts[0]]["msgs_per_s"]
            print(f"| {label} ({row[counts[0]]['python']}) | {row[counts[0]]['gil']} | {workload} | {cells} | "
                  f"{speedup:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
