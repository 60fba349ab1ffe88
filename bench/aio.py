"""asyncio throughput: this project's confluent_kafka.aio, upstream's confluent_kafka.aio, aiokafka.

Each run is a process of its own (bench/aio_worker.py) with N values of SIZE bytes:

  aio produce, awaited in batches   produce() futures gathered BATCH (1000) at a time
  aio produce, produce_batch()      ours only: the batch form, one await and one future per BATCH
  aio produce, fire-and-forget      futures dropped (ours: enqueue(), which makes none), one flush
  aio consume, batches of 1000      partition 0 of a filled topic from its beginning, consume()
                                    (aiokafka: getmany()), timed from the first arrival

Every client runs with its default configuration (ours: linger.ms 1; upstream: its own
1000-message buffer with a 1 s timeout in front of librdkafka; aiokafka: linger_ms 0).
Upstream runs its async clients over the sync one in a thread pool; ours is woken by librdkafka's
queue events and makes no thread; aiokafka is pure Python. A warm-up message (or the first
fetch) precedes the clock; its time is the startup column.

    .venv/bin/python bench/aio.py [--quick] [-n N] [--size S] [--repeat R]
    (`make bench` runs this together with the other benchmarks: bench/run.py)
"""
import sys

import common

CLIENTS = ("ours", "upstream", "aiokafka")
PRODUCE = (("aio produce, awaited in batches", "batches", CLIENTS),
           ("aio produce, produce_batch()", "batches --batch-form", ("ours",)),
           ("aio produce, fire-and-forget", "forget", CLIENTS))


def order(i: int) -> tuple:
    """CLIENTS rotated by i, so no client always runs first."""
    i %= len(CLIENTS)
    return CLIENTS[i:] + CLIENTS[:i]


def run(session: common.Session) -> None:
    a = session.args
    for rep in range(a.repeat):
        for i, (workload, mode, clients) in enumerate(PRODUCE):
            for client in [c for c in order(rep + i) if c in clients]:
                r = session.python_worker(client, "aio_worker.py",
                                          ["--client", client, "--topic", common.fresh_topic("bench-aio"),
                                           "-n", a.n, "--size", a.size, "--mode"] + mode.split())
                session.record(workload, client, rep, r)

    topic = common.fresh_topic("bench-aio-consume")
    session.native("create", ["--topic", topic, "--partitions", 1])
    session.python_worker("ours", "producer_worker.py", ["--topic", topic, "-n", a.n, "--size", a.size])
    for rep in range(a.repeat):
        for client in order(rep):
            r = session.python_worker(client, "aio_worker.py",
                                      ["--client", client, "--topic", topic, "-n", a.n, "--mode", "consume"])
            session.record("aio consume, batches of 1000", client, rep, r)

    for workload in [w for w, _, _ in PRODUCE] + ["aio consume, batches of 1000"]:
        med = {c: common.median_run(rs) for c, rs in session.runs.get(workload, {}).items()}
        if "ours" in med and "aiokafka" in med:
            session.notes.append(f"{workload}: ours / aiokafka = "
                                 f"{med['ours']['msgs_per_s'] / med['aiokafka']['msgs_per_s']:.2f}x")
    session.notes.append("aio: asyncio clients; upstream = confluent_kafka.aio of the upstream release "
                         "(a thread pool over the sync client), aiokafka = pure-Python asyncio client.")


if __name__ == "__main__":
    sys.exit(common.main(__doc__.splitlines()[0], [run]))
