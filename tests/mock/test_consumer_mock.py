"""Consumer against librdkafka's in-process mock cluster: watermarks, KIP-848 groups,
coordinator moves, broker outages, injected request errors, and callbacks that raise."""

from __future__ import annotations

import gc
import threading
import time
import uuid
import weakref
from typing import Any, Callable, List, Optional, Tuple

import pytest

from confluent_kafka import (OFFSET_BEGINNING, OFFSET_INVALID, Consumer, KafkaError, KafkaException,
                             Message, TopicPartition)
from consumer_helpers import (Member, balanced, batch, drive, expect_quiet, flat, produce_values,
                              read_messages, tps)

pytestmark = pytest.mark.mock

PARTS = {0, 1, 2, 3}
API_OFFSET_COMMIT = 8


def _group() -> str:
    return f"mock-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def topic(mock_cluster: Any, unique_topic: str) -> str:
    mock_cluster.create_topic(unique_topic, 4, 3)
    return unique_topic


def test_watermarks_uncached_and_cached(bootstrap: str, topic: str,
                                        make_consumer: Callable[..., Consumer]) -> None:
    # linger.ms: ten messages in one batch, which is what tansu answers wrongly.
    produce_values(bootstrap, topic, {0: [b"w%d" % i for i in range(10)], 1: [b"one"]},
                   conf={"linger.ms": 100})
    c = make_consumer({"group.id": _group()})
    assert c.get_watermark_offsets(TopicPartition(topic, 0), timeout=10) == (0, 10)
    assert c.get_watermark_offsets(TopicPartition(topic, 1), 10) == (0, 1)
    assert c.get_watermark_offsets(TopicPartition(topic, 2), timeout=10, cached=False) == (0, 0)
    # Nothing fetched yet: the cached values are unknown.
    assert c.get_watermark_offsets(TopicPartition(topic, 0), cached=True) == (OFFSET_INVALID, OFFSET_INVALID)

    c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    read_messages(c, 10, 30)
    assert c.get_watermark_offsets(TopicPartition(topic, 0), cached=True) == (0, 10)
    produce_values(bootstrap, topic, {0: [b"w10", b"w11"]})
    read_messages(c, 2, 30)
    assert c.get_watermark_offsets(TopicPartition(topic, 0), cached=True) == (0, 12)
    assert c.get_watermark_offsets(TopicPartition(topic, 0), timeout=10) == (0, 12)


