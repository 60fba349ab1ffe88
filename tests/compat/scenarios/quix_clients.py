"""The client calls quixstreams 3.28 makes, in the order it makes them, against the tansu broker.

quixstreams' consumer assigns partitions itself (checkpointing and state recovery), reads
positions and cached watermarks, pauses, seeks and resumes partitions (backpressure and
recovery), stores offsets and commits them synchronously, adds and removes partitions
incrementally (cooperative rebalancing), and its exactly-once producer sends the consumer's
offsets inside a transaction. Each scenario does one of those on a topic of its own (normalised
as ``<T>``) and observes the results field by field: offsets, metadata, leader epochs, error
codes and texts. tests/programs runs quixstreams itself on both sides; these pin the calls
underneath it.
"""
from __future__ import annotations

import os
import time
import uuid
from typing import Any, Callable

from observe import data, raised

from confluent_kafka import (
    OFFSET_BEGINNING,
    Consumer,
    KafkaError,
    KafkaException,
    Message,
    Producer,
    TopicPartition,
)
from confluent_kafka.admin import AdminClient, NewTopic

NEEDS_BROKER = True

TIMEOUT = 10.0
BASE_MS = 1_700_000_000_000
_TOPICS: list[str] = []


def _bootstrap() -> str:
    return os.environ["COMPAT_BOOTSTRAP"]


def _topic(records: int = 6) -> str:
    """A new 2-partition topic holding RECORDS records, alternately in partitions 0 and 1."""
    name = f"compat-quix-{uuid.uuid4().hex[:12]}"
    _TOPICS.append(name)
    admin = AdminClient({"bootstrap.servers": _bootstrap(), "log_level": 0})
    for future in admin.create_topics([NewTopic(name, 2, 1)]).values():
        future.result(TIMEOUT)
    producer = Producer({"bootstrap.servers": _bootstrap(), "log_level": 0, "linger.ms": 0})
    for i in range(records):
        producer.produce(name, value=b"v%d" % i, key=b"k", partition=i % 2, timestamp=BASE_MS + i * 1000,
                         headers=[("h", b"x")])
    producer.flush(TIMEOUT)
    return name


def _consumer(group: str | None = None, **conf: Any) -> Consumer:
    """Configured as quixstreams configures its consumer: no auto commit, no auto offset store."""
    return Consumer({"bootstrap.servers": _bootstrap(), "log_level": 0,
                     "group.id": group or f"compat-quix-{uuid.uuid4().hex[:12]}",
                     "enable.auto.commit": False, "enable.auto.offset.store": False,
                     "auto.offset.reset": "earliest", **conf})


def _norm(value: Any) -> Any:
    """DATA with this run's topic names as ``<T>``."""
    if isinstance(value, str):
        for name in _TOPICS:
            value = value.replace(name, "<T>")
        return value
    if isinstance(value, list):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    return value


def _call(fn: Callable[[], Any]) -> Any:
    """FN's result, or its exception with the KafkaError's code, text and flags."""
    try:
        return {"ok": _norm(fn())}
    except KafkaException as exc:
        err = exc.args[0] if exc.args else None
        if not isinstance(err, KafkaError):
            return raised(exc)
        return {"raises": type(exc).__name__, "code": err.name(), "text": _norm(err.str()), "fatal": err.fatal(),
                "retriable": err.retriable(), "txn_requires_abort": err.txn_requires_abort()}
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        return _norm(raised(exc))


def _code(fn: Callable[[], Any]) -> Any:
    """Like :func:`_call`, without the error's text."""
    seen = _call(fn)
    if isinstance(seen, dict):
        seen.pop("text", None)
    return seen


def _tps(tps: list[TopicPartition]) -> Any:
    return _norm([[tp.topic, tp.partition, tp.offset, tp.error and tp.error.name(), tp.metadata, tp.leader_epoch]
                  for tp in tps])


def _msg(msg: Message | None) -> Any:
    if msg is None:
        return None
    return _norm(data([msg.topic(), msg.partition(), msg.offset(), msg.key(), msg.value(),
                       msg.error() and msg.error().name(), list(msg.timestamp()), msg.headers(),
                       msg.leader_epoch()]))


def _poll_all(consumer: Consumer, count: int) -> list[Any]:
    found: list[Any] = []
    deadline = time.monotonic() + TIMEOUT
    while len(found) < count and time.monotonic() < deadline:
        msg = consumer.poll(0.5)
        if msg is not None:
            found.append(_msg(msg))
    return sorted(found, key=lambda m: (m[1], m[2]))


