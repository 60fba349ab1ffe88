"""OpenTelemetry's instrumentations (0.66b1) of aiokafka, kafka-python and confluent-kafka,
unchanged: on the facades and on the real aiokafka 0.14 and kafka-python 3.0, and on this package
and on upstream confluent-kafka 2.16.1. Each side must record the same spans, with the same
attributes, and carry the trace context in the records' headers (tests/programs/otel_*_app.py).

The aiokafka and kafka-python instrumentations read the clients' internals on every call, outside
any error handling (aiokafka's ``producer.client``/``consumer._client``, kafka-python's
``config``), and the kafka-python one imports ``kafka.record.abc``: a facade without them fails
every traced call. The confluent-kafka one subclasses ``Producer`` and ``Consumer``.
"""
from __future__ import annotations

import uuid
from typing import Any

import pytest

from programs_support import Sides

PROGRAMS = {"aiokafka": "otel_aiokafka_app.py", "kafka-python": "otel_kafka_python_app.py",
            "confluent-kafka": "otel_confluent_kafka_app.py"}
# The side that runs the real library, and the side that runs this package in its place.
SIDES = {"aiokafka": ("peer", "facade"), "kafka-python": ("peer", "facade"), "confluent-kafka": ("upstream", "ours")}
# The send span's partition, which kafka-python's instrumentation reads from the future send()
# returns: kafka-python picks the partition before send() returns; the facade leaves it to
# librdkafka, which picks it later, so the attribute is missing (docs/kafka_python.md).
SEND_PARTITION = "messaging.kafka.partition"


@pytest.fixture(scope="module")
def runs(otel_sides: Sides, kafka_bootstrap: str, tmp_path_factory: pytest.TempPathFactory) -> dict[Any, Any]:
    """Each program's document on both of its sides, the six run at once: ``{(library, "real" |
    "ours"): document}``."""
    run = uuid.uuid4().hex[:10]
    cwd = tmp_path_factory.mktemp("otel")
    procs = {(library, role): (f"{library} on {side}", otel_sides.start(
                 side, script, kafka_bootstrap, f"otel-{library}-{side}-{run}", cwd=cwd))
             for library, script in PROGRAMS.items() for role, side in zip(("real", "ours"), SIDES[library])}
    found: dict[Any, Any] = otel_sides.collect(procs)
    return found


def _without_send_partition(doc: dict[str, Any]) -> dict[str, Any]:
    spans = [{**s, "attributes": {k: v for k, v in s["attributes"].items() if k != SEND_PARTITION}}
             if s["kind"] == "PRODUCER" else s for s in doc["spans"]]
    return {**doc, "spans": spans}


@pytest.mark.parametrize("library", ["aiokafka", "confluent-kafka"])
def test_spans_are_the_same(runs: dict[Any, Any], library: str) -> None:
    assert runs[library, "ours"] == runs[library, "real"]


def test_kafka_python_spans_are_the_same_but_the_send_partition(runs: dict[Any, Any]) -> None:
    real, ours = runs["kafka-python", "real"], runs["kafka-python", "ours"]
    assert _without_send_partition(ours) == _without_send_partition(real)
    sends = [(s["attributes"].get(SEND_PARTITION, "missing"), o["attributes"].get(SEND_PARTITION, "missing"))
             for s, o in zip(real["spans"], ours["spans"]) if s["kind"] == "PRODUCER"]
    assert sends == [(0, "missing")] * 3  # the one difference, documented


@pytest.mark.parametrize("library", PROGRAMS)
def test_spans_say_what_happened(runs: dict[Any, Any], library: str) -> None:
    doc = runs[library, "ours"]
    assert doc["values"] == ["v0", "v1", "v2"]
    assert doc["header_keys"] == [["traceparent"], ["traceparent"], ["own", "traceparent"]]
    sends = [s for s in doc["spans"] if s["kind"] == "PRODUCER"]
    consumer = [s for s in doc["spans"] if s["kind"] == "CONSUMER"]
    assert len(sends) == 3 and all(s["name"] == "<topic> send" for s in sends)
    assert all(s["continues_a_send"] for s in sends)
    if library == "confluent-kafka":
        # A "recv" span per poll(), and a "process" span per record; the instrumentation starts a
        # trace of its own for each rather than continuing the send's.
        process = [s for s in consumer if s["name"] == "<topic> process"]
        assert [s["attributes"]["messaging.message.id"] for s in process] == [f"<topic>.0.{i}" for i in range(3)]
        assert [s["name"] for s in consumer].count("recv") == 3 and len(consumer) == 6
        assert {s["attributes"]["messaging.system"] for s in sends + process} == {"kafka"}
        return
    if library == "aiokafka":
        assert {s["attributes"]["messaging.client.id"] for s in sends} == {"otel-producer"}
        assert sorted(s["attributes"]["messaging.kafka.message.key"] for s in sends
                      if "messaging.kafka.message.key" in s["attributes"]) == ["k0", "k1"]
        # A receive span per record, each continuing its send's trace; getmany()'s poll and
        # topic spans start traces of their own.
        receives = [s for s in consumer if "messaging.kafka.message.offset" in s["attributes"]]
        assert sorted(s["attributes"]["messaging.kafka.message.offset"] for s in receives) == [0, 1, 2]
        assert {s["attributes"]["messaging.client.id"] for s in receives} == {"otel-consumer"}
        assert len(consumer) == 3 + 2
    else:
        receives = consumer
        assert [s["attributes"]["messaging.kafka.partition"] for s in receives] == [0, 0, 0]
    assert len(receives) == 3 and all(s["continues_a_send"] for s in receives)
