"""An idempotent producer through broker restarts, leader moves, injected retriable errors and
lost responses: every acknowledged message is in the log exactly once, in order per partition.

Each test produces ``N`` unique values to a 3-partition topic replicated on all three mock
brokers, injects its faults while producing, flushes, then reads every partition back to its
end and audits delivered / lost / duplicated / reordered (tests/delivery_audit.py).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, List, Optional

import pytest

from confluent_kafka import KafkaError, Producer
from confluent_kafka.testing import ApiKey, MockCluster

from clients import Reports
from delivery_audit import Audit, audit, held_messages, produce_waiting, read_partition_to_end, value_of

pytestmark = pytest.mark.mock

PARTITIONS = 3
N = 3000  # messages per test, spread over the partitions
Fault = Callable[[MockCluster, str, int], None]  # (cluster, topic, step) -> None


def produce_through(mock_cluster: MockCluster, topic: str, p: Producer, dr: Reports,
                    fault: Fault, stats: List[Optional[str]], steps: int = 10) -> Dict[int, List[bytes]]:
    """Produce N messages in ``steps`` slices, calling ``fault(cluster, topic, step)`` before
    each slice; then flush. Returns the values sent to each partition, in produce order.
    ``stats[0]`` holds librdkafka's latest statistics, reported if messages are left."""
    produced: Dict[int, List[bytes]] = {part: [] for part in range(PARTITIONS)}
    per_step = N // steps
    for step in range(steps):
        fault(mock_cluster, topic, step)
        for i in range(step * per_step, (step + 1) * per_step):
            part = i % PARTITIONS
            value = value_of(part, len(produced[part]))
            produce_waiting(p, topic, value, part, 0.05)
            produced[part].append(value)
        if step == 0 and fault is lost_responses:
            # The producer is established (metadata, producer id) before the first loss, so
            # every loss hits Produce requests rather than the producer's start-up.
            assert p.flush(30) == 0, "the first slice was not delivered before any fault"
        p.poll(0.05)  # let some requests go out before the next fault
    fault(mock_cluster, topic, steps)  # the last step heals whatever is still broken
    remaining = p.flush(120)
    assert remaining == 0, (f"{remaining} messages still queued after the faults healed: "
                            f"{held_messages(stats[0], topic)}")
    return produced


def read_all(make_consumer: Callable[..., Any], topic: str) -> Dict[int, List[bytes]]:
    c = make_consumer({"enable.partition.eof": True})
    return {part: [m.value() for m in read_partition_to_end(c, topic, part)]
            for part in range(PARTITIONS)}


def run(mock_cluster: MockCluster, topic: str, make_producer: Callable[..., Producer],
        make_consumer: Callable[..., Any], fault: Fault, **conf: Any) -> Audit:
    """Produce through ``fault`` and audit the topic; with a ``transactional.id`` in ``conf``
    all N messages go in one transaction, committed after the flush."""
    mock_cluster.create_topic(topic, PARTITIONS, 3)
    dr = Reports()
    stats: List[Optional[str]] = [None]  # the latest statistics: the evidence if a flush leaves messages
    p = make_producer({"enable.idempotence": True, "linger.ms": 5, "retry.backoff.ms": 50,
                       "log_level": 0, "statistics.interval.ms": 1000, **conf}, on_delivery=dr,
                      stats_cb=lambda s: stats.__setitem__(0, s))
    transactional = "transactional.id" in conf
    if transactional:
        p.init_transactions(30)
        p.begin_transaction()
    produced = produce_through(mock_cluster, topic, p, dr, fault, stats)
    if transactional:
        p.commit_transaction(60)
    p.poll(0)
    assert len(dr) == N
    result = audit(dr, produced, read_all(make_consumer, topic))
    print(f"\n{topic}: {result.summary()}")
    return result


def broker_restarts(mc: MockCluster, topic: str, step: int) -> None:
    """Every broker goes down once for two slices, one after the other."""
    broker = step // 3 + 1
    if step % 3 == 0 and broker <= 3:
        mc.broker_down(broker)
    elif step % 3 == 2 and broker <= 3:
        mc.broker_up(broker)
    if step == 10:
        for b in (1, 2, 3):
            mc.broker_up(b)


def leader_moves(mc: MockCluster, topic: str, step: int) -> None:
    """Every partition's leader moves to the next broker at every slice."""
    for part in range(PARTITIONS):
        mc.set_partition_leader(topic, part, (part + step) % 3 + 1)


RETRIABLE = [KafkaError.NOT_LEADER_FOR_PARTITION, KafkaError.REQUEST_TIMED_OUT,
             KafkaError.NOT_ENOUGH_REPLICAS, KafkaError.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
             KafkaError.LEADER_NOT_AVAILABLE, KafkaError.KAFKA_STORAGE_ERROR]


