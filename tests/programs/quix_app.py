"""A quixstreams application, written as its users write one, run to completion and read back.

    python quix_app.py BOOTSTRAP PREFIX STATE_DIR [GUARANTEE]

The same file runs under this project's interpreter and under the upstream wheel's (each with
quixstreams installed), on topics, a consumer group and a state directory of its own (PREFIX and
STATE_DIR). It prints one JSON document on stdout: what the application produced, what its
changelog topics hold, and which topics it made, with PREFIX replaced by ``<P>`` so that the two
sides' documents compare equal when the two packages behave the same.

The application: readings (key: sensor, value: {"amount": n}) go through a stateful step that
keeps a running total per sensor in ``State``, then a tumbling window of 10 s that counts the
readings and sums their amounts, and the window's current value goes to an output topic. It runs
twice, bounded by ``Application.run(count=..., timeout=...)``:

1. on the first batch of readings, with an empty state directory;
2. on a second batch, with a NEW empty state directory: the running totals and the open windows
   can only continue from the first run's values if the state was recovered from the changelog
   topics.

Every checkpoint commits after each message (``commit_every=1``), so the changelog topics hold
one record per state update in each partition's order, whatever the timing.
"""
from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, TopicPartition
from quixstreams import Application, State
from quixstreams.dataframe.windows import Count, Max, Sum
from quixstreams.models import TopicConfig

# Event time of the first reading; readings are 2 s apart, so 10 s windows hold five each.
BASE_MS = 1_700_000_000_000
FIRST = [("sensor-a", 3), ("sensor-b", 10), ("sensor-a", 4), ("sensor-c", 1), ("sensor-b", 20),
         ("sensor-a", 5), ("sensor-c", 2), ("sensor-a", 6), ("sensor-b", 30), ("sensor-c", 3),
         ("sensor-a", 7), ("sensor-b", 40)]
SECOND = [("sensor-a", 100), ("sensor-b", 200), ("sensor-c", 300), ("sensor-a", 101),
          ("sensor-b", 201), ("sensor-c", 301)]
PARTITIONS = 2
RUN_TIMEOUT_S = 30.0


def running_total(value: dict[str, Any], state: State) -> dict[str, Any]:
    """The stateful step: the sensor's running total of amounts, kept in the state store."""
    total = state.get("total", 0) + value["amount"]
    state.set("total", total)
    return {**value, "running_total": total}


def make_app(bootstrap: str, prefix: str, state_dir: pathlib.Path, guarantee: str) -> Application:
    return Application(
        broker_address=bootstrap,
        consumer_group=f"{prefix}-group",
        auto_offset_reset="earliest",
        state_dir=state_dir,
        commit_every=1,
        processing_guarantee=guarantee,  # type: ignore[arg-type]
        loglevel="WARNING",
        # tansu completes a group join in about half the session timeout.
        consumer_extra_config={"session.timeout.ms": 6000, "heartbeat.interval.ms": 1000},
    )


def run_once(bootstrap: str, prefix: str, state_dir: pathlib.Path, guarantee: str,
             batch: list[tuple[str, int]], first_seq: int) -> list[dict[str, Any]]:
    """Produce BATCH to the readings topic, then run the application until it has processed it."""
    app = make_app(bootstrap, prefix, state_dir, guarantee)
    # tansu's DescribeConfigs reports only the keys a topic was created with, and quixstreams
    # derives its changelog topics' retention from the input topic's: name it explicitly.
    config = TopicConfig(num_partitions=PARTITIONS, replication_factor=1,
                         extra_config={"retention.ms": str(7 * 24 * 3600 * 1000), "retention.bytes": "-1"})
    readings = app.topic(f"{prefix}-readings", key_serializer="str", key_deserializer="str",
                         value_serializer="json", value_deserializer="json", config=config)
    totals = app.topic(f"{prefix}-totals", key_serializer="str", value_serializer="json", config=config)

    with app.get_producer() as producer:
        for seq, (sensor, amount) in enumerate(batch, start=first_seq):
            message = readings.serialize(key=sensor, value={"seq": seq, "amount": amount},
                                         timestamp_ms=BASE_MS + seq * 2000)
            producer.produce(topic=readings.name, key=message.key, value=message.value,
                             timestamp=message.timestamp)

    sdf = app.dataframe(readings)
    sdf = sdf.apply(running_total, stateful=True)
    sdf = sdf.tumbling_window(duration_ms=10_000, name="per-10s").agg(
        readings=Count(), amount=Sum("amount"), running_total=Max("running_total")).current()
    sdf = sdf.to_topic(totals)
    collected = app.run(count=len(batch), timeout=RUN_TIMEOUT_S, metadata=True)
    # The order across partitions depends on fetch timing; within a key it is the input's.
    return sorted(collected, key=lambda row: (row["_key"], row["_offset"]))


def read_topic(bootstrap: str, topic: str) -> list[dict[str, Any]]:
    """Every record of TOPIC, partition by partition, up to the end of each partition.

    The end is the partition-EOF event (the high watermark of a Fetch response): tansu's
    ListOffsets(LATEST), behind uncached ``get_watermark_offsets()``, is wrong for batches of
    several messages.
    """
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"{topic}-reader",
                         "enable.auto.commit": False, "enable.partition.eof": True})
    try:
        partitions = sorted(consumer.list_topics(topic, timeout=10).topics[topic].partitions)
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in partitions])
        records: list[dict[str, Any]] = []
        at_end: set[int] = set()
        while len(at_end) < len(partitions):
            message = consumer.poll(10)
            if message is None:
                raise TimeoutError(f"{topic}: no end of partitions {set(partitions) - at_end}")
            error = message.error()
            if error is not None and error.code() == KafkaError._PARTITION_EOF:
                at_end.add(message.partition())
                continue
            if error is not None:
                raise RuntimeError(str(error))
            record = {
                "partition": message.partition(), "offset": message.offset(),
                "key": _text(message.key()), "value": _text(message.value()),
                "headers": [[name, _text(value)] for name, value in (message.headers() or [])],
            }
            if not topic.startswith("changelog__"):  # changelog records are stamped with the wall clock
                record["timestamp"] = list(message.timestamp())
            records.append(record)
        return sorted(records, key=lambda r: (r["partition"], r["offset"]))
    finally:
        consumer.close()


def _text(raw: bytes | None) -> str | None:
    return None if raw is None else raw.decode("utf-8", "backslashreplace")


def main(bootstrap: str, prefix: str, state_dir: str, guarantee: str = "at-least-once") -> dict[str, Any]:
    root = pathlib.Path(state_dir)
    first = run_once(bootstrap, prefix, root / "first", guarantee, FIRST, 0)
    second = run_once(bootstrap, prefix, root / "second", guarantee, SECOND, len(FIRST))

    probe = Consumer({"bootstrap.servers": bootstrap, "group.id": f"{prefix}-probe"})
    try:
        names = sorted(t for t in probe.list_topics(timeout=10).topics if prefix in t)
    finally:
        probe.close()
    result = {
        "collected": {"first": first, "second": second},
        "topics": names,
        "records": {name: read_topic(bootstrap, name) for name in names},
    }
    return json.loads(json.dumps(result).replace(prefix, "<P>"))


if __name__ == "__main__":
    json.dump(main(*sys.argv[1:5]), sys.stdout, sort_keys=True)
