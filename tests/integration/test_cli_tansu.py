"""The command-line tool against a real broker (tansu): topic administration, produce and consume
with start points, a consumer group with its lag, and bench."""

from __future__ import annotations

import json
import time
from typing import List

import pytest

from cli_helpers import lines, run

# tansu answers ListOffsets(LATEST) with the base offset of the last batch + 1, so end offsets
# are right only when every batch holds one message.
ONE_PER_BATCH = ["-X", "batch.num.messages=1"]
SHORT_SESSION = ["-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=1000"]


def produce(bootstrap: str, topic: str, values: List[str], *extra: str) -> None:
    r = run(["produce", "-q", "-b", bootstrap, "-t", topic, *ONE_PER_BATCH, *extra],
            input="".join(v + "\n" for v in values).encode())
    assert r.returncode == 0, r.stderr.decode()


def test_topic_lifecycle(kafka_bootstrap: str, unique_topic: str) -> None:
    b = ["-b", kafka_bootstrap]
    r = run(["topics", "create", unique_topic, "-p", "3", "-r", "1", *b])
    assert r.returncode == 0 and f"created topic {unique_topic}" in r.stderr.decode(), r.stderr.decode()
    r = run(["topics", "create", unique_topic, "-p", "3", *b])
    assert r.returncode == 1 and "TOPIC_ALREADY_EXISTS" in r.stderr.decode()
    assert run(["topics", "create", unique_topic, "--if-not-exists", *b]).returncode == 0
    listed = json.loads(run(["topics", "list", "--json", *b]).stdout)
    assert {"topic": unique_topic, "partitions": 3} in listed
    produce(kafka_bootstrap, unique_topic, ["a", "b"], "-p", "1")
    (d,) = json.loads(run(["topics", "describe", unique_topic, "--json", *b]).stdout)
    assert [(p["partition"], p["messages"]) for p in d["partitions"]] == [(0, 0), (1, 2), (2, 0)]
    r = run(["topics", "delete", unique_topic, *b])
    assert r.returncode == 0, r.stderr.decode()
    deadline = time.monotonic() + 30
    while any(t["topic"] == unique_topic for t in json.loads(run(["topics", "list", "--json", *b]).stdout)):
        assert time.monotonic() < deadline, "deleted topic still listed"
        time.sleep(0.5)
    r = run(["topics", "delete", unique_topic, *b])
    assert r.returncode == 1 and "UNKNOWN_TOPIC_OR_PART" in r.stderr.decode()
    assert run(["topics", "delete", unique_topic, "--if-exists", *b]).returncode == 0


def test_produce_then_consume_with_start_points(kafka_bootstrap: str, unique_topic: str) -> None:
    assert run(["topics", "create", unique_topic, "-p", "1", "-b", kafka_bootstrap]).returncode == 0
    produce(kafka_bootstrap, unique_topic, [f"k{i}:v{i}" for i in range(6)], "-K", ":", "-H", "via=cli")
    r = run(["consume", "-q", "-b", kafka_bootstrap, "-t", unique_topic, "-e", "-f", "%o %k %s %h\\n"])
    assert r.returncode == 0, r.stderr.decode()
    assert lines(r.stdout) == [f"{i} k{i} v{i} via=cli" for i in range(6)]
    r = run(["consume", "-q", "-b", kafka_bootstrap, "-t", unique_topic, "-e", "-o", "-2", "-J"])
    assert [json.loads(x)["value"] for x in lines(r.stdout)] == ["v4", "v5"]


def test_consume_from_a_time(kafka_bootstrap: str, unique_topic: str) -> None:
    assert run(["topics", "create", unique_topic, "-p", "1", "-b", kafka_bootstrap]).returncode == 0
    produce(kafka_bootstrap, unique_topic, ["old1", "old2"])
    time.sleep(1.5)
    since = int(time.time() * 1000)
    time.sleep(0.5)
    produce(kafka_bootstrap, unique_topic, ["new1", "new2"])
    r = run(["consume", "-q", "-b", kafka_bootstrap, "-t", unique_topic, "-e", "--from-time", str(since)])
    assert (r.returncode, lines(r.stdout)) == (0, ["new1", "new2"]), r.stderr.decode()


def test_group_consume_lag_and_listing(kafka_bootstrap: str, unique_topic: str) -> None:
    group = f"cli-{unique_topic[-12:]}"
    assert run(["topics", "create", unique_topic, "-p", "2", "-b", kafka_bootstrap]).returncode == 0
    produce(kafka_bootstrap, unique_topic, [str(i) for i in range(20)])
    r = run(["consume", "-q", "-b", kafka_bootstrap, "-t", unique_topic, "-G", group, "-c", "8", *SHORT_SESSION])
    assert r.returncode == 0 and len(lines(r.stdout)) == 8, r.stderr.decode()
    r = run(["groups", "lag", group, "-t", unique_topic, "--json", "-b", kafka_bootstrap])
    assert r.returncode == 0, r.stderr.decode()
    lag = json.loads(r.stdout)
    assert sum(p["end"] for p in lag["partitions"]) == 20
    committed = sum(p["committed"] or 0 for p in lag["partitions"])
    assert 8 <= committed <= 20 and lag["total_lag"] == 20 - committed
    # Without -t the cluster lists the partitions the group has committed offsets for.
    r = run(["groups", "offsets", group, "--json", "-b", kafka_bootstrap])
    assert r.returncode == 0, r.stderr.decode()
    listed = json.loads(r.stdout)
    assert listed and all(o["topic"] == unique_topic and o["offset"] > 0 for o in listed)
    assert sum(o["offset"] for o in listed) == committed
    r = run(["groups", "list", "--json", "-b", kafka_bootstrap])
    assert r.returncode == 0, r.stderr.decode()
    assert group in [g["group"] for g in json.loads(r.stdout)]


@pytest.mark.parametrize("extra", [[], ["--only", "produce"]])
def test_bench(kafka_bootstrap: str, extra: List[str]) -> None:
    r = run(["bench", "-n", "2000", "-s", "64", "--partitions", "2", "--json", "-b", kafka_bootstrap, *extra])
    assert r.returncode == 0, r.stderr.decode()
    res = json.loads(r.stdout)["results"]
    assert [x["messages"] for x in res] == [2000] * len(res) and len(res) == (1 if extra else 2)
