"""asyncio throughput: this project's confluent_kafka.aio, upstream's confluent_kafka.aio, aiokafka.

Each run is a process of its own (bench/aio_worker.py) with N values of SIZE bytes (N at most
100,000 for the produce rows, 1,000,000 for the consume row):

  aio produce, awaited in batches   produce() futures gathered BATCH (1000) at a time
  aio produce, produce_batch()      ours only: the batch form, one await and one future per BATCH
  aio produce, fire-and-forget      futures dropped (ours: enqueue(), which makes none), one flush
  (note) asyncio floor              the 'awaited' shape with no Kafka behind it: its ceiling for
                                    futures settled one set_result() at a time; and
                                    the done-callback shape of the produce rows, the same way
  aio consume, batches of 1000      partition 0 of a filled topic from its beginning, consume()
                                    (aiokafka: getmany()), timed from the first arrival
  aio produce, awaited in batches, 1 ms round trip, 16 partitions
                                    the awaited row on librdkafka's mock cluster with a 1 ms
                                    round trip (ours, aiokafka and the facade): what loopback
                                    hides, such as how many partitions one round trip carries
  aio send and wait, 16 tasks, 1 ms round trip, 16 partitions [, keyed]
                                    on that cluster, 16 tasks share one producer, each sending
                                    one message at a time and awaiting its delivery (aiokafka:
                                    send_and_wait()), as a service handling requests does;
                                    without keys, then with a key of its own on every message

The "aiokafka on ours" rows run aiokafka's code of each workload unchanged, with ``import
aiokafka`` resolved to this project's confluent_kafka.compat.aiokafka (bench/aio_worker.py
--client aiokafka under ``python -m confluent_kafka.compat run``, this project's interpreter).

Every client runs with its default configuration (ours: linger.ms 1; upstream: its own
1000-message buffer with a 1 s timeout in front of librdkafka; aiokafka: linger_ms 0).
Upstream runs its async clients over the sync one in a thread pool; ours is woken by librdkafka's
queue events and makes no thread; aiokafka is pure Python. A warm-up message (or the first
fetch) precedes the clock; its time is the startup column.

    .venv/bin/python bench/aio.py [--quick] [-n N] [--sizes 100] [--repeat R]
    (`make bench` runs this together with the other benchmarks: bench/run.py)
"""
import contextlib
import sys
from typing import Iterator, Optional

import common

# "aiokafka on ours": aiokafka's workload code, unchanged, on confluent_kafka.compat.aiokafka
# (bench/aio_worker.py --client aiokafka under `python -m confluent_kafka.compat run`).
CLIENTS = ("ours", "upstream", "aiokafka", "aiokafka on ours")
PRODUCE = (("aio produce, awaited in batches", "batches", CLIENTS),
           ("aio produce, produce_batch()", "batches --batch-form", ("ours",)),
           ("aio produce, fire-and-forget", "forget", CLIENTS))


AIO_N = 100_000  # upstream's awaited produce runs at about 1,000 msgs/s (its own 1 s batching)
# Every client consumes at 0.7-2.6 M msgs/s: 100,000 records would be read in 0.04-0.13 s, where
# one fetch round trip weighs, so the consume row reads more.
AIO_CONSUME_N = 1_000_000
# A network between client and broker, which tansu on loopback lacks: librdkafka's mock cluster
# with a round trip of NETWORK_RTT_MS and a topic of NETWORK_PARTITIONS partitions (aiokafka's
# request holds every partition, librdkafka's one: how many go out per round trip shows here).
NETWORK_RTT_MS = 1
NETWORK_PARTITIONS = 16
NETWORK_CLIENTS = ("ours", "aiokafka", "aiokafka on ours")  # upstream's 1 s batching would dominate
NETWORK_TASKS = 16
NETWORK_TASKS_N = 3_200  # about 0.3 s at 10,000 messages/s, one round trip each


@contextlib.contextmanager
def network_broker(session: common.Session, topic: str) -> Iterator[None]:
    """The session's workers talk to a fresh one-broker mock cluster holding ``topic``."""
    from confluent_kafka.testing import MockCluster

    cluster = MockCluster(1)
    saved = session.bootstrap
    try:
        cluster.create_topic(topic, NETWORK_PARTITIONS, 1)
        cluster.set_rtt(1, NETWORK_RTT_MS)
        session.bootstrap = cluster.bootstrap_servers
        yield
    finally:
        session.bootstrap = saved
        cluster.close()


