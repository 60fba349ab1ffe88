"""Compare what a producer had acknowledged with what a topic holds: the bookkeeping of every
fault-injection test (mock and integration tiers).

Values are unique per test (``b"<partition>:<seq>"``), so a value read twice is a duplicate, a
value acknowledged but never read is lost, and a partition read back out of produce order is
reordered.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Message, Producer, TopicPartition

from clients import Reports


@dataclass
class Audit:
    """The outcome of a fault test, per category, over all partitions."""

    acknowledged: int = 0
    failed: int = 0
    delivered: int = 0
    lost: List[bytes] = field(default_factory=list)
    duplicated: List[bytes] = field(default_factory=list)
    reordered: List[int] = field(default_factory=list)  # partitions read out of produce order
    unexpected: List[bytes] = field(default_factory=list)  # read, but never produced

    def assert_exactly_once_in_order(self) -> None:
        """Every acknowledged message is in the log once, in produce order per partition."""
        assert self.acknowledged > 0, "nothing was acknowledged: the test proved nothing"
        problems = {k: v for k, v in (("lost", self.lost), ("duplicated", self.duplicated),
                                      ("reordered partitions", self.reordered),
                                      ("never produced", self.unexpected)) if v}
        assert not problems, f"{self}: {problems}"

    def assert_none_lost(self) -> None:
        """Every acknowledged message is in the log (duplicates allowed: at-least-once)."""
        assert self.acknowledged > 0, "nothing was acknowledged: the test proved nothing"
        assert not self.lost, f"{len(self.lost)} acknowledged messages lost: {self.lost[:5]}"
        assert not self.unexpected, self.unexpected[:5]

    def summary(self) -> str:
        return (f"acknowledged={self.acknowledged} failed={self.failed} delivered={self.delivered} "
                f"lost={len(self.lost)} duplicated={len(self.duplicated)} "
                f"reordered_partitions={len(self.reordered)}")


def held_messages(stats: Optional[str], topic: str) -> str:
    """What librdkafka's latest statistics say of a producer that still holds messages: the
    idempotence state, each of ``topic``'s partitions (leader, messages produced, sent, queued,
    in flight, acknowledged) and each broker's connection and request counts; the evidence for
    a producer that stopped sending."""
    if stats is None:
        return "no statistics arrived"
    s = json.loads(stats)
    keys = ("leader", "broker", "msgs", "txmsgs", "msgq_cnt", "xmit_msgq_cnt", "msgs_inflight",
            "next_ack_seq", "next_err_seq", "acked_msgid")
    partitions = {part: {k: v.get(k) for k in keys}
                  for part, v in s.get("topics", {}).get(topic, {}).get("partitions", {}).items()}
    brokers = {b.get("nodeid"): {k: b.get(k) for k in ("state", "outbuf_cnt", "waitresp_cnt")}
               for b in s.get("brokers", {}).values()}
    return f"statistics at age {s.get('age')} us: eos {s.get('eos')}; partitions {partitions}; brokers {brokers}"


def produce_waiting(p: Producer, topic: str, value: bytes, partition: int, wait: float,
                    timeout: float = 60.0) -> None:
    """produce(), serving reports for ``wait`` seconds at a time while the queue is full; an
    AssertionError once ``timeout`` seconds pass without room."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            p.produce(topic, value, partition=partition)
            return
        except BufferError:
            if time.monotonic() > deadline:
                raise AssertionError(f"no queue space for {timeout:.0f} s") from None
            p.poll(wait)


def value_of(partition: int, seq: int) -> bytes:
    """The unique value of message ``seq`` sent to ``partition``."""
    return f"{partition}:{seq}".encode()


def read_partition_to_end(consumer: Consumer, topic: str, partition: int,
                          timeout: float = 60.0) -> List[Message]:
    """Every message of one partition, from the beginning to the end seen by the consumer.

    The consumer needs ``enable.partition.eof``: reading stops at the first end-of-partition
    notice after the high watermark was reached.
    """
    consumer.assign([TopicPartition(topic, partition, OFFSET_BEGINNING)])
    out: List[Message] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{topic}[{partition}]: no end of partition after {len(out)} "
                                     f"messages within {timeout:.0f} s")
            for m in consumer.consume(10_000, min(left, 1.0)):
                err = m.error()
                if err is None:
                    out.append(m)
                elif err.code() == KafkaError._PARTITION_EOF:
                    return out
                elif not err.retriable():
                    raise AssertionError(f"consume error on {topic}[{partition}]: {err!r}")
    finally:
        consumer.unassign()


def audit(reports: Reports, produced: Dict[int, Sequence[bytes]],
          logs: Dict[int, Sequence[Optional[bytes]]]) -> Audit:
    """Compare delivery reports and produce order (``produced``: partition -> values in the
    order ``produce()`` was called) with the partitions' logs as read back."""
    result = Audit()
    acked = set()
    for err, msg in reports.calls:
        if err is None:
            result.acknowledged += 1
            acked.add(msg.value())
        else:
            result.failed += 1
    for partition, sent in produced.items():
        log = [v for v in logs.get(partition, []) if v is not None]
        result.delivered += len(log)
        seen = set()
        for v in log:
            if v in seen:
                result.duplicated.append(v)
            seen.add(v)
        sent_set = set(sent)
        result.unexpected.extend(v for v in log if v not in sent_set)
        result.lost.extend(v for v in sent if v in acked and v not in seen)
        # Order: the first occurrence of each value must follow produce order.
        rank = {v: i for i, v in enumerate(sent)}
        firsts = [rank[v] for v in dict.fromkeys(log) if v in rank]
        if firsts != sorted(firsts):
            result.reordered.append(partition)
    return result
