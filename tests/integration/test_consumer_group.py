"""Consumer groups on tansu: partition split, rebalance on join and leave (eager and cooperative),
exactly-once hand-over through committed offsets, restart, regex subscriptions.

Group joins on tansu take about half of session.timeout.ms, so every consumer here uses
session.timeout.ms=6000 / heartbeat.interval.ms=1000 (the integration ``make_consumer`` default).
"""

from __future__ import annotations

import time
import uuid
from typing import Callable, List, Set

import pytest

from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition
from consumer_helpers import (Member, batch, drive, expect_quiet, flat, produce_values, read_messages,
                              settled, tps)

pytestmark = pytest.mark.integration

PARTS = {0, 1, 2, 3}  # tansu auto-creates topics with 4 partitions
JOIN = 40.0  # seconds allowed for any one rebalance to settle (typically 3-12 s on tansu)


def _new_events(m: Member, since: int) -> List:
    return m.events[since:]


def _check_handover(m: Member, since: int, cooperative: bool, what: str) -> None:
    """What the callbacks of a member that already owned partitions said during a rebalance."""
    evs = _new_events(m, since)
    revoked: Set[int] = set().union(*[s for k, s in evs if k == "revoke"]) if evs else set()
    owned = m.owned()
    if cooperative:
        # Incremental: only the partitions that moved are revoked; the rest never stop.
        assert not (revoked & owned), f"{m.name} {what}: cooperative revoke of kept {revoked & owned}: {evs}"
    else:
        # Eager: everything is revoked first, then the new assignment is handed out whole.
        assert evs and evs[0][0] == "revoke", f"{m.name} {what}: eager rebalance without revoke: {evs}"
        assert evs[-1] == ("assign", owned), f"{m.name} {what}: last assign {evs[-1]} != owned {owned}"


@pytest.mark.parametrize("strategy", ["range", "roundrobin", "cooperative-sticky"])
def test_group_split_rebalance_and_exactly_once(kafka_bootstrap: str, unique_topic: str,
                                                make_consumer: Callable[..., Consumer],
                                                strategy: str) -> None:
    cooperative = strategy == "cooperative-sticky"
    topic = unique_topic
    produced: List[bytes] = []

    def produce(tag: str) -> None:
        values = batch(tag, PARTS, 5)
        produce_values(kafka_bootstrap, topic, values)
        produced.extend(flat(values))

    def total(*ms: Member) -> int:
        return sum(len(m.received) for m in ms)

    produce("one")
    conf = {"group.id": f"grp-{uuid.uuid4().hex[:12]}", "partition.assignment.strategy": strategy}

    # One member: owns everything.
    a = Member("a", make_consumer(conf), cooperative)
    a.subscribe([topic])
    assert a.c.subscription() == [topic]
    drive([a], lambda: total(a) == 20 and settled([a], PARTS)(), JOIN, "a alone")
    assert a.owned() == PARTS
    member_id = a.c.memberid()
    assert isinstance(member_id, str) and member_id

    # Two members: a gives half away; nothing is read twice (b starts at a's commits).
    since_a = len(a.events)
    b = Member("b", make_consumer(conf), cooperative)
    b.subscribe([topic])
    drive([a, b], settled([a, b], PARTS), JOIN, "a and b to split the partitions")
    assert (len(a.owned()), len(b.owned())) == (2, 2)
    _check_handover(a, since_a, cooperative, "when b joined")
    assert total(a, b) == 20, f"re-delivered after the rebalance: {[m.value() for m in b.received]}"
    produce("two")
    drive([a, b], lambda: total(a, b) == 40, 30, "batch two")
    assert len(a.received) > 20 and b.received, "both members must get part of batch two"

    # Three members.
    since_a, since_b = len(a.events), len(b.events)
    c = Member("c", make_consumer(conf), cooperative)
    c.subscribe([topic])
    drive([a, b, c], settled([a, b, c], PARTS), JOIN, "three members to split")
    assert sorted(len(m.owned()) for m in (a, b, c)) == [1, 1, 2]
    _check_handover(a, since_a, cooperative, "when c joined")
    _check_handover(b, since_b, cooperative, "when c joined")
    assert total(a, b, c) == 40, "re-delivered after the second rebalance"
    produce("three")
    drive([a, b, c], lambda: total(a, b, c) == 60, 30, "batch three")
    assert c.received, "the third member must get part of batch three"

    # c leaves: its partitions go back to a and b, starting at c's commits.
    c_owned = c.owned()
    since_a, since_b, since_c = len(a.events), len(b.events), len(c.events)
    c.close()
    c_evs = _new_events(c, since_c)
    assert c_evs and c_evs[-1] == ("revoke", c_owned), f"close() must revoke {c_owned}: {c_evs}"
    drive([a, b], settled([a, b], PARTS), JOIN, "a and b to take over c's partitions")
    _check_handover(a, since_a, cooperative, "when c left")
    _check_handover(b, since_b, cooperative, "when c left")
    assert total(a, b, c) == 60, "re-delivered after c left"
    produce("four")
    drive([a, b], lambda: total(a, b, c) == 80, 30, "batch four")

    # Exactly once, in order per partition.
    got = [m for mem in (a, b, c) for m in mem.received]
    assert sorted(m.value() for m in got) == sorted(produced)
    keys = [(m.partition(), m.offset()) for m in got]
    assert len(set(keys)) == len(keys) == 80
    for mem in (a, b, c):
        for p in PARTS:
            offs = [m.offset() for m in mem.received if m.partition() == p]
            assert offs == sorted(offs), f"{mem.name} saw partition {p} out of order: {offs}"
    committed = a.c.committed(tps(topic, PARTS), timeout=10)
    assert {tp.partition: tp.offset for tp in committed} == {p: 20 for p in PARTS}


