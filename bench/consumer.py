"""Consumer throughput: this project's Consumer, upstream confluent-kafka's, and librdkafka alone.

One topic with one partition is created (by rdkbench) and filled once with N values of SIZE
bytes by this project's Producer. Every run then reads those N messages from the beginning in a
process of its own, with a fresh group.id and the partition assigned (bench/consumer_worker.py;
native: bench/native/rdkbench.c):

  consume, poll()          poll() per message        native: rd_kafka_consumer_poll
  consume, consume(1000)   consume(min(1000, left))  native: rd_kafka_consume_batch_queue
  prefetched, ...          the same, but the local queue limits are lifted and the client waits
                           until the partition has been fetched before the clock starts: the
                           cost of the client alone, without the fetch pacing

The clock starts when the first messages arrive (they are not counted), so the connection,
metadata and first fetch are excluded; that time is the startup column. Without prefetching,
librdkafka fetches as usual: it stops fetching when queued.min.messages (100,000) are waiting
and resumes after fetch.queue.backoff.ms (1 s), so a client slower than the fetcher waits out
those pauses.

    .venv/bin/python bench/consumer.py [--quick] [-n N] [--size S] [--repeat R]
    (`make bench` runs this together with bench/producer.py: bench/run.py)
"""
import sys

import common

# (workload, Python API, native batch size, prefetch)
WORKLOADS = (("consume, poll()", "poll", 1, False),
             ("consume, consume(1000)", "consume", 1000, False),
             ("prefetched, poll()", "poll", 1, True),
             ("prefetched, consume(1000)", "consume", 1000, True))


def prefetch_seconds(n: int) -> float:
    """Time to let the queue fill: librdkafka fetches well over 1M messages/s from tansu here."""
    return 1.0 + n / 200_000


def run(session: common.Session) -> None:
    a = session.args
    topic = common.fresh_topic("bench-consume")
    session.native("create", ["--topic", topic, "--partitions", 1])
    fill = session.python_worker("ours", "producer_worker.py",
                                 ["--topic", topic, "-n", a.n, "--size", a.size])
    print(f"  filled {topic} (1 partition) with {fill['messages']:,} messages "
          f"at {fill['msgs_per_s']:,.0f} msgs/s", flush=True)

    wait = prefetch_seconds(a.n)
    for rep in range(a.repeat):
        for i, (workload, api, batch, prefetch) in enumerate(WORKLOADS):
            extra = ["--prefetch", wait] if prefetch else []
            for client in session.client_order(rep + i):
                if client == "native":
                    r = session.native("consume", ["--topic", topic, "-n", a.n, "--size", a.size,
                                                   "--batch", batch] + extra, extra_time=wait)
                    if prefetch and r["prefetched"] < r["messages"]:
                        print(f"    (only {r['prefetched']:,} of {r['messages']:,} messages were local "
                              f"after {wait:.1f} s)", flush=True)
                else:
                    r = session.python_worker(client, "consumer_worker.py",
                                              ["--topic", topic, "-n", a.n, "--api", api] + extra,
                                              extra_time=wait)
                session.record(workload, client, rep, r)
    session.notes.append(
        "consume: N messages of one partition from its beginning, fresh group.id per run, timed from "
        "the first arrival (startup s: until then); native poll() row: rd_kafka_consumer_poll, "
        "consume(1000) row: rd_kafka_consume_batch_queue.")
    session.notes.append(
        f"prefetched: queued.min.messages/queued.max.messages.kbytes lifted and {wait:.1f} s to fetch "
        "everything before the clock starts (peak RSS then holds the whole partition).")


if __name__ == "__main__":
    sys.exit(common.main(__doc__.splitlines()[0], [run]))