def retriable_errors(mc: MockCluster, topic: str, step: int) -> None:
    """Bursts of retriable Produce errors, every other slice."""
    if step % 2 == 0 and step < 10:
        mc.push_request_errors(ApiKey.PRODUCE, RETRIABLE)


def lost_responses(mc: MockCluster, topic: str, step: int) -> None:
    """The broker appends a request, then the connection dies before the response arrives:
    the classic source of duplicates that idempotence must remove.

    Two steps per loss, so that requests are surely in flight when the connections drop: the
    first delays every response by 10 s and lets a slice be produced (the mock appends what
    it receives at once, and holds the response back); the next one waits for those requests
    to arrive, then takes every broker down and up again, which discards the held responses.
    """
    if step in (2, 5, 8):
        for b in (1, 2, 3):
            mc.set_rtt(b, 10_000)
    elif step in (3, 6, 9):
        time.sleep(0.5)  # the slice's requests reach the brokers and are appended
        for b in (1, 2, 3):
            mc.broker_down(b)
        for b in (1, 2, 3):
            mc.set_rtt(b, 0)
            mc.broker_up(b)


def everything(mc: MockCluster, topic: str, step: int) -> None:
    """All of the above at once."""
    leader_moves(mc, topic, step)
    retriable_errors(mc, topic, step)
    broker_restarts(mc, topic, step)


FAULTS = {"broker_restarts": broker_restarts, "leader_moves": leader_moves,
          "retriable_errors": retriable_errors, "lost_responses": lost_responses,
          "everything": everything}


MOCK_DEDUP_GAP = pytest.mark.xfail(
    strict=True,
    reason="mock cluster gap: librdkafka's mock checks producer sequence numbers only for "
           "transactional producers (rd_kafka_mock_validate_records returns early without a "
           "transactional id), so the retried Produce requests of a plain idempotent producer "
           "are appended a second time; a real broker drops them. The transactional variant "
           "below runs the same fault where the mock does check; strict, so this starts "
           "failing the day the mock checks every idempotent producer")


@pytest.mark.parametrize("fault", [pytest.param(f, id=name, marks=[MOCK_DEDUP_GAP] if name == "lost_responses"
                                                else []) for name, f in FAULTS.items()])
def test_idempotent_producer_exactly_once_in_order(fault: Fault, mock_cluster: MockCluster,
                                                   unique_topic: str, make_producer: Callable,
                                                   make_consumer: Callable) -> None:
    result = run(mock_cluster, unique_topic, make_producer, make_consumer, fault)
    assert result.failed == 0, result.summary()
    assert result.acknowledged == N
    result.assert_exactly_once_in_order()
    assert result.delivered == N


def test_transactional_producer_exactly_once_through_lost_responses(
        mock_cluster: MockCluster, unique_topic: str, make_producer: Callable,
        make_consumer: Callable) -> None:
    """The lost-responses fault where the mock does check sequence numbers: the producer's
    retries carry the same producer id, epoch and sequence, so the broker acknowledges them
    without appending, and the committed transaction holds every message once."""
    result = run(mock_cluster, unique_topic, make_producer, make_consumer, lost_responses,
                 **{"transactional.id": f"txn-{unique_topic}"})
    assert result.failed == 0, result.summary()
    result.assert_exactly_once_in_order()
    assert result.delivered == N


def test_idempotent_producer_acks_only_what_it_wrote(mock_cluster: MockCluster, unique_topic: str,
                                                     make_producer: Callable,
                                                     make_consumer: Callable) -> None:
    """Non-retriable errors fail some messages; what was acknowledged is still exactly once."""

    def fault(mc: MockCluster, topic: str, step: int) -> None:
        if step == 3:
            mc.push_request_errors(ApiKey.PRODUCE, [KafkaError.MSG_SIZE_TOO_LARGE])
        broker_restarts(mc, topic, step)

    result = run(mock_cluster, unique_topic, make_producer, make_consumer, fault)
    assert result.failed > 0, "the injected permanent error failed no message"
    assert result.acknowledged + result.failed == N
    result.assert_exactly_once_in_order()
    assert result.delivered == result.acknowledged


def test_lost_responses_do_duplicate_without_idempotence(mock_cluster: MockCluster,
                                                         unique_topic: str, make_producer: Callable,
                                                         make_consumer: Callable) -> None:
    """The control: the same fault does write duplicates when idempotence is off, so the
    exactly-once result above is the producer's doing, not a fault that never bit."""
    result = run(mock_cluster, unique_topic, make_producer, make_consumer, lost_responses,
                 **{"enable.idempotence": False, "acks": "all"})
    result.assert_none_lost()
    assert result.duplicated, f"no duplicate without idempotence: {result.summary()}"
