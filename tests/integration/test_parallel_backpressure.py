"""Backpressure of the parallel consumer on tansu (the mock cluster keeps only ~5 MiB a partition):
with a million records behind a slow handler, the owner pauses a partition whose waiting records
reach ``max_waiting``, so the records waiting stay bounded while processing goes on, and the RSS of
the process should stay far below what holding the records would cost; a paused partition resumes
once it drained, and its records keep finishing to the end."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List

import pytest

from clients import future_results
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
from confluent_kafka.parallel import ParallelConsumer
from confluent_kafka.parallel._base import CONSUME_BATCH  # records the owner takes from the consumer at once
from parallel_support import Recorder, Running, committed, produce_keyed

CHILD = pathlib.Path(__file__).resolve().parents[1] / "parallel_child.py"
PARTITIONS = 4
RECORDS = 1_000_000
KEYS = 100
CHUNK = 100_000  # records a produce_batch() call enqueues
SLOW_MS = 5  # the handler's sleep: 4 workers finish at most 800 records a second
SECONDS = 4.0  # how long the child processes, from its first finished record
CHILD_TIMEOUT = 90.0


def make_topic(admin: AdminClient, name: str) -> Iterator[str]:
    """A topic of PARTITIONS partitions, deleted at the end (tansu keeps its records in memory)."""
    future_results(admin.create_topics([NewTopic(name, PARTITIONS, 1)]), 60)
    try:
        yield name
    finally:
        future_results(admin.delete_topics([name]), 60)


@pytest.fixture
def topic(admin: AdminClient, unique_topic: str) -> Iterator[str]:
    yield from make_topic(admin, unique_topic)


def produce_small(bootstrap: str, topic: str, count: int) -> None:
    """``count`` records of a 4-byte key and a 20-byte value, enqueued a batch at a time."""
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20, "batch.num.messages": 10000,
                         "queue.buffering.max.messages": 2 * CHUNK})
    errors: List[KafkaError] = []

    def delivered(err: Any, _msg: Any) -> None:
        if err is not None:
            errors.append(err)

    keys = [b"k%03d" % (i % KEYS) for i in range(CHUNK)]
    try:
        for start in range(0, count, CHUNK):
            values = [b"%020d" % i for i in range(start, start + CHUNK)]
            assert producer.produce_batch(topic, values=values, keys=keys, callback=delivered) == CHUNK
            assert producer.flush(60) == 0, "records not delivered in 60 s"
    finally:
        producer.close()
    assert errors == [], errors[:5]


def held_record_cost(bootstrap: str, topic: str) -> int:
    """What holding one of the topic's records costs at least: its key and value, and the Message."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "backpressure-probe"})
    try:
        consumer.assign([TopicPartition(topic, 0, 0)])
        deadline = time.monotonic() + 30
        msg = consumer.poll(1)
        while msg is None or msg.error() is not None:
            assert time.monotonic() < deadline, "no record of the topic in 30 s"
            msg = consumer.poll(1)
        return len(msg.key()) + len(msg.value()) + sys.getsizeof(msg)
    finally:
        consumer.close()


@dataclass
class Backpressured:
    """A child's run with a million records waiting behind its slow handler."""

    baseline: int  # RSS before run()
    max_waiting: int  # the default bound in force
    samples: List[Dict[str, Any]]  # RSS and stats() every 50 ms
    cost: int  # bytes that holding one of the records costs at least

    @property
    def growth(self) -> int:
        return max(s["rss"] for s in self.samples) - self.baseline

    @property
    def limit(self) -> int:
        """A quarter of what holding every record would cost."""
        return RECORDS * self.cost // 4


