"""Consumer throughput: this project, upstream confluent-kafka, kafka-python, aiokafka, librdkafka.

One topic with one partition is created (by rdkbench) and filled once with N values of SIZE
bytes by this project's Producer. Every run then reads those N messages from the beginning in a
process of its own, with a fresh group.id and the partition assigned (bench/consumer_worker.py;
native: bench/native/rdkbench.c):

  consume, poll()          poll() per message        native: rd_kafka_consumer_poll
  consume, consume(1000)   consume(min(1000, left))  native: rd_kafka_consume_batch_queue
  consume_arrow(1000)      ours only: Arrow batches, compared with the consume(1000) row's
                           upstream and native runs
  prefetched, ...          the same, but the local queue limits are lifted and the client waits
                           until the partition has been fetched before the clock starts: the
                           cost of the client alone, without the fetch pacing (ours, upstream
                           and native only)

kafka-python and aiokafka (bench/peer_worker.py) read one message at a time in the poll() row
and up to 1000 at a time in the consume(1000) row.

The clock starts when the first messages arrive (they are not counted), so the connection,
metadata and first fetch are excluded; that time is the startup column. Without prefetching,
librdkafka fetches as usual: it stops fetching when queued.min.messages (100,000) are waiting
and resumes after fetch.queue.backoff.ms (1 s), so a client slower than the fetcher waits out
those pauses.

    .venv/bin/python bench/consumer.py [--quick] [-n N] [--sizes 100,10240] [--repeat R]
    (`make bench` runs this together with bench/producer.py: bench/run.py)
"""
import sys

import common

# (workload, clients, Python API, native batch size, prefetch, baseline workload)
OURS_UPSTREAM_NATIVE = ("ours", "upstream", "native")
WORKLOADS = (("consume, poll()", common.CLIENTS, "poll", 1, False, None),
             ("consume, consume(1000)", common.CLIENTS, "consume", 1000, False, None),
             ("consume_arrow(1000)", ("ours",), "arrow", 1000, False, "consume, consume(1000)"),
             ("prefetched, poll()", OURS_UPSTREAM_NATIVE, "poll", 1, True, None),
             ("prefetched, consume(1000)", OURS_UPSTREAM_NATIVE, "consume", 1000, True, None),
             ("prefetched, consume_arrow(1000)", ("ours",), "arrow", 1000, True, "prefetched, consume(1000)"))


def prefetch_seconds(n: int, size: int) -> float:
    """Time to let the queue fill: librdkafka fetches well over 1M messages/s and 500 MB/s from
    tansu here."""
    return 1.0 + n / 200_000 + n * size / 200e6


def run(session: common.Session) -> None:
    n, size = session.n, session.size
    session.fresh_broker()
    topic = common.fresh_topic("bench-consume")
    session.native("create", ["--topic", topic, "--partitions", 1])
    fill = session.python_worker("ours", "producer_worker.py", ["--topic", topic, "-n", n, "--size", size])
    print(f"  filled {topic} (1 partition) with {fill['messages']:,} messages of {size:,} B "
          f"at {fill['msgs_per_s']:,.0f} msgs/s", flush=True)

    wait = prefetch_seconds(n, size)
    for rep in range(session.args.repeat):
        for i, (name, clients, api, batch, prefetch, baseline) in enumerate(WORKLOADS):
            workload = session.workload(name)
            if baseline:
                session.baselines[workload] = session.workload(baseline)
            extra = ["--prefetch", wait] if prefetch else []
            for client in session.client_order(rep + i, clients):
                if not session.runs_peer(client, rep):
                    continue
                if client == "native":
                    r = session.native("consume", ["--topic", topic, "-n", n, "--size", size,
                                                   "--batch", batch] + extra, extra_time=wait)
                    if prefetch and r["prefetched"] < r["messages"]:
                        print(f"    (only {r['prefetched']:,} of {r['messages']:,} messages were local "
                              f"after {wait:.1f} s)", flush=True)
                elif client in common.PEERS or client in common.FACADES:
                    r = session.peer(client, "consume", ["--topic", topic, "-n", n, "--size", size, "--api", api])
                else:
                    r = session.python_worker(client, "consumer_worker.py",
                                              ["--topic", topic, "-n", n, "--api", api] + extra,
                                              extra_time=wait)
                session.record(workload, client, rep, r)
    session.note(
        "consume: N messages of one partition from its beginning, fresh group.id per run, timed from "
        "the first arrival (startup s: until then); native poll() row: rd_kafka_consumer_poll, "
        "consume(1000) row: rd_kafka_consume_batch_queue.")
    session.note(
        "prefetched: queued.min.messages/queued.max.messages.kbytes lifted and time to fetch "
        "everything before the clock starts (peak RSS then holds the whole partition).")


if __name__ == "__main__":
    sys.exit(common.main(__doc__.splitlines()[0], [run]))
