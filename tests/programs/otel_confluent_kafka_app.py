"""A confluent-kafka program traced by OpenTelemetry's confluent-kafka instrumentation, run and read back.

Run by test_otel.py with opentelemetry-instrumentation-confluent-kafka 0.66b1 (installed by
scripts/install-programs.sh): under upstream confluent-kafka 2.16.1 (.compat-venv) and under this
package. The instrumentation replaces ``Producer`` and ``Consumer`` with subclasses whose
``produce()``, ``poll()`` and ``consume()`` trace, and carries the trace context in the headers.

Arguments: BOOTSTRAP TOPIC (a new topic). Prints one JSON document: the finished spans, with their
kind and attributes.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Dict

from otel_spans import described, tracer_provider
from opentelemetry.instrumentation.confluent_kafka import ConfluentKafkaInstrumentor

BOOTSTRAP, TOPIC = sys.argv[1:3]
EXPORTER, PROVIDER = tracer_provider()
ConfluentKafkaInstrumentor().instrument(tracer_provider=PROVIDER)

from confluent_kafka import Consumer, Producer, TopicPartition  # noqa: E402 (after instrument())

WAIT_S = 30.0


def main() -> Dict[str, Any]:
    producer = Producer({"bootstrap.servers": BOOTSTRAP, "client.id": "otel-producer"})
    producer.produce(TOPIC, b"v0", key=b"k0", partition=0)
    producer.produce(TOPIC, value=b"v1", key=b"k1", partition=0)
    producer.produce(TOPIC, b"v2", partition=0, headers=[("own", b"header")])
    assert producer.flush(WAIT_S) == 0
    consumer = Consumer({"bootstrap.servers": BOOTSTRAP, "group.id": TOPIC + "-g", "client.id": "otel-consumer",
                         "auto.offset.reset": "earliest"})
    consumer.assign([TopicPartition(TOPIC, 0, 0)])
    # Each poll() is a span: a bound long enough that none comes back empty keeps their number fixed.
    received = [consumer.poll(WAIT_S) for _ in range(3)]
    consumer.close()
    return described(EXPORTER, TOPIC, received)


print(json.dumps(main(), sort_keys=True, default=repr))
