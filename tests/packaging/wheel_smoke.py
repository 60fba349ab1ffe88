"""Check an installed confluent_kafka wheel from the inside; prints one JSON object.

Run by tests/packaging with the Python of a fresh virtualenv that has only the wheel installed,
from a directory outside the source tree, so ``import confluent_kafka`` can only find the
wheel. It reports what a user would see (versions), which shared libraries the process mapped
(to prove the wheel's bundled librdkafka is the one in use), whether the loader can find any
other librdkafka, and the outcome of a produce/consume round trip:

    python wheel_smoke.py mock            # librdkafka's in-process mock cluster
    python wheel_smoke.py HOST:PORT       # a real broker
"""
from __future__ import annotations

import ctypes
import json
import sys
import time
import uuid
from typing import Any, Dict, List, Optional

import confluent_kafka
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.testing import MockCluster

MESSAGES = 200
DEADLINE_S = 60.0


def mapped_libraries() -> List[str]:
    """Paths of the shared objects mapped into this process (from /proc/self/maps)."""
    paths = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            parts = line.split(None, 5)
            if len(parts) == 6 and ".so" in parts[5]:
                paths.add(parts[5].strip())
    return sorted(paths)


def system_librdkafka() -> str:
    """Whether librdkafka can be loaded by its plain soname ("loadable", or the loader's error)."""
    try:
        ctypes.CDLL("librdkafka.so.1")
    except OSError as exc:
        return f"not loadable: {exc}"
    return "loadable"


def round_trip(bootstrap: str) -> Dict[str, Any]:
    """Produce MESSAGES messages to a new topic, read them back, compare."""
    topic = f"wheel-smoke-{uuid.uuid4().hex[:12]}"
    sent = [b"message-%05d" % i for i in range(MESSAGES)]
    errors: List[str] = []

    def on_delivery(err: Any, msg: Any) -> None:
        if err is not None:
            errors.append(str(err))

    producer = Producer({"bootstrap.servers": bootstrap, "on_delivery": on_delivery})
    for value in sent:
        producer.produce(topic, value, partition=0)
    undelivered = producer.flush(DEADLINE_S)
    producer.close()

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": topic,
                         "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, 0, 0)])
    received: List[Optional[bytes]] = []
    deadline = time.monotonic() + DEADLINE_S
    while len(received) < MESSAGES and time.monotonic() < deadline:
        for msg in consumer.consume(MESSAGES, 0.5):
            if msg.error() is None:
                received.append(msg.value())
    consumer.close()
    return {"undelivered": undelivered, "delivery_errors": errors[:5],
            "received": len(received), "intact": received == sent}


def main() -> None:
    target = sys.argv[1]
    report: Dict[str, Any] = {
        "module": confluent_kafka.__file__,
        "version": confluent_kafka.__version__,
        "libversion": list(confluent_kafka.libversion()),
    }
    if target == "mock":
        with MockCluster(1) as cluster:
            report["round_trip"] = round_trip(cluster.bootstrap_servers)
    else:
        report["round_trip"] = round_trip(target)
    report["mapped"] = mapped_libraries()
    # Last: a successful load here would map another librdkafka into this process.
    report["system_librdkafka"] = system_librdkafka()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
