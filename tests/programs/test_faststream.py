"""FastStream 0.7.8, unchanged, on this package: its Kafka broker built on confluent-kafka
(``faststream.confluent``) on this package and on upstream 2.16.1, and its Kafka broker built on
aiokafka (``faststream.kafka``) on the real aiokafka 0.14 and on the aiokafka facade.

One application (tests/programs/faststream_app.py) on each of the four sides: a subscriber whose
return value a publisher sends on, a batch subscriber fed by publish_batch(), manual acks, a
partition assigned without a group, a message's key, headers and correlation id, a topic
FastStream creates with three partitions, a message nacked by a failing handler and delivered
again, ping(), and FastStream's in-memory test broker with a request/reply. Every side must
observe the same document, the one below: every message received, no error logged.
"""
from __future__ import annotations

import uuid
from typing import Any

import pytest

from programs_support import Sides

N = 5
# What the application must observe, on every side (topic names carry a per-side prefix, left out).
EXPECTED: dict[str, Any] = {
    "ping": True,
    "orders": list(range(N)),
    "chained": [2 * i for i in range(N)],
    "batch": [f"b{i}" for i in range(N)],
    "manual": [f"m{i}" for i in range(N)],
    "assigned": [f"a{i}" for i in range(N)],
    "meta": [{"body": "hello", "content_type": "text/plain", "correlation_id": "corr-1",
              "headers": {"h1": "v1", "h2": "v2"}, "key": repr(b"key-1"), "offset": 0, "partition": 0}],
    "declared": [{"body": "third", "partition": 2}],
    # r1 fails once, is nacked and comes again; the records after it come once, after it.
    "retry": ["r0", "r1", "r1", *[f"r{i}" for i in range(2, N)]],
    "in_memory": [{"body": {"x": 1}, "key": repr(b"mk"), "offset": 0, "partition": 0}],
    "in_memory_reply": "PING",
    "errors": [],
}
FLAVOURS = {"confluent": ("ours", "upstream"), "kafka": ("facade", "peer")}  # peer: the real aiokafka


@pytest.fixture(scope="module")
def runs(faststream_sides: Sides, kafka_bootstrap: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The application's document on each side, the four run at once (they mostly wait on the broker)."""
    run = uuid.uuid4().hex[:10]
    cwd = tmp_path_factory.mktemp("faststream")
    procs = {side: (side, faststream_sides.start(side, "faststream_app.py", flavour, kafka_bootstrap,
                                                 f"faststream-{side}-{run}", cwd=cwd))
             for flavour, sides in FLAVOURS.items() for side in sides}
    found: dict[str, Any] = faststream_sides.collect(procs)
    return found


@pytest.mark.parametrize("side", [side for sides in FLAVOURS.values() for side in sides])
def test_application_receives_everything_and_logs_no_error(runs: dict[str, Any], side: str) -> None:
    assert runs[side] == EXPECTED