def test_restarted_consumer_resumes_from_committed_offsets(
        kafka_bootstrap: str, unique_topic: str, make_consumer: Callable[..., Consumer]) -> None:
    first = batch("first", PARTS, 5)
    produce_values(kafka_bootstrap, unique_topic, first)
    conf = {"group.id": f"restart-{uuid.uuid4().hex[:12]}"}

    c1 = make_consumer(conf)
    c1.subscribe([unique_topic])
    got = read_messages(c1, 20, JOIN, "first run")
    assert sorted(m.value() for m in got) == sorted(flat(first))
    committed = c1.commit(asynchronous=False)  # the current positions
    assert sorted((tp.partition, tp.offset) for tp in committed) == [(p, 5) for p in sorted(PARTS)]
    c1.close()

    second = batch("second", PARTS, 3)
    produce_values(kafka_bootstrap, unique_topic, second)

    c2 = make_consumer(conf)
    c2.subscribe([unique_topic])
    got = read_messages(c2, 12, JOIN, "after restart")
    assert sorted(m.value() for m in got) == sorted(flat(second))
    assert {m.offset() for m in got} == {5, 6, 7}
    expect_quiet(c2, 1.0, "after the second batch")
    c2.close()

    # Same group, but on_assign overrides the committed offsets by assigning itself.
    seen: List[List[TopicPartition]] = []

    def rewind(consumer: Consumer, parts: List[TopicPartition]) -> None:
        seen.append(parts)
        for tp in parts:
            tp.offset = OFFSET_BEGINNING
        consumer.assign(parts)

    c3 = make_consumer(conf)
    c3.subscribe([unique_topic], on_assign=rewind)
    got = read_messages(c3, 32, JOIN, "rewound")
    assert sorted(m.value() for m in got) == sorted(flat(first) + flat(second))
    assert seen and {tp.partition for tp in seen[0]} == PARTS
    assert {tp.partition for tp in c3.assignment()} == PARTS


def test_regex_subscription(kafka_bootstrap: str, make_consumer: Callable[..., Consumer]) -> None:
    stem = f"rx-{uuid.uuid4().hex[:10]}"
    matching = [f"{stem}-alpha", f"{stem}-beta"]
    other = f"other-{stem}"
    for t in matching + [other]:
        produce_values(kafka_bootstrap, t, {0: [t.encode()]})

    c = make_consumer({"group.id": f"rx-{uuid.uuid4().hex[:12]}"})
    pattern = f"^{stem}-.*"
    assigned: List[List[TopicPartition]] = []
    c.subscribe([pattern], on_assign=lambda consumer, parts: assigned.append(parts))
    assert c.subscription() == [pattern]
    got = read_messages(c, 2, JOIN, "from the regex subscription")
    assert sorted(m.value() for m in got) == sorted(t.encode() for t in matching)
    topics = {tp.topic for tp in c.assignment()}
    assert topics == set(matching)
    assert len(c.assignment()) == 8  # 4 partitions each
    assert assigned and {tp.topic for tp in assigned[-1]} == set(matching)
    expect_quiet(c, 1.0, "from the non-matching topic")


def test_unsubscribe_revokes_and_stops(kafka_bootstrap: str, unique_topic: str,
                                       make_consumer: Callable[..., Consumer]) -> None:
    produce_values(kafka_bootstrap, unique_topic, batch("u", PARTS, 2))
    c = make_consumer({"group.id": f"unsub-{uuid.uuid4().hex[:12]}"})
    m = Member("solo", c, commit_each=False)
    m.subscribe([unique_topic])
    drive([m], lambda: len(m.received) == 8, JOIN, "the first batch")
    since = len(m.events)
    c.unsubscribe()
    deadline = time.monotonic() + 10
    while c.assignment() and time.monotonic() < deadline:
        c.poll(0.1)
    assert c.assignment() == []
    assert c.subscription() == []
    assert ("revoke", PARTS) in m.events[since:], m.events
    produce_values(kafka_bootstrap, unique_topic, batch("after", PARTS, 1))
    expect_quiet(c, 1.0, "after unsubscribe()")
