"""Trigger.AvailableNow on the data source's streaming reader: a run reads what was there when it
began, in micro-batches of at most maxOffsetsPerTrigger, then stops by itself."""

from __future__ import annotations

from typing import Any, Callable, Dict, List

from confluent_kafka import Producer

PER_TRIGGER = 100


def _produce(bootstrap: str, topic: str, first: int, count: int) -> None:
    """Values ``first .. first+count-1``, alternating between partitions 0 and 1."""
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    for i in range(first, first + count):
        p.produce(topic, str(i).encode(), partition=i % 2)
    assert p.flush(30) == 0


def _values(batches: List[List[Any]]) -> List[int]:
    return sorted(int(r.value) for rows in batches for r in rows)


def test_available_now_reads_what_was_there_in_several_batches_and_stops(
        run_available_now: Callable[..., List[List[Any]]], new_topic: Callable[..., str],
        kafka_bootstrap: str, kafka_options: Dict[str, str], tmp_path: Any) -> None:
    topic = new_topic(2)
    _produce(kafka_bootstrap, topic, 0, 300)
    options = {**kafka_options, "subscribe": topic, "startingOffsets": "earliest",
               "maxOffsetsPerTrigger": str(PER_TRIGGER)}
    checkpoint = str(tmp_path / "checkpoint")
    produced_during_run: List[int] = []

    def produce_more(batch_id: int) -> None:
        # Produced while the run is going on, after its end was fixed: left to the next run.
        if not produced_during_run:
            _produce(kafka_bootstrap, topic, 300, 100)
            produced_during_run.append(batch_id)

    first = run_available_now(options, checkpoint, produce_more)
    assert produced_during_run, "no micro-batch ran"
    assert len(first) >= 3  # 300 rows at most 100 a trigger
    assert all(len(rows) <= PER_TRIGGER for rows in first)
    assert _values(first) == list(range(300))  # exactly what was there at the start, once

    second = run_available_now(options, checkpoint)  # the same checkpoint: goes on from there
    assert _values(second) == list(range(300, 400))
    assert all(len(rows) <= PER_TRIGGER for rows in second)

    assert run_available_now(options, checkpoint) == []  # nothing new: stops without data
