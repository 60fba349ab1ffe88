"""An acks=all producer while tansu, on ``s3://`` storage (moto_server on loopback), is killed
with SIGKILL and restarted mid-stream: no acknowledged message is lost. A broker that stays
away longer than ``message.timeout.ms`` fails the messages with ``_MSG_TIMED_OUT`` delivery
reports, and none of them reaches the log.

``CFL_SOAK=1`` runs the long form: more messages and a kill every slice."""

from __future__ import annotations

import os
import time
import uuid
from typing import Any, Callable, Dict, Iterator, List

import pytest

from confluent_kafka import Consumer, KafkaError, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from clients import Reports, future_results
from delivery_audit import audit, produce_waiting, read_partition_to_end, value_of
from s3_server import S3Server
from tansu_broker import TansuBroker

pytestmark = pytest.mark.integration

SOAK = os.environ.get("CFL_SOAK", "") not in ("", "0")
PARTITIONS = 2
N = 60_000 if SOAK else 6_000
SLICES = 12
KILL_AT = set(range(1, SLICES - 1)) if SOAK else {4}


@pytest.fixture(scope="module")
def s3_broker(tmp_path_factory: Any) -> Iterator[TansuBroker]:
    """tansu on s3:// storage served by a moto_server; both stopped at the end."""
    with S3Server(tmp_path_factory.mktemp("moto")) as s3:
        s3.create_bucket("tansu")
        broker = TansuBroker(tmp_path_factory.mktemp("tansu-s3"), storage="s3://tansu/",
                             env=s3.env())
        broker.start()
        try:
            yield broker
        finally:
            broker.stop()


def make_topic(broker: TansuBroker) -> str:
    topic = f"s3-{uuid.uuid4().hex[:12]}"
    admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    try:
        future_results(admin.create_topics([NewTopic(topic, PARTITIONS, 1)]), 60)
    finally:
        admin.close()
    return topic


def read_all(broker: TansuBroker, topic: str) -> Dict[int, List[bytes]]:
    c = Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "s3-audit",
                  "enable.partition.eof": True, "log_level": 0})
    try:
        return {p: [m.value() for m in read_partition_to_end(c, topic, p, timeout=120)]
                for p in range(PARTITIONS)}
    finally:
        c.close()


def produce_slices(p: Producer, topic: str, on_slice: Callable[[int], None]) -> Dict[int, List[bytes]]:
    produced: Dict[int, List[bytes]] = {part: [] for part in range(PARTITIONS)}
    per_slice = N // SLICES
    for s in range(SLICES):
        on_slice(s)
        for i in range(per_slice):
            part = i % PARTITIONS
            value = value_of(part, len(produced[part]))
            produce_waiting(p, topic, value, part, 0.1)
            produced[part].append(value)
        p.poll(0.1)
    return produced


def test_acks_all_loses_nothing_acknowledged_across_kills(s3_broker: TansuBroker) -> None:
    topic = make_topic(s3_broker)
    dr = Reports()
    p = Producer({"bootstrap.servers": s3_broker.bootstrap_servers, "acks": "all",
                  "linger.ms": 5, "message.timeout.ms": 120_000, "log_level": 0,
                  "on_delivery": dr})
    kills = 0

    def on_slice(s: int) -> None:
        nonlocal kills
        if s in KILL_AT:
            s3_broker.kill()  # mid-stream: requests in flight die with it
            kills += 1
            time.sleep(1.0)  # producing goes on into the local queue meanwhile
            s3_broker.restart()

    try:
        produced = produce_slices(p, topic, on_slice)
        assert p.flush(180) == 0
    finally:
        p.close()
    result = audit(dr, produced, read_all(s3_broker, topic))
    print(f"\n{kills} kill(s): {result.summary()}")
    result.assert_none_lost()
    assert result.failed == 0, [e for e in dr.errors if e is not None][:5]
    assert result.acknowledged == N


def test_broker_away_past_message_timeout_fails_with_msg_timed_out(s3_broker: TansuBroker) -> None:
    topic = make_topic(s3_broker)
    dr = Reports()
    p = Producer({"bootstrap.servers": s3_broker.bootstrap_servers, "acks": "all",
                  "message.timeout.ms": 3000, "log_level": 0, "on_delivery": dr})
    try:
        p.produce(topic, b"before", partition=0)
        assert p.flush(30) == 0 and dr.errors == [None]
        s3_broker.kill()
        for i in range(100):
            p.produce(topic, f"lost-{i}".encode(), partition=i % PARTITIONS)
        assert p.flush(60) == 0
    finally:
        s3_broker.restart()
        p.close()
    codes = {e.code() for e in dr.errors[1:] if e is not None}
    assert len(dr) == 101 and None not in dr.errors[1:]
    assert codes == {KafkaError._MSG_TIMED_OUT}, codes
    assert all(not e.retriable() or e.code() == KafkaError._MSG_TIMED_OUT for e in dr.errors[1:])
    logs = read_all(s3_broker, topic)
    assert logs[0] == [b"before"]  # acknowledged before the kill: survived it
    assert logs[1] == []  # the timed-out messages never reached the log
