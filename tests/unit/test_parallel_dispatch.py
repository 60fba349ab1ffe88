"""The parallel consumer's dispatcher: which record runs next, without a broker."""

from __future__ import annotations

import threading
from typing import List, Optional

import pytest

from confluent_kafka.parallel._dispatch import Dispatcher


class Record:
    """What the dispatcher reads of a Message."""

    def __init__(self, partition: int, offset: int, key: Optional[bytes], topic: str = "t") -> None:
        self._p, self._o, self._k, self._t = partition, offset, key, topic

    def topic(self) -> str:
        return self._t

    def partition(self) -> int:
        return self._p

    def offset(self) -> int:
        return self._o

    def key(self) -> Optional[bytes]:
        return self._k

    def value(self) -> bytes:
        return b"v" * 10


def make(ordering: str, partitions=(0, 1), max_waiting: int = 100, max_bytes: int = 1 << 30) -> Dispatcher:
    d = Dispatcher(ordering, max_waiting, max_bytes)
    d.assign((("t", p), None, None) for p in partitions)
    return d


def drain(d: Dispatcher) -> List:
    """Everything takeable now, without finishing any."""
    taken = []
    while (w := d.take(0)) is not None:
        taken.append(w)
    return taken


def offsets(works) -> List[int]:
    return [w.offset for w in works]


def test_key_ordering_runs_one_record_of_a_key_at_a_time_in_offset_order() -> None:
    d = make("key")
    d.add([Record(0, o, b"a" if o % 2 else b"b") for o in range(6)])
    first = drain(d)
    assert offsets(first) == [0, 1]
    for w in first:
        d.finish(w)
    assert offsets(drain(d)) == [2, 3]


def test_records_without_a_key_run_unordered_under_key_ordering() -> None:
    d = make("key")
    d.add([Record(0, o, None) for o in range(4)])
    assert offsets(drain(d)) == [0, 1, 2, 3]


def test_same_key_on_two_partitions_is_two_keys() -> None:
    d = make("key")
    d.add([Record(0, 0, b"k"), Record(1, 0, b"k"), Record(0, 1, b"k")])
    assert [(w.tp[1], w.offset) for w in drain(d)] == [(0, 0), (1, 0)]


def test_partition_ordering_runs_one_record_of_a_partition_at_a_time() -> None:
    d = make("partition")
    d.add([Record(p, o, b"%d" % o) for p in (0, 1) for o in range(3)])
    taken = drain(d)
    assert [(w.tp[1], w.offset) for w in taken] == [(0, 0), (1, 0)]
    d.finish(taken[1])
    assert [(w.tp[1], w.offset) for w in drain(d)] == [(1, 1)]


def test_unordered_runs_everything() -> None:
    d = make("unordered")
    d.add([Record(0, o, b"k") for o in range(5)])
    assert offsets(drain(d)) == list(range(5))


def test_records_of_unassigned_partitions_are_dropped() -> None:
    d = make("key", partitions=(0,))
    assert d.add([Record(3, 0, b"k")]) == 0
    assert drain(d) == []


def test_commits_advance_only_past_finished_records_and_a_failure_holds_them() -> None:
    d = make("unordered", partitions=(0,))
    d.add([Record(0, o, b"k") for o in range(4)])
    w0, w1, w2, w3 = drain(d)
    d.finish(w0)
    d.finish(w2)
    d.fail(w1, ValueError("boom"))
    d.finish(w3)
    [(tp, offset, metadata)] = d.commits()
    assert (tp, offset) == (("t", 0), 1)
    assert d.failure[0] is w1
    assert d.take(0) is None  # closed by the failure


def test_revoke_drops_waiting_records_and_waits_for_running_ones() -> None:
    d = make("key")
    d.add([Record(0, o, b"k") for o in range(3)] + [Record(1, 0, b"k")])
    running = drain(d)
    assert [(w.tp[1], w.offset) for w in running] == [(0, 0), (1, 0)]
    d.revoke([("t", 0)])
    assert d.busy([("t", 0)])
    assert not d.wait_idle([("t", 0)], 0.05)
    d.finish(running[0])
    assert d.wait_idle([("t", 0)], 1.0)
    [(tp, offset, _)] = d.commits([("t", 0)])
    assert (tp, offset) == (("t", 0), 1)  # records 1 and 2 were dropped, never run: not committed
    d.release([("t", 0)])
    assert drain(d) == []
    assert d.snapshot()["waiting"] == 0


def test_a_key_still_running_from_a_revoked_assignment_holds_its_successor() -> None:
    d = make("key", partitions=(0,))
    d.add([Record(0, 0, b"k")])
    [old] = drain(d)
    d.revoke([("t", 0)])
    d.release([("t", 0)])
    d.assign([(("t", 0), 0, None)])
    d.add([Record(0, 0, b"k"), Record(0, 1, b"j")])
    assert offsets(drain(d)) == [1]  # record 0 (key k) waits for the old run of key k
    d.finish(old)
    assert offsets(drain(d)) == [0]


def test_backpressure_pauses_a_full_partition_and_resumes_it_at_half() -> None:
    d = make("unordered", max_waiting=10)
    d.add([Record(0, o, b"k") for o in range(10)] + [Record(1, 0, b"k")])
    assert d.backpressure() == ([("t", 0)], [])
    assert d.backpressure() == ([], [])
    taken = [d.take(0) for _ in range(5)]
    assert d.backpressure() == ([], [("t", 0)])
    assert d.snapshot()["pauses"] == 1
    assert all(taken)


def test_backpressure_on_bytes_pauses_partitions_holding_records() -> None:
    d = make("unordered", max_waiting=1000, max_bytes=500)
    d.add([Record(0, o, b"k") for o in range(5)])
    assert d.backpressure() == ([("t", 0)], [])


def test_take_blocks_until_a_record_or_close() -> None:
    d = make("unordered")
    got = []
    worker = threading.Thread(target=lambda: got.append(d.take()))
    worker.start()
    d.add([Record(0, 0, b"k")])
    worker.join(5)
    assert offsets(got) == [0]
    worker = threading.Thread(target=lambda: got.append(d.take()))
    worker.start()
    d.close()
    worker.join(5)
    assert not worker.is_alive() and got[-1] is None


def test_snapshot_counts_and_latencies() -> None:
    d = make("unordered", partitions=(0,))
    d.add([Record(0, o, b"k") for o in range(3)])
    for w, seconds in zip(drain(d), (0.001, 0.002, 0.003)):
        d.finish(w, seconds)
    s = d.snapshot()
    assert s["processed"] == 3 and s["in_flight"] == 0 and s["waiting"] == 0
    assert s["latency_ms"]["p50"] == pytest.approx(2.0)
    assert s["latency_ms"]["max"] == pytest.approx(3.0)
    assert s["partitions"]["t[0]"]["finished"] == 3