def scenario_assign_poll_positions() -> Any:
    """Partitions assigned at the beginning, read to the end: positions and cached watermarks."""
    topic = _topic()
    c = _consumer()
    tps = [TopicPartition(topic, 0), TopicPartition(topic, 1)]
    try:
        out = {"assign": _call(lambda: c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in (0, 1)])),
               "assignment": _call(lambda: _tps(c.assignment())),
               "position before": _call(lambda: _tps(c.position(tps))),
               "wm cached before": _call(lambda: c.get_watermark_offsets(tps[0], cached=True))}
        out["messages"] = _poll_all(c, 6)
        out["position"] = _call(lambda: _tps(c.position(tps)))
        out["wm cached"] = [_call(lambda tp=tp: c.get_watermark_offsets(tp, cached=True)) for tp in tps]
        out["wm cached kw timeout"] = _call(lambda: c.get_watermark_offsets(tps[1], timeout=1.0, cached=True))
        out["poll at end"] = _call(lambda: _msg(c.poll(0.2)))
        return out
    finally:
        c.close()


def scenario_pause_seek_resume() -> Any:
    """Backpressure as quixstreams applies it: pause, seek back, resume, read again."""
    topic = _topic()
    c = _consumer()
    tp0 = TopicPartition(topic, 0)
    try:
        c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in (0, 1)])
        out = {"first": _poll_all(c, 6)}
        out["pause"] = _call(lambda: c.pause([tp0]))
        out["seek"] = _call(lambda: c.seek(TopicPartition(topic, 0, 1)))
        out["position after seek"] = _call(lambda: _tps(c.position([tp0])))
        out["poll while paused"] = _call(lambda: _msg(c.poll(0.5)))
        out["resume"] = _call(lambda: c.resume([tp0]))
        out["after resume"] = _poll_all(c, 2)
        out["position"] = _call(lambda: _tps(c.position([tp0])))
        # Partitions the consumer does not have (revoked meanwhile, or never there) are skipped.
        out["pause unknown"] = _call(lambda: c.pause([TopicPartition(topic + "-x", 0), TopicPartition(topic, 7)]))
        out["resume unknown"] = _call(lambda: c.resume([TopicPartition(topic + "-x", 0)]))
        out["seek back"] = _call(lambda: c.seek(TopicPartition(topic, 0, 2)))
        out["pause known and unknown"] = _call(lambda: c.pause([TopicPartition(topic, 7), tp0]))
        out["poll while paused again"] = _call(lambda: _msg(c.poll(0.5)))
        out["resume known and unknown"] = _call(lambda: c.resume([tp0, TopicPartition(topic + "-x", 0)]))
        out["after second resume"] = _poll_all(c, 1)
        return out
    finally:
        c.close()


def scenario_store_commit_committed() -> Any:
    """Checkpoint commits: offsets stored (from a message and explicitly, with metadata), then a
    synchronous commit of the stored offsets, then of explicit ones, each read back."""
    topic = _topic()
    group = f"compat-quix-{uuid.uuid4().hex[:12]}"
    c = _consumer(group)
    tps = [TopicPartition(topic, 0), TopicPartition(topic, 1)]
    try:
        c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in (0, 1)])
        first = None
        deadline = time.monotonic() + TIMEOUT
        while first is None and time.monotonic() < deadline:
            msg = c.poll(0.5)
            if msg is not None and msg.partition() == 0:
                first = msg
        out = {"store message": _call(lambda: c.store_offsets(first)),
               "store offsets": _call(lambda: c.store_offsets(offsets=[TopicPartition(topic, 1, 2, "meta")])),
               "commit stored": _call(lambda: _tps(c.commit(asynchronous=False))),
               "committed": _call(lambda: _tps(c.committed(tps, timeout=TIMEOUT))),
               "commit offsets": _call(lambda: _tps(c.commit(offsets=[TopicPartition(topic, 0, 3, "m2")],
                                                             asynchronous=False))),
               "committed after": _call(lambda: _tps(c.committed(tps, timeout=TIMEOUT))),
               # quixstreams tells this case by the code (_NO_OFFSET); the text is scenarios/clients.py's.
               "commit nothing stored": _code(lambda: c.commit(asynchronous=False))}
        other = _consumer(group)
        try:
            out["committed by another member"] = _call(lambda: _tps(other.committed(tps, timeout=TIMEOUT)))
        finally:
            other.close()
        return out
    finally:
        c.close()


