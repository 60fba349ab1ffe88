"""OpenTelemetry's aiokafka instrumentation (0.66b1), unchanged, on the aiokafka facade and on the
real aiokafka 0.14: the same spans, with the same attributes, and the trace carried from each
send to its receive in the record's headers (tests/programs/otel_aiokafka_app.py).

The instrumentation reads ``producer.client`` and ``consumer._client`` (aiokafka's internal
client) for the bootstrap servers and client id on every call, outside any error handling: a
facade without them fails every ``send()``.
"""
from __future__ import annotations

import uuid
from typing import Any

import pytest

from programs_support import Sides

SIDES = ("facade", "aiokafka")


@pytest.fixture(scope="module")
def runs(otel_sides: Sides, kafka_bootstrap: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    run = uuid.uuid4().hex[:10]
    cwd = tmp_path_factory.mktemp("otel")
    found: dict[str, Any] = otel_sides.collect(
        {side: (side, otel_sides.start(side, "otel_aiokafka_app.py", kafka_bootstrap, f"otel-{side}-{run}", cwd=cwd))
         for side in SIDES})
    return found


def test_spans_are_the_same_on_the_facade(runs: dict[str, Any]) -> None:
    assert runs["facade"] == runs["aiokafka"]


def test_spans_say_what_happened(runs: dict[str, Any]) -> None:
    doc = runs["facade"]
    assert doc["values"] == ["v0", "v1", "v2"]
    assert doc["header_keys"] == [["traceparent"], ["traceparent"], ["own", "traceparent"]]
    by_kind: dict[str, list[Any]] = {}
    for span in doc["spans"]:
        by_kind.setdefault(span["kind"], []).append(span)
    sends = by_kind["PRODUCER"]
    assert len(sends) == 3 and all(s["name"] == "<topic> send" for s in sends)
    assert {s["attributes"]["messaging.client.id"] for s in sends} == {"otel-producer"}
    assert sorted(s["attributes"].get("messaging.kafka.message.key") for s in sends if
                  "messaging.kafka.message.key" in s["attributes"]) == ["k0", "k1"]
    # One receive span per record, each continuing its send's trace; getmany()'s poll and
    # topic spans start traces of their own.
    receives = [s for s in by_kind["CONSUMER"] if "messaging.kafka.message.offset" in s["attributes"]]
    assert sorted(s["attributes"]["messaging.kafka.message.offset"] for s in receives) == [0, 1, 2]
    assert all(s["continues_a_send"] for s in receives)
    assert {s["attributes"]["messaging.client.id"] for s in receives} == {"otel-consumer"}
    assert len(by_kind["CONSUMER"]) == 3 + 2