def run(session: common.Session) -> None:
    if session.size != session.args.sizes[0]:
        return  # one value size is enough to place the asyncio clients
    n, size = min(session.n, AIO_N), session.size

    def label(name: str) -> str:
        return session.workload(name, n)

    def worker(client: str, argv: list) -> Optional[dict]:
        what = f"aio {client} {' '.join(str(a) for a in argv[-2:])}"
        return session.worker_or_note(client, "aio_worker.py", argv, what)
    for rep in range(session.args.repeat):
        for i, (name, mode, clients) in enumerate(PRODUCE):
            for client in session.client_order(rep + i, clients):
                session.fresh_broker()
                r = worker(client, ["--client", common.FACADES.get(client, client),
                                    "--topic", common.fresh_topic("bench-aio"),
                                    "-n", n, "--size", size, "--mode"] + mode.split())
                session.record(label(name), client, rep, r)

    where = f"{NETWORK_RTT_MS} ms round trip, {NETWORK_PARTITIONS} partitions"
    network = label(f"aio produce, awaited in batches, {where}")
    tasks = f"aio send and wait, {NETWORK_TASKS} tasks, {where}"
    network_rows = ((network, n, ["--mode", "batches"]),
                    (session.workload(tasks, NETWORK_TASKS_N), NETWORK_TASKS_N, ["--mode", "concurrent"]),
                    (session.workload(f"{tasks}, keyed", NETWORK_TASKS_N), NETWORK_TASKS_N,
                     ["--mode", "concurrent", "--keyed"]))
    for rep in range(session.args.repeat):
        for workload, count, mode in network_rows:
            for client in session.client_order(rep, NETWORK_CLIENTS):
                topic = common.fresh_topic("bench-aio-net")
                with network_broker(session, topic):
                    r = worker(client, ["--client", common.FACADES.get(client, client), "--topic", topic,
                                        "-n", count, "--size", size] + mode)
                session.record(workload, client, rep, r)

    session.fresh_broker()
    topic = common.fresh_topic("bench-aio-consume")
    session.native("create", ["--topic", topic, "--partitions", 1])
    n_consume = min(session.n, AIO_CONSUME_N)
    session.python_worker("ours", "producer_worker.py", ["--topic", topic, "-n", n_consume, "--size", size])
    consume = session.workload("aio consume, batches of 1000", n_consume)
    for rep in range(session.args.repeat):
        for client in session.client_order(rep, CLIENTS):
            r = worker(client, ["--client", common.FACADES.get(client, client), "--topic", topic,
                                "-n", n_consume, "--mode", "consume"])
            session.record(consume, client, rep, r)

    # asyncio's own cost of the awaited shape, no Kafka: what no client can beat (median of runs).
    floors = [worker("ours", ["--client", "ours", "--topic", "-", "-n", n, "--mode", "floor"])
              for _ in range(max(3, session.args.repeat))]
    floors = [r for r in floors if r is not None]
    awaited = label(PRODUCE[0][0])
    if floors:
        ceiling = common.median_run(floors)
        session.note(f"{awaited}: asyncio alone (a coroutine, a future, gather and set_result per "
                     f"message, no Kafka) runs that shape at {ceiling['msgs_per_s']:,.0f} msgs/s "
                     f"({ceiling['cpu_seconds']:.2f} CPU s) here: the ceiling of a client whose futures "
                     f"give each done-callback a loop handle of its own, as set_result() does (the "
                     f"aiokafka facade runs those of one drain of delivery reports as one loop callback)")
    # The same for the done-callback shape of the produce rows (bench/peer_worker.py --callback).
    floors = [worker("ours", ["--client", "ours", "--topic", "-", "-n", n, "--mode", "floor-callback"])
              for _ in range(max(3, session.args.repeat))]
    floors = [r for r in floors if r is not None]
    if floors:
        ceiling = common.median_run(floors)
        session.note(f"produce, delivery callback: asyncio alone (a coroutine and a future per message, a "
                     f"done-callback on each, resolved 1,024 at a time, no Kafka) takes "
                     f"{ceiling['cpu_seconds']:.2f} CPU s for {n:,} messages here "
                     f"({ceiling['msgs_per_s']:,.0f} msgs/s)")
    for workload, _, _ in network_rows[1:]:
        for client, rs in session.runs.get(workload, {}).items():
            med = common.median_run(rs)
            session.note(f"{workload}: {client} waits {med['mean_wait_ms']:.2f} ms for a delivery on average, "
                         f"p99 {med['p99_wait_ms']:.2f} ms")
    for workload in [label(w) for w, _, _ in PRODUCE] + [w for w, _, _ in network_rows] + [consume]:
        med = {c: common.median_run(rs) for c, rs in session.runs.get(workload, {}).items()}
        if "ours" in med and "aiokafka" in med:
            session.note(f"{workload}: ours / aiokafka = "
                         f"{med['ours']['msgs_per_s'] / med['aiokafka']['msgs_per_s']:.2f}x")
    session.note("aio: asyncio clients; upstream = confluent_kafka.aio of the upstream release "
                 "(a thread pool over the sync client), aiokafka = pure-Python asyncio client.")


if __name__ == "__main__":
    sys.exit(common.main(__doc__.splitlines()[0], [run]))
