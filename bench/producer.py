"""Producer throughput: this project's Producer, upstream confluent-kafka's, and librdkafka alone.

Each run is a process of its own on a fresh topic: N values of SIZE bytes, produce() with a
delivery callback on every message and then without one, poll(0) after each produce(), and
flush() at the end (bench/producer_worker.py). The native rows do the same in C with
rd_kafka_produce() and rd_kafka_poll(0) (bench/native/rdkbench.c), with a delivery report
callback counting deliveries or with none. A warm-up message is delivered before the clock
starts, so the connection and the topic exist; its time is the startup column.

    .venv/bin/python bench/producer.py [--quick] [-n N] [--size S] [--repeat R]
    (`make bench` runs this together with bench/consumer.py: bench/run.py)
"""
import sys

import common

MODES = (("produce, delivery callback", True), ("produce, no callback", False))


def run(session: common.Session) -> None:
    a = session.args
    for rep in range(a.repeat):
        for i, (workload, callback) in enumerate(MODES):
            for client in session.client_order(rep + i):
                topic = common.fresh_topic()
                if client == "native":
                    r = session.native("produce", ["--topic", topic, "-n", a.n, "--size", a.size]
                                       + ([] if callback else ["--no-dr"]))
                else:
                    r = session.python_worker(client, "producer_worker.py",
                                              ["--topic", topic, "-n", a.n, "--size", a.size]
                                              + (["--callback"] if callback else []))
                session.record(workload, client, rep, r)
    session.notes.append("produce: produce() + poll(0) per message, then flush(); fresh topic per run "
                         "(native: rd_kafka_produce + rd_kafka_poll(0), with or without a "
                         "delivery report callback).")


if __name__ == "__main__":
    sys.exit(common.main(__doc__.splitlines()[0], [run]))