@pytest.fixture(scope="module")
def backpressured(kafka_bootstrap: str) -> Iterator[Backpressured]:
    admin = AdminClient({"bootstrap.servers": kafka_bootstrap})
    try:
        for topic in make_topic(admin, f"backpressure-{uuid.uuid4().hex[:12]}"):
            produce_small(kafka_bootstrap, topic, RECORDS)
            proc = subprocess.Popen([sys.executable, str(CHILD), "backpressure", kafka_bootstrap, topic,
                                     f"backpressure-{uuid.uuid4().hex[:12]}", str(SECONDS), str(SLOW_MS)],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            try:
                out, err = proc.communicate(timeout=CHILD_TIMEOUT)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.communicate()
            assert proc.returncode == 0, err.decode(errors="replace")[-2000:]
            report = json.loads(out.decode().splitlines()[-1])
            yield Backpressured(report["baseline"], report["max_waiting"], report["samples"],
                                held_record_cost(kafka_bootstrap, topic))
    finally:
        admin.close()


def test_waiting_stays_bounded_and_partitions_pause_while_processing_goes_on(backpressured,
                                                                              record_property) -> None:
    samples, last = backpressured.samples, backpressured.samples[-1]
    bound = backpressured.max_waiting + CONSUME_BATCH
    record_property("summary", (
        f"backpressure: RSS grew {backpressured.growth / 2**20:.1f} MiB (a quarter of holding the "
        f"{RECORDS:,} records: {backpressured.limit / 2**20:.0f} MiB at {backpressured.cost} B each), "
        f"at most {max(s['waiting'] for s in samples)} records waiting, {last['pauses']} pauses, "
        f"{last['processed']} processed"))
    for s in samples:
        over = {name: p["waiting"] for name, p in s["partitions"].items() if p["waiting"] > bound}
        assert not over, f"waiting past max_waiting + one consume batch ({bound}): {over}"
        assert s["waiting"] <= PARTITIONS * bound, s["waiting"]
    assert max(s["waiting"] for s in samples) > backpressured.max_waiting, "records never piled up"
    assert last["pauses"] > 0, "no partition was paused"
    assert any(p["paused"] for s in samples for p in s["partitions"].values())
    middle = samples[len(samples) // 2]
    assert 0 < middle["processed"] < last["processed"], "processing stopped while partitions were paused"


def test_rss_stays_far_below_what_holding_the_records_would_cost(backpressured) -> None:
    b = backpressured
    assert b.growth < b.limit, (f"RSS grew by {b.growth / 2**20:.1f} MiB while records waited: holding the "
                                f"{RECORDS:,} records would cost {RECORDS * b.cost / 2**20:.0f} MiB "
                                f"({b.cost} B each), and a quarter of that, {b.limit / 2**20:.0f} MiB, "
                                "is the limit")


def test_a_paused_partition_resumes_when_it_drained(kafka_bootstrap: str, topic: str, consumer_conf) -> None:
    count, max_waiting = 6000, 200
    ends = produce_keyed(kafka_bootstrap, topic, count, keys=KEYS, partitions=PARTITIONS)
    pc = ParallelConsumer(consumer_conf(), ordering="key", max_concurrency=4, max_waiting=max_waiting)
    pc.subscribe([topic])
    rec = Recorder("key")
    paused: Dict[str, List[bool]] = {}
    running = Running(pc, rec.handler(0.001))
    try:
        deadline = time.monotonic() + 90
        while not rec.wait_for(count, 0.02):
            assert time.monotonic() < deadline, f"{len(rec.runs)} of {count} records finished in 90 s"
            for name, p in pc.stats()["partitions"].items():
                if not paused.get(name) or paused[name][-1] != p["paused"]:
                    paused.setdefault(name, []).append(p["paused"])
        pauses = pc.stats()["pauses"]
    finally:
        running.stop()
    assert running.error is None, running.error
    assert rec.missing(ends) == []
    assert rec.overlaps == [] and rec.out_of_order() == []
    # A partition seen paused and then running again; more pauses than partitions: paused again
    # after a resume.
    assert any(True in seen and False in seen[seen.index(True):] for seen in paused.values()), paused
    assert pauses > PARTITIONS, pauses
    assert [(p.partition, p.offset) for p in committed(kafka_bootstrap, consumer_conf["group.id"], topic)] == \
        sorted(ends.items())