def scenario_incremental_assignment() -> Any:
    """Cooperative rebalancing as quixstreams applies it: partitions removed and added one by one."""
    topic = _topic()
    c = _consumer()
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)
    try:
        out = {"add": _call(lambda: c.incremental_assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])),
               "assignment": _call(lambda: _tps(c.assignment()))}
        out["from 0"] = _poll_all(c, 3)
        out["add 1 at 2"] = _call(lambda: c.incremental_assign([TopicPartition(topic, 1, 2)]))
        out["assignment 2"] = _call(lambda: _tps(c.assignment()))
        out["from 1"] = _poll_all(c, 1)
        out["remove 0"] = _call(lambda: c.incremental_unassign([tp0]))
        out["assignment 3"] = _call(lambda: _tps(c.assignment()))
        out["remove 0 again"] = _call(lambda: c.incremental_unassign([tp0]))
        out["add 1 again"] = _call(lambda: c.incremental_assign([tp1]))
        out["unassign"] = _call(c.unassign)
        out["assignment 4"] = _call(lambda: _tps(c.assignment()))
        return out
    finally:
        c.close()


def scenario_offsets_for_times_and_group_metadata() -> Any:
    """What state recovery and the transactional producer ask the consumer for."""
    topic = _topic()
    c = _consumer()
    try:
        c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        return {
            "offsets for the first timestamp": _call(lambda: [t[:4] for t in _tps(c.offsets_for_times(
                [TopicPartition(topic, 0, BASE_MS)], timeout=TIMEOUT))]),
            "group metadata type": _call(lambda: type(c.consumer_group_metadata()).__name__),
            "member id without a subscription": _call(c.memberid),
            "list_topics partitions": _call(lambda: sorted(c.list_topics(topic, timeout=TIMEOUT)
                                                           .topics[topic].partitions)),
        }
    finally:
        c.close()


def scenario_exactly_once_transaction() -> Any:
    """quixstreams' exactly-once checkpoint: produce and send the consumer's offsets in a
    transaction, commit; then a transaction aborted; then the calls a Ready producer refuses."""
    topic = _topic(0)
    group = f"compat-quix-{uuid.uuid4().hex[:12]}"
    tx = Producer({"bootstrap.servers": _bootstrap(), "log_level": 0,
                   "transactional.id": f"compat-quix-tx-{uuid.uuid4().hex[:12]}"})
    c = _consumer(group)
    tp0 = TopicPartition(topic, 0)
    out: dict[str, Any] = {"init": _call(lambda: tx.init_transactions(TIMEOUT)),
                           "begin": _call(tx.begin_transaction)}
    tx.produce(topic, b"committed", partition=0)
    out["send offsets"] = _call(lambda: tx.send_offsets_to_transaction([TopicPartition(topic, 0, 5)],
                                                                       c.consumer_group_metadata(), TIMEOUT))
    out["commit"] = _call(lambda: tx.commit_transaction(TIMEOUT))
    out["committed offsets"] = _call(lambda: _tps(c.committed([tp0], timeout=TIMEOUT)))
    out["begin 2"] = _call(tx.begin_transaction)
    tx.produce(topic, b"aborted", partition=0)
    out["abort"] = _call(lambda: tx.abort_transaction(TIMEOUT))
    out["commit when ready"] = _call(lambda: tx.commit_transaction(1.0))
    out["send offsets when ready"] = _call(lambda: tx.send_offsets_to_transaction(
        [TopicPartition(topic, 0, 6)], c.consumer_group_metadata(), 1.0))
    out["begin twice"] = _call(lambda: (tx.begin_transaction(), tx.begin_transaction()))
    out["abort open"] = _call(lambda: tx.abort_transaction(TIMEOUT))
    reader = _consumer(**{"isolation.level": "read_committed"})
    try:
        reader.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        # tansu does not filter aborted records (reference/test-brokers.md): the committed one is
        # first on both sides, what follows it is the broker's.
        first = _poll_all(reader, 1)
        out["read committed first"] = [m[4] for m in first]
    finally:
        reader.close()
        c.close()
        tx.flush(TIMEOUT)
    return out
