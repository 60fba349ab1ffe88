"""Members of one parallel consumer group joining and leaving mid-run, on the mock cluster:
no record lost, never two records of one key in process at once across members, each key's
records finished in offset order, and the group's commits at the ends."""

from __future__ import annotations

import uuid
from typing import List

import pytest

from confluent_kafka.parallel import ParallelConsumer
from parallel_support import Recorder, Running, committed, produce_keyed

COUNT = 4000


@pytest.mark.parametrize("strategy", ["range", "cooperative-sticky"])
def test_members_joining_and_leaving_lose_nothing_and_keep_key_order(mock_cluster, strategy) -> None:
    bs = mock_cluster.bootstrap_servers
    topic = f"parallel-{uuid.uuid4().hex[:8]}"
    mock_cluster.create_topic(topic, partitions=4)
    ends = produce_keyed(bs, topic, COUNT, keys=100)
    group = f"g-{strategy}"
    # One recorder for every member: an overlap or a reordering across members shows too.
    rec = Recorder("key")
    handler = rec.handler(0.003)
    members: List[Running] = []

    def join() -> Running:
        pc = ParallelConsumer({"bootstrap.servers": bs, "group.id": group, "auto.offset.reset": "earliest",
                               "session.timeout.ms": 6000, "heartbeat.interval.ms": 500,
                               "partition.assignment.strategy": strategy},
                              max_concurrency=4, commit_interval=0.1)
        pc.subscribe([topic])
        members.append(Running(pc, handler))
        return members[-1]

    try:
        first = join()
        assert rec.wait_for(600, 60)
        join()
        assert rec.wait_for(1400, 60)
        join()
        assert rec.wait_for(2200, 60)
        first.stop()  # leaves mid-run: its partitions move to the others
        assert first.error is None
        assert rec.wait_for(3000, 60)
        members[1].stop()
        assert rec.wait_for(COUNT, 90), f"{len(rec.runs)} of {COUNT} processed"
    finally:
        for member in members:
            member.stop()
    assert all(m.error is None for m in members)
    assert rec.missing(ends) == []
    assert rec.overlaps == [], f"two records of one key at once: {rec.overlaps[:5]}"
    assert rec.out_of_order() == []
    # A record runs again only when a hand-over's commit was refused: the mock cluster answers
    # REBALANCE_IN_PROGRESS to commits made while the group prepares a rebalance (Kafka accepts
    # those of the current generation), so what finished since the last periodic commit (0.1 s
    # here) and during the heartbeat it takes a member to notice the rebalance runs again on the
    # partition's next owner. Without the commits (or the hand-over's skip list) nearly every
    # record of a moved partition would run again.
    assert rec.twice() < COUNT // 2, rec.twice()
    assert [(p.partition, p.offset) for p in committed(bs, group, topic)] == sorted(ends.items())
    assert all(m.pc.stats()["processed"] > 0 for m in members)