def test_watermarks_of_unknown_partition_raise(topic: str, make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer({"group.id": _group()})
    with pytest.raises(KafkaException) as ei:
        c.get_watermark_offsets(TopicPartition(topic, 42), timeout=5)
    assert ei.value.args[0].code() in (KafkaError._UNKNOWN_PARTITION, KafkaError.UNKNOWN_TOPIC_OR_PART)


def test_kip848_consumer_protocol_group(bootstrap: str, topic: str,
                                        make_consumer: Callable[..., Consumer]) -> None:
    conf = {"group.id": _group(), "group.protocol": "consumer",
            # Classic-protocol settings are not allowed with group.protocol=consumer.
            "session.timeout.ms": None, "heartbeat.interval.ms": None}
    produced: List[bytes] = []

    def produce(tag: str) -> None:
        values = batch(tag, PARTS, 5)
        produce_values(bootstrap, topic, values)
        produced.extend(flat(values))

    produce("one")
    a = Member("a", make_consumer(conf), cooperative=True)  # KIP-848 assignments are incremental
    a.subscribe([topic])
    drive([a], lambda: len(a.received) == 20 and balanced([a], PARTS)(), 30, "a alone")
    assert a.c.memberid()

    b = Member("b", make_consumer(conf), cooperative=True)
    b.subscribe([topic])
    drive([a, b], balanced([a, b], PARTS), 30, "the KIP-848 group to split")
    assert len(a.received) + len(b.received) == 20, "re-delivered after the rebalance"
    produce("two")
    drive([a, b], lambda: len(a.received) + len(b.received) == 40, 30, "batch two")
    assert len(a.received) > 20 and b.received

    b_owned = b.owned()
    b.close()
    assert b.events[-1] == ("revoke", b_owned)
    drive([a], lambda: a.owned() == PARTS, 30, "a to take b's partitions back")
    produce("three")
    drive([a], lambda: len(a.received) + len(b.received) == 60, 30, "batch three")
    got = a.received + b.received
    assert sorted(m.value() for m in got) == sorted(produced)
    assert len({(m.partition(), m.offset()) for m in got}) == 60


def test_coordinator_moves_keep_committed_offsets(bootstrap: str, mock_cluster: Any, topic: str,
                                                  make_consumer: Callable[..., Consumer]) -> None:
    group = _group()
    produce_values(bootstrap, topic, batch("a", PARTS, 3))
    m = Member("m", make_consumer({"group.id": group}))
    m.subscribe([topic])
    drive([m], lambda: len(m.received) == 12, 30, "the first batch")

    for i, broker in enumerate((2, 3, 1)):
        mock_cluster.set_coordinator("group", group, broker)
        committed = m.c.committed(tps(topic, PARTS), timeout=15)
        assert {tp.partition: tp.offset for tp in committed} == {p: 3 + i for p in PARTS}, \
            f"committed offsets after moving the coordinator to broker {broker}"
        produce_values(bootstrap, topic, batch(f"after-{broker}", PARTS, 1))
        # Still a member (heartbeats find the new coordinator) and still committing.
        drive([m], lambda: len(m.received) == 12 + 4 * (i + 1), 30, f"messages after move to {broker}")
    m.close()

    # A new member resumes where the commits (made through three coordinators) left off.
    produce_values(bootstrap, topic, batch("last", PARTS, 1))
    n = make_consumer({"group.id": group})
    n.subscribe([topic])
    got = read_messages(n, 4, 30)
    assert sorted(x.value() for x in got) == sorted(flat(batch("last", PARTS, 1)))
    assert {x.offset() for x in got} == {6}


def test_brokers_down_reported_through_error_cb_then_recovery(
        bootstrap: str, mock_cluster: Any, topic: str, make_consumer: Callable[..., Consumer]) -> None:
    errors: List[KafkaError] = []
    c = make_consumer({"group.id": _group(), "error_cb": errors.append, "log_level": 0})
    c.assign(tps(topic, [0], OFFSET_BEGINNING))
    produce_values(bootstrap, topic, {0: [b"before"]})
    assert [m.value() for m in read_messages(c, 1, 30)] == [b"before"]

    for b in (1, 2, 3):
        mock_cluster.broker_down(b)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(
                e.code() == KafkaError._ALL_BROKERS_DOWN for e in errors):
            m = c.poll(0.2)
            assert m is None or m.error() is not None, "data while every broker is down"
        codes = {e.code() for e in errors}
        assert KafkaError._ALL_BROKERS_DOWN in codes, f"error_cb got only {errors}"
        assert all(isinstance(e, KafkaError) and e.str() for e in errors)
    finally:
        for b in (1, 2, 3):
            mock_cluster.broker_up(b)
    produce_values(bootstrap, topic, {0: [b"after"]})
    assert [m.value() for m in read_messages(c, 1, 30)] == [b"after"]


def test_sync_commit_failure_raises(topic: str, mock_cluster: Any,
                                    make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer({"group.id": _group()})
    # Make sure the coordinator is known, so the injected error hits the commit itself.
    c.committed([TopicPartition(topic, 0)], timeout=10)
    mock_cluster.push_request_errors(API_OFFSET_COMMIT, [KafkaError.GROUP_AUTHORIZATION_FAILED])
    with pytest.raises(KafkaException) as ei:
        c.commit(offsets=[TopicPartition(topic, 0, 3)], asynchronous=False)
    assert ei.value.args[0].code() == KafkaError.GROUP_AUTHORIZATION_FAILED
    # The next commit goes through.
    res = c.commit(offsets=[TopicPartition(topic, 0, 3)], asynchronous=False)
    assert [(tp.partition, tp.offset, tp.error) for tp in res] == [(0, 3, None)]


def test_async_commit_failure_reaches_on_commit(topic: str, mock_cluster: Any,
                                                make_consumer: Callable[..., Consumer]) -> None:
    results: List[Tuple[Optional[KafkaError], List[TopicPartition]]] = []
    c = make_consumer({"group.id": _group(), "on_commit": lambda e, p: results.append((e, p))})
    c.committed([TopicPartition(topic, 0)], timeout=10)
    mock_cluster.push_request_errors(API_OFFSET_COMMIT, [KafkaError.GROUP_AUTHORIZATION_FAILED])
    c.commit(offsets=[TopicPartition(topic, 1, 7)])
    deadline = time.monotonic() + 15
    while not results and time.monotonic() < deadline:
        c.poll(0.1)
    assert results, "on_commit was not called"
    err, parts = results[0]
    assert isinstance(err, KafkaError) and err.code() == KafkaError.GROUP_AUTHORIZATION_FAILED
    assert [(tp.topic, tp.partition, tp.offset) for tp in parts] == [(topic, 1, 7)]


class Boom(Exception):
    pass


@pytest.mark.parametrize("strategy", ["range", "cooperative-sticky"])
def test_on_assign_exception_surfaces_from_poll(bootstrap: str, topic: str,
                                                make_consumer: Callable[..., Consumer],
                                                strategy: str) -> None:
    produce_values(bootstrap, topic, {0: [b"x"]})
    boom = Boom("on_assign failed")

    def on_assign(consumer: Consumer, parts: List[TopicPartition]) -> None:
        raise boom

    c = make_consumer({"group.id": _group(), "partition.assignment.strategy": strategy})
    c.subscribe([topic], on_assign=on_assign)
    deadline = time.monotonic() + 30
    with pytest.raises(Boom) as ei:
        while time.monotonic() < deadline:
            c.poll(0.2)
    assert ei.value is boom  # unchanged, not wrapped
    # The consumer assigned itself anyway and goes on consuming.
    assert {tp.partition for tp in c.assignment()} == PARTS
    assert [m.value() for m in read_messages(c, 1, 30)] == [b"x"]


def test_on_revoke_exception_surfaces_from_poll(bootstrap: str, topic: str,
                                                make_consumer: Callable[..., Consumer]) -> None:
    def on_revoke(consumer: Consumer, parts: List[TopicPartition]) -> None:
        raise Boom("on_revoke failed")

    c = make_consumer({"group.id": _group()})
    c.subscribe([topic], on_revoke=on_revoke)
    deadline = time.monotonic() + 30
    while not c.assignment():
        assert time.monotonic() < deadline, "never assigned"
        c.poll(0.2)
    c.unsubscribe()
    with pytest.raises(Boom):
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            c.poll(0.2)
    assert c.assignment() == []  # unassigned despite the exception


def test_on_revoke_exception_surfaces_from_close(topic: str, make_consumer: Callable[..., Consumer]) -> None:
    revoked: List[int] = []

    def on_revoke(consumer: Consumer, parts: List[TopicPartition]) -> None:
        revoked.append(len(parts))
        raise Boom("on_revoke failed in close")

    c = make_consumer({"group.id": _group()})
    c.subscribe([topic], on_revoke=on_revoke)
    deadline = time.monotonic() + 30
    while len(c.assignment()) < 4:
        assert time.monotonic() < deadline, "never assigned"
        c.poll(0.2)
    with pytest.raises(Boom):
        c.close()  # close() serves on_revoke, so it raises what on_revoke raised
    assert revoked == [4]
    with pytest.raises(RuntimeError):  # ... and is closed all the same
        c.poll(0)
    c.close()


def test_on_commit_exception_surfaces_from_poll(topic: str, make_consumer: Callable[..., Consumer]) -> None:
    def on_commit(err: Optional[KafkaError], parts: List[TopicPartition]) -> None:
        raise Boom("on_commit failed")

    c = make_consumer({"group.id": _group(), "on_commit": on_commit})
    c.commit(offsets=[TopicPartition(topic, 0, 1)])
    with pytest.raises(Boom):
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            c.poll(0.2)


@pytest.mark.parametrize("strategy", ["range", "cooperative-sticky"])
def test_callback_that_assigns_by_itself(bootstrap: str, topic: str, make_consumer: Callable[..., Consumer],
                                         strategy: str) -> None:
    """A callback doing its own (incremental) assign must not be assigned twice; with a
    rewinding on_assign, committed offsets are ignored."""
    group = _group()
    produce_values(bootstrap, topic, batch("r", PARTS, 2))
    first = make_consumer({"group.id": group})
    first.subscribe([topic])
    read_messages(first, 8, 30)
    first.commit(asynchronous=False)
    first.close()

    calls: List[str] = []

    def on_assign(consumer: Consumer, parts: List[TopicPartition]) -> None:
        calls.append("assign")
        for tp in parts:
            tp.offset = OFFSET_BEGINNING
        if strategy == "cooperative-sticky":
            consumer.incremental_assign(parts)
        else:
            consumer.assign(parts)

    def on_revoke(consumer: Consumer, parts: List[TopicPartition]) -> None:
        calls.append("revoke")
        if strategy == "cooperative-sticky":
            consumer.incremental_unassign(parts)
        else:
            consumer.unassign()

    c = make_consumer({"group.id": group, "partition.assignment.strategy": strategy})
    c.subscribe([topic], on_assign=on_assign, on_revoke=on_revoke)
    got = read_messages(c, 8, 30)  # everything again, despite the commits
    assert sorted(m.value() for m in got) == sorted(flat(batch("r", PARTS, 2)))
    assert {tp.partition for tp in c.assignment()} == PARTS
    c.unsubscribe()
    deadline = time.monotonic() + 15
    while c.assignment() and time.monotonic() < deadline:
        c.poll(0.1)
    assert c.assignment() == []
    assert calls[0] == "assign" and "revoke" in calls


def test_paused_partition_stays_paused_across_polls_in_a_group(
        bootstrap: str, topic: str, make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer({"group.id": _group()})
    c.subscribe([topic])
    deadline = time.monotonic() + 30
    while len(c.assignment()) < 4:
        assert time.monotonic() < deadline
        c.poll(0.1)
    c.pause([TopicPartition(topic, 0), TopicPartition(topic, 1)])
    assert sorted(tp.partition for tp in c.paused()) == [0, 1]
    produce_values(bootstrap, topic, {0: [b"p0"], 1: [b"p1"], 2: [b"p2"]})
    assert [m.value() for m in read_messages(c, 1, 30)] == [b"p2"]
    expect_quiet(c, 1.0, "from paused partitions")
    c.resume(c.paused())
    assert sorted(m.value() for m in read_messages(c, 2, 30)) == [b"p0", b"p1"]


def test_on_lost_when_the_session_times_out(mock_cluster: Any, topic: str,
                                            make_consumer: Callable[..., Consumer]) -> None:
    group = _group()
    mock_cluster.set_coordinator("group", group, 1)
    events: List[Tuple[str, int]] = []
    errors: List[KafkaError] = []
    c = make_consumer({"group.id": group, "session.timeout.ms": 3000, "heartbeat.interval.ms": 500,
                       "error_cb": errors.append, "log_level": 0})
    c.subscribe([topic],
                on_assign=lambda consumer, parts: events.append(("assign", len(parts))),
                on_revoke=lambda consumer, parts: events.append(("revoke", len(parts))),
                on_lost=lambda consumer, parts: events.append(("lost", len(parts))))
    deadline = time.monotonic() + 30
    while len(c.assignment()) < 4:
        assert time.monotonic() < deadline, "never assigned"
        c.poll(0.1)
    mock_cluster.broker_down(1)  # the coordinator: heartbeats fail until the session times out
    try:
        deadline = time.monotonic() + 20
        while ("lost", 4) not in events:
            assert time.monotonic() < deadline, f"on_lost not called: {events}"
            c.poll(0.2)
        assert ("revoke", 4) not in events, "a lost assignment goes to on_lost, not on_revoke"
    finally:
        mock_cluster.broker_up(1)
    deadline = time.monotonic() + 30
    while events[-1] != ("assign", 4):
        assert time.monotonic() < deadline, f"not re-assigned after the coordinator came back: {events}"
        c.poll(0.2)
    assert len(c.assignment()) == 4


def test_fetch_error_arrives_as_message_error(bootstrap: str, mock_cluster: Any, topic: str,
                                              make_consumer: Callable[..., Consumer]) -> None:
    produce_values(bootstrap, topic, {0: [b"x"]})
    c = make_consumer({"group.id": _group(), "log_level": 0})
    c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    mock_cluster.push_request_errors(1, [KafkaError.TOPIC_AUTHORIZATION_FAILED] * 3)  # Fetch
    deadline = time.monotonic() + 15
    m: Optional[Message] = None
    while time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None:
            break
    assert m is not None and m.error() is not None, f"expected an error event, got {m!r}"
    assert m.error().code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    assert (m.topic(), m.partition()) == (topic, 0)
    assert m.offset() is None or m.offset() >= 0


# Run in a child process: if messages leak inside librdkafka, close() can hang for good, and
# that must fail this test rather than freeze the whole run.
_CALLBACK_RAISES_SCRIPT = r"""
import json, sys, time, uuid
from confluent_kafka import Consumer, Producer, TopicPartition, OFFSET_BEGINNING
from confluent_kafka.testing import MockCluster

mode = sys.argv[1]
mc = MockCluster(1)
topic = "cbr-" + uuid.uuid4().hex
mc.create_topic(topic, 1, 1)
values = [b"m%05d" % i for i in range(3000)]
p = Producer({"bootstrap.servers": mc.bootstrap_servers, "linger.ms": 5})
for v in values:
    p.produce(topic, v, partition=0)
assert p.flush(30) == 0
p.close()

class Boom(Exception):
    pass

raised = [0]
raising = [True]
def stats_cb(stats):
    if raising[0]:  # not during close(): this test is about the fetch path
        raised[0] += 1
        raise Boom("stats")

sys.unraisablehook = lambda u: None  # counted by the parent through "got", not stderr noise
c = Consumer({"bootstrap.servers": mc.bootstrap_servers, "group.id": "g", "log_level": 0,
              "stats_cb": stats_cb, "statistics.interval.ms": 100, "enable.auto.commit": False,
              "message.max.bytes": 10000, "fetch.max.bytes": 20000,
              "max.partition.fetch.bytes": 20000})
c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
got, raises = [], 0
deadline = time.monotonic() + 15
while len(got) < len(values) and time.monotonic() < deadline:
    try:
        if mode == "consume":
            msgs = c.consume(700, 0.3)
        else:
            m = c.poll(0.3)
            msgs = [m] if m is not None else []
    except Boom:
        raises += 1
        continue
    got.extend(m.value().decode() for m in msgs if m.error() is None)
    if mode == "consume":
        time.sleep(0.05)  # let statistics events pile up between the fetched messages
print(json.dumps({"raises": raises, "got": got, "expected": [v.decode() for v in values]}), flush=True)
raising[0] = False
c.close()
mc.close()
print("closed", flush=True)
"""


@pytest.mark.parametrize("mode", ["poll", "consume"])
def test_messages_fetched_when_a_callback_raises_are_not_lost(mode: str) -> None:
    """A poll()/consume() that fetched messages and then served a raising callback raises; the
    messages come out of the following calls, in order, none lost or repeated, and close()
    still returns."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    src = os.path.join(os.path.dirname(__file__), "..", "..", "src")
    env["PYTHONPATH"] = os.pathsep.join([os.path.abspath(src), env.get("PYTHONPATH", "")])
    try:
        proc = subprocess.run([sys.executable, "-c", _CALLBACK_RAISES_SCRIPT, mode], env=env,
                              capture_output=True, text=True, timeout=40)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        lines = out.splitlines()
        detail = ""
        if lines:
            r = json.loads(lines[0])
            detail = f"; before that it received {len(r['got'])} of {len(r['expected'])} messages"
        pytest.fail(f"{mode}: the child hung (close() never returned){detail}", pytrace=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    r = json.loads(lines[0])
    assert r["raises"] > 0, "the stats callback never raised"
    missing = sorted(set(r["expected"]) - set(r["got"]))
    assert not missing, f"{mode}: lost {len(missing)} messages after a callback raised: {missing[:10]}"
    assert r["got"] == r["expected"], f"{mode}: messages repeated or out of order"
    assert lines[-1] == "closed"


def test_sync_commit_inside_on_revoke(bootstrap: str, topic: str,
                                      make_consumer: Callable[..., Consumer]) -> None:
    """The usual "commit what I processed when partitions go away" pattern: a synchronous
    commit() made from on_revoke, served inside poll() and inside close().

    (Revocation by a joining member is not used: the mock coordinator refuses commits with
    REBALANCE_IN_PROGRESS while a rebalance is pending, unlike Kafka.)"""
    group = _group()
    produce_values(bootstrap, topic, batch("r", PARTS, 3))
    commits: List[List[TopicPartition]] = []

    def on_revoke(consumer: Consumer, parts: List[TopicPartition]) -> None:
        assert {tp.partition for tp in parts} == PARTS
        commits.append(consumer.commit(asynchronous=False))

    def committed_now() -> dict:
        checker = make_consumer({"group.id": group})
        return {tp.partition: tp.offset for tp in checker.committed(tps(topic, PARTS), timeout=10)}

    a = make_consumer({"group.id": group})
    a.subscribe([topic], on_revoke=on_revoke)
    read_messages(a, 12, 30)  # offsets auto-stored, never committed by hand
    a.unsubscribe()
    deadline = time.monotonic() + 15
    while not commits:
        assert time.monotonic() < deadline, "on_revoke did not run after unsubscribe()"
        a.poll(0.1)
    assert sorted((tp.partition, tp.offset) for tp in commits[0]) == [(p, 3) for p in sorted(PARTS)]
    assert committed_now() == {p: 3 for p in PARTS}

    # Again, now revoked by close().
    a.subscribe([topic], on_revoke=on_revoke)
    produce_values(bootstrap, topic, batch("s", PARTS, 1))
    got = read_messages(a, 4, 30)
    assert {m.offset() for m in got} == {3}, "resumed from the offsets committed in on_revoke"
    a.close()
    assert len(commits) == 2
    assert sorted((tp.partition, tp.offset) for tp in commits[1]) == [(p, 4) for p in sorted(PARTS)]
    assert committed_now() == {p: 4 for p in PARTS}


def test_close_with_a_cooperative_revoke_waiting(bootstrap: str, topic: str,
                                                make_consumer: Callable[..., Consumer]) -> None:
    """close() while the revoke of a cooperative rebalance waits in the queue: librdkafka serves
    it, then close()'s own revoke of the rest, and by then the member may have left and the group
    terminated. A synchronous commit there gets an error, not a wait for an answer that never
    comes, and close() returns. The second callback waits for the group to terminate, which makes
    the late case certain (it hung every time before)."""
    group = _group()
    coop = {"group.id": group, "partition.assignment.strategy": "cooperative-sticky", "heartbeat.interval.ms": 100}
    events: List[Any] = []

    def on_revoke(consumer: Consumer, parts: List[TopicPartition]) -> None:
        events.append(("revoke", {tp.partition for tp in parts}))
        if len(events) == 3:  # close()'s own revoke: wait until the group is gone
            deadline = time.monotonic() + 15
            while not consumer._group_closed() and time.monotonic() < deadline:
                time.sleep(0.01)
        try:
            consumer.commit(offsets=[TopicPartition(topic, tp.partition, 1) for tp in parts], asynchronous=False)
            events.append("committed")
        except KafkaException as exc:
            events.append(exc.args[0].code())

    a = make_consumer(coop)
    a.subscribe([topic], on_revoke=on_revoke)
    deadline = time.monotonic() + 30
    while len(a.assignment()) < len(PARTS):
        assert time.monotonic() < deadline, "the first member never got every partition"
        a.poll(0.05)
    # A second member joins; the first one polls no more, so its share of the revoke waits.
    b = make_consumer(coop)
    b_assigned = threading.Event()
    b.subscribe([topic], on_assign=lambda _c, _p: b_assigned.set())
    stop = threading.Event()
    poller = threading.Thread(target=lambda: [b.poll(0.05) for _ in iter(stop.is_set, True)], daemon=True)
    poller.start()
    try:
        assert b_assigned.wait(30), "the second member never joined"
        time.sleep(0.3)  # the first member's sync completes and queues its revoke
        closing = threading.Thread(target=a.close, daemon=True)
        closing.start()
        closing.join(30)
        assert not closing.is_alive(), f"close() hung: {events}"
    finally:
        stop.set()
        poller.join(10)
    first, second = events[0][1], events[2][1]
    # The first revoke comes before the group can terminate, so its commit is answered: done, or
    # refused when the coordinator already dropped the member (seen under load).
    assert events[1] in ("committed", KafkaError.UNKNOWN_MEMBER_ID, KafkaError.ILLEGAL_GENERATION,
                         KafkaError.REBALANCE_IN_PROGRESS), events
    assert not first & second and first | second == PARTS, events
    assert events[3] == KafkaError._DESTROY, events


def test_sync_commit_cut_short_by_close_on_another_thread(mock_cluster: Any, topic: str,
                                                        make_consumer: Callable[..., Consumer]) -> None:
    """close() does not wait for a synchronous commit in process on another thread; that commit
    raises RuntimeError (it returned no exception at all: SystemError)."""
    c = make_consumer({"group.id": _group()})
    c.subscribe([topic])
    deadline = time.monotonic() + 30
    while not c.assignment():
        assert time.monotonic() < deadline, "never assigned"
        c.poll(0.1)
    for broker in (1, 2, 3):
        mock_cluster.set_rtt(broker, 3000)  # the commit's answer takes 3 s
    outcome: List[BaseException] = []

    def commit() -> None:
        try:
            c.commit(offsets=[TopicPartition(topic, 0, 1)], asynchronous=False)
        except BaseException as exc:  # noqa: B902 - kept for the assertion
            outcome.append(exc)

    committing = threading.Thread(target=commit)
    committing.start()
    try:
        time.sleep(0.5)
        c.close()
    finally:
        committing.join(30)
        for broker in (1, 2, 3):
            mock_cluster.set_rtt(broker, 0)
    assert len(outcome) == 1 and type(outcome[0]) is RuntimeError, outcome
    assert "closed while the commit waited" in str(outcome[0])


def test_close_inside_a_callback_is_refused(topic: str, make_consumer: Callable[..., Consumer]) -> None:
    outcome: List[BaseException] = []

    def on_assign(consumer: Consumer, parts: List[TopicPartition]) -> None:
        try:
            consumer.close()
        except RuntimeError as e:
            outcome.append(e)
            raise

    c = make_consumer({"group.id": _group()})
    c.subscribe([topic], on_assign=on_assign)
    deadline = time.monotonic() + 30
    with pytest.raises(RuntimeError, match="callback"):
        while time.monotonic() < deadline:
            c.poll(0.2)
    assert outcome
    assert len(c.assignment()) == 4  # still open, and assigned by default
    c.close()
    with pytest.raises(RuntimeError):
        c.assignment()


def test_consumed_message_fields(bootstrap: str, topic: str, make_consumer: Callable[..., Consumer]) -> None:
    from confluent_kafka import Producer, TIMESTAMP_CREATE_TIME

    p = Producer({"bootstrap.servers": bootstrap})
    try:
        p.produce(topic, b"value", key=b"key", partition=2, timestamp=1_600_000_000_123,
                  headers=[("h1", b"a"), ("h2", None), ("h1", b"b")])
        p.produce(topic, None, key=None, partition=2)
        assert p.flush(30) == 0
    finally:
        p.close()
    c = make_consumer({"group.id": _group()})
    c.assign([TopicPartition(topic, 2, OFFSET_BEGINNING)])
    first, second = read_messages(c, 2, 30)
    assert (first.topic(), first.partition(), first.offset()) == (topic, 2, 0)
    assert (first.key(), first.value(), len(first)) == (b"key", b"value", 5)
    assert first.headers() == [("h1", b"a"), ("h2", None), ("h1", b"b")]
    assert first.timestamp() == (TIMESTAMP_CREATE_TIME, 1_600_000_000_123)
    assert first.error() is None and first.latency() is None
    assert first.leader_epoch() is None or first.leader_epoch() >= 0
    assert (second.key(), second.value(), second.headers(), second.offset()) == (None, None, None, 1)
    assert len(second) == 0


def test_consumed_messages_leave_the_collector_until_they_may_hold_containers(
        bootstrap: str, topic: str, make_producer: Callable[..., Any],
        make_consumer: Callable[..., Consumer]) -> None:
    """A consumed Message holds only str and bytes, so it stays out of the cyclic garbage
    collector (whose collections would otherwise grow with every batch); anything that lets it
    reach a container puts it back, so a cycle through it is still collected."""
    produce_values(bootstrap, topic, {0: [b"a", b"b", b"c", b"d", b"e"]})
    p = make_producer({})
    p.produce(topic, b"f", partition=0, headers=[("h", b"v")])
    assert p.flush(30) == 0
    c = make_consumer({"group.id": _group()})
    c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    msgs = read_messages(c, 6, 30)
    assert not any(gc.is_tracked(m) for m in msgs)
    setters = [lambda m: m.set_value([m]), lambda m: m.set_key({"self": m}),
               lambda m: m.set_headers([("h", b"v")]), lambda m: m.set_error(KafkaError(KafkaError._FAIL)),
               lambda m: m.set_topic("other"), lambda m: m.headers()]  # the last one has headers
    for m, setter in zip(msgs, setters):
        setter(m)
        assert gc.is_tracked(m), setter
    # A cycle through a consumed message is collected: its value refers back to it.
    class Box:
        pass

    holder = Box()
    holder.message = msgs[0]  # type: ignore[attr-defined]
    msgs[0].set_value(holder)
    probe = weakref.ref(holder)
    del holder, msgs, m
    gc.collect()
    assert probe() is None
