"""A consumer group through coordinator moves, broker restarts, failed commits and a consumer
restart: no committed offset is lost (a new member resumes exactly where the last successful
commit said), and no message is skipped (every offset of every partition is processed)."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Callable, Dict, List, Optional, Set

import pytest

from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition
from confluent_kafka.testing import ApiKey, MockCluster

from consumer_helpers import produce_values

pytestmark = pytest.mark.mock

PARTITIONS = 3
PER_PARTITION = 400
TOTAL = PARTITIONS * PER_PARTITION
COMMIT_EVERY = 40
Fault = Callable[[MockCluster], None]


class GroupRun:
    """Consumes a topic in one group across consumer restarts and keeps the books."""

    def __init__(self, mc: MockCluster, topic: str) -> None:
        self.mc = mc
        self.topic = topic
        self.group = f"fault-{uuid.uuid4().hex[:10]}"
        self.processed: Dict[int, Set[int]] = {p: set() for p in range(PARTITIONS)}
        self.deliveries = 0  # messages handed to the application, duplicates included
        self.committed_ok: Dict[int, int] = {}  # the last offsets a commit call returned for
        self.commit_failures: List[int] = []
        self.resume_checks: List[str] = []  # "partition p: resumed at x, committed y" mismatches

    def consumer(self) -> Consumer:
        c = Consumer({"bootstrap.servers": self.mc.bootstrap_servers, "group.id": self.group,
                      "enable.auto.commit": False, "auto.offset.reset": "earliest",
                      "session.timeout.ms": 6000, "heartbeat.interval.ms": 500,
                      "log_level": 0})
        c.subscribe([self.topic])
        return c

    def commit(self, c: Consumer, next_offsets: Dict[int, int]) -> None:
        if not next_offsets:
            return
        tps = [TopicPartition(self.topic, p, o) for p, o in next_offsets.items()]
        try:
            result = c.commit(offsets=tps, asynchronous=False)
        except KafkaException as exc:
            self.commit_failures.append(exc.args[0].code())
            return
        for tp in result or []:
            if tp.error is None:
                self.committed_ok[tp.partition] = tp.offset
            else:
                self.commit_failures.append(tp.error.code())

    def consume(self, until: int, faults: Dict[int, Fault], timeout: float = 90.0) -> None:
        """One consumer instance: process messages until ``until`` distinct offsets are done,
        running ``faults[n]`` once ``n`` messages were processed; then commit and close."""
        c = self.consumer()
        first_seen: Set[int] = set()
        pending: Dict[int, int] = {}
        since_commit = 0
        deadline = time.monotonic() + timeout
        try:
            while self.done() < until:
                assert time.monotonic() < deadline, (
                    f"processed {self.done()} of {until} within {timeout} s; "
                    f"commit failures {self.commit_failures}")
                for n in [n for n in faults if n <= self.done()]:
                    faults.pop(n)(self.mc)
                for m in c.consume(100, 0.5):
                    err = m.error()
                    if err is not None:
                        assert err.retriable() or err.code() == KafkaError._PARTITION_EOF, err
                        continue
                    p, o = m.partition(), m.offset()
                    if p not in first_seen:
                        first_seen.add(p)
                        want = self.committed_ok.get(p, 0)
                        if o != want:
                            self.resume_checks.append(f"partition {p}: resumed at {o}, "
                                                      f"last successful commit {want}")
                    self.processed[p].add(o)
                    self.deliveries += 1
                    pending[p] = o + 1
                    since_commit += 1
                if since_commit >= COMMIT_EVERY:
                    self.commit(c, pending)
                    since_commit = 0
            for n in sorted(faults):  # faults past the end of this instance still run
                faults.pop(n)(self.mc)
            self.commit_until_ok(c, pending)
        finally:
            c.close()

    def commit_until_ok(self, c: Consumer, pending: Dict[int, int], timeout: float = 30.0) -> None:
        """Commit ``pending`` until the coordinator takes it, committing only while this member
        holds those partitions. A commit sent while the member rejoins the group is answered
        UNKNOWN_MEMBER_ID, and librdkafka then restarts the join: committing in a loop meanwhile
        would keep the member from ever getting its partitions back."""
        deadline = time.monotonic() + timeout
        while any(self.committed_ok.get(p) != o for p, o in pending.items()):
            assert time.monotonic() < deadline, f"final commit failed: {self.commit_failures}"
            if set(pending) <= {tp.partition for tp in c.assignment()}:
                self.commit(c, pending)
            c.poll(0.2)  # serves the rebalance that gives the partitions back

    def done(self) -> int:
        return sum(len(s) for s in self.processed.values())

    def broker_committed(self) -> Dict[int, Optional[int]]:
        c = Consumer({"bootstrap.servers": self.mc.bootstrap_servers, "group.id": self.group,
                      "log_level": 0})
        try:
            tps = c.committed([TopicPartition(self.topic, p) for p in range(PARTITIONS)], 30)
            return {tp.partition: tp.offset for tp in tps}
        finally:
            c.close()


def coordinator_to(broker: int) -> Callable[[GroupRun], Fault]:
    return lambda run: lambda mc: mc.set_coordinator("group", run.group, broker)


def scenario(mock_cluster: MockCluster, topic: str, phases: List[Dict[int, Callable]]) -> GroupRun:
    mock_cluster.create_topic(topic, PARTITIONS, 3)
    produce_values(mock_cluster.bootstrap_servers, topic,
                   {p: [f"{p}:{i}".encode() for i in range(PER_PARTITION)] for p in range(PARTITIONS)})
    run = GroupRun(mock_cluster, topic)
    for k, phase in enumerate(phases):
        until = TOTAL * (k + 1) // len(phases)
        run.consume(until, {n: make(run) for n, make in phase.items()})
    return run


def check(run: GroupRun) -> None:
    missing = {p: sorted(set(range(PER_PARTITION)) - s)[:5] for p, s in run.processed.items()
               if s != set(range(PER_PARTITION))}
    print(f"\nprocessed={run.done()} deliveries={run.deliveries} "
          f"redelivered={run.deliveries - run.done()} commit_failures={len(run.commit_failures)}")
    assert not missing, f"skipped offsets: {missing}"
    assert not run.resume_checks, run.resume_checks
    assert run.committed_ok == {p: PER_PARTITION for p in range(PARTITIONS)}
    assert run.broker_committed() == {p: PER_PARTITION for p in range(PARTITIONS)}


def test_group_through_coordinator_moves(mock_cluster: MockCluster, unique_topic: str) -> None:
    run = scenario(mock_cluster, unique_topic, [
        {100: coordinator_to(2), 250: coordinator_to(3)},
        {50 + TOTAL // 3: coordinator_to(1)},
        {100 + 2 * TOTAL // 3: coordinator_to(2)},
    ])
    check(run)


def test_group_through_broker_restarts(mock_cluster: MockCluster, unique_topic: str) -> None:
    timers: List[threading.Timer] = []

    def restart(b: int, down_for: float = 2.0) -> Callable[[GroupRun], Fault]:
        """Broker ``b`` goes down now and comes back ``down_for`` seconds later, whatever the
        consumer is doing (a synchronous commit waits for a coordinator that is down)."""
        def fault(mc: MockCluster) -> None:
            mc.broker_down(b)
            t = threading.Timer(down_for, mc.broker_up, (b,))
            timers.append(t)
            t.start()
        return lambda run: fault

    try:
        run = scenario(mock_cluster, unique_topic, [
            # the coordinator goes away mid-stream, then a partition leader
            {50: coordinator_to(2), 100: restart(2), 300: restart(1)},
            {TOTAL // 3 + 100: restart(3), TOTAL // 3 + 200: restart(1)},
            {2 * TOTAL // 3 + 100: restart(2)},
        ])
    finally:
        for t in timers:
            t.join(30)
    check(run)


def test_group_through_failed_commits(mock_cluster: MockCluster, unique_topic: str) -> None:
    def commit_errors(run: GroupRun) -> Fault:
        return lambda mc: mc.push_request_errors(ApiKey.OFFSET_COMMIT, [
            KafkaError.NOT_COORDINATOR, KafkaError.COORDINATOR_NOT_AVAILABLE,
            KafkaError.REQUEST_TIMED_OUT, KafkaError.COORDINATOR_LOAD_IN_PROGRESS])

    run = scenario(mock_cluster, unique_topic, [
        {100: commit_errors, 300: commit_errors},
        {TOTAL // 3 + 100: commit_errors},
        {2 * TOTAL // 3 + 10: commit_errors},
    ])
    check(run)
