"""Producer and consumer throughput of this project against upstream confluent-kafka and librdkafka.

Runs bench/producer.py, bench/consumer.py and bench/aio.py on one tansu broker on loopback and prints one
table: a row per workload and client (ours, upstream, native), each the median of --repeat runs,
with msgs/s, MB/s, CPU seconds, peak RSS, startup time, and msgs/s relative to upstream and to
native (bench/native/rdkbench.c, librdkafka alone: the limit of the library on this machine).

Upstream has the same import name as this project, so it lives in its own virtualenv
(`make bench` creates .bench-venv) and is never imported here; `make bench-native` builds
rdkbench into build/bench.

    .venv/bin/python bench/run.py [--quick] [-n N] [--size S] [--repeat R] [--json FILE]
"""
import sys

import aio
import common
import consumer
import producer

if __name__ == "__main__":
    sys.exit(common.main(__doc__.splitlines()[0], [producer.run, consumer.run, aio.run]))
