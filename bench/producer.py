"""Producer throughput: this project, upstream confluent-kafka, kafka-python, aiokafka, librdkafka.

Each run is a process of its own on a fresh topic of a fresh broker, N values of SIZE bytes:

  produce, delivery callback   produce() + poll(0) per message, a callback on every delivery
  produce, no callback         the same without the callback
  produce_batch, list          ours only: produce_batch() with lists of 10,000 values
  produce_batch, Arrow         ours only: produce_batch() with slices of one Arrow binary array
  produce, one at a time, acked
                               each message waited for before the next (at most 2,000), linger 0:
                               the round trip a request/response program pays per message
                               (kafka-python: send().get(); aiokafka: send_and_wait())

and flush() at the end (bench/producer_worker.py; the peers: bench/peer_worker.py). The native
rows do the same in C with rd_kafka_produce() and rd_kafka_poll(0) (bench/native/rdkbench.c),
with a delivery report callback or none. The batch rows compare with the upstream and native
rows of "produce, no callback": upstream's produce() loop and librdkafka's own loop. A warm-up
message is delivered before the clock starts; its time is the startup column. Beside the acked
row, a note gives the broker's own round trip with no client (bench/round_trip_floor.py): the
ceiling of that row.

    .venv/bin/python bench/producer.py [--quick] [-n N] [--sizes 100,10240] [--repeat R]
    (`make bench` runs this together with bench/consumer.py: bench/run.py)
"""
import sys

import common

# (workload, clients, producer_worker --api, delivery callback)
WORKLOADS = (("produce, delivery callback", common.CLIENTS, "produce", True),
             ("produce, no callback", common.CLIENTS, "produce", False),
             ("produce_batch, list", ("ours",), "batch", False),
             ("produce_batch, Arrow", ("ours",), "arrow", False),
             ("produce, one at a time, acked", tuple(c for c in common.CLIENTS if c != "native"), "acked", False))
ACKED_N = 2000  # one round trip each: a few hundred microseconds to a few milliseconds


def run_one(session: common.Session, client: str, api: str, callback: bool) -> dict:
    session.fresh_broker()
    topic = common.fresh_topic()
    n = min(session.n, ACKED_N) if api == "acked" else session.n
    common_args = ["--topic", topic, "-n", n, "--size", session.size]
    if client == "native":
        return session.native("produce", common_args + ([] if callback else ["--no-dr"]))
    if client in common.PEERS or client in common.FACADES:
        flags = ["--callback"] if callback else ["--acked"] if api == "acked" else []
        return session.peer(client, "produce", common_args + flags)
    return session.python_worker(client, "producer_worker.py",
                                 common_args + ["--api", api] + (["--callback"] if callback else []))


def run(session: common.Session) -> None:
    for rep in range(session.args.repeat):
        for i, (name, clients, api, callback) in enumerate(WORKLOADS):
            workload = session.workload(name, min(session.n, ACKED_N) if api == "acked" else None)
            if api in ("batch", "arrow"):  # ours-only rows: ratios to produce()'s
                session.baselines[workload] = session.workload("produce, no callback")
            for client in session.client_order(rep + i, clients):
                if not session.runs_peer(client, rep):
                    continue
                session.record(workload, client, rep, run_one(session, client, api, callback))
    acked_floor(session)
    session.note("produce: produce() + poll(0) per message, then flush(); fresh topic per run (native: "
                 "rd_kafka_produce + rd_kafka_poll(0); kafka-python/aiokafka: send() per message, "
                 "acks=all, linger 5 ms). produce_batch rows: ratios to the upstream and native rows of "
                 "'produce, no callback'. 'one at a time, acked': each message's delivery awaited "
                 "before the next, linger 0 for every client (its msgs/s is 1 / round trip).")


def acked_floor(session: common.Session) -> None:
    """The broker's own round trip, no client (bench/round_trip_floor.py, median of 3 runs on fresh
    brokers), beside the clients of 'produce, one at a time, acked': the ceiling of that row."""
    n = min(session.n, ACKED_N)
    workload = session.workload(WORKLOADS[-1][0], n)
    floors = []
    for _ in range(3):
        session.fresh_broker()
        r = session.worker_or_note("aiokafka", "round_trip_floor.py",
                                   ["--topic", common.fresh_topic(), "-n", n, "--size", session.size],
                                   f"round trip floor ({n:,} x {session.size:,} B)")
        if r is not None:
            floors.append(r)
    if not floors:
        return
    floor = common.median_run(floors)
    clients = {c: common.median_run(rs)["msgs_per_s"] for c, rs in session.runs.get(workload, {}).items()}
    shares = ", ".join(f"{c} {rate / floor['msgs_per_s']:.0%}" for c, rate in clients.items())
    session.note(f"{workload}: the broker's own round trip (one-record ProduceRequests, acks=all, on a "
                 f"plain socket, each answer read before the next; no client library) runs at "
                 f"{floor['msgs_per_s']:,.0f} msgs/s ({1e3 / floor['msgs_per_s']:.3f} ms) here: the "
                 f"ceiling of every client in that row. Share of it reached: {shares}")


if __name__ == "__main__":
    sys.exit(common.main(__doc__.splitlines()[0], [run]))
