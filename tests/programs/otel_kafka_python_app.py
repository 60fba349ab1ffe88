"""A kafka-python program traced by OpenTelemetry's kafka-python instrumentation, run and read back.

Run by test_otel.py with opentelemetry-instrumentation-kafka-python 0.66b1 (installed by
scripts/install-programs.sh): under the real kafka-python 3.0 (.bench-venv) and under this
package's kafka-python facade (``python -m confluent_kafka.compat run``). The instrumentation
imports ``kafka.record.abc``, wraps ``KafkaProducer.send`` and ``KafkaConsumer.__next__``, reads
the clients' ``config``, and carries the trace from producer to consumer in the records' headers.

Arguments: BOOTSTRAP TOPIC (a new topic). Prints one JSON document: the finished spans, with their
kind and attributes, and whether each receive span continues a send span's trace.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Dict

from otel_spans import described, tracer_provider
from opentelemetry.instrumentation.kafka import KafkaInstrumentor

BOOTSTRAP, TOPIC = sys.argv[1:3]
EXPORTER, PROVIDER = tracer_provider()
KafkaInstrumentor().instrument(tracer_provider=PROVIDER)

from kafka import KafkaConsumer, KafkaProducer, TopicPartition  # noqa: E402 (after instrument())


def main() -> Dict[str, Any]:
    producer = KafkaProducer(bootstrap_servers=BOOTSTRAP, client_id="otel-producer")
    producer.send(TOPIC, b"v0", key=b"k0", partition=0).get(30)
    producer.send(TOPIC, b"v1", key=b"k1", partition=0).get(30)
    producer.send(TOPIC, b"v2", partition=0, headers=[("own", b"header")]).get(30)
    producer.close()
    consumer = KafkaConsumer(bootstrap_servers=BOOTSTRAP, client_id="otel-consumer", group_id=TOPIC + "-g",
                             auto_offset_reset="earliest", enable_auto_commit=False, consumer_timeout_ms=30000)
    consumer.assign([TopicPartition(TOPIC, 0)])
    received = [next(consumer) for _ in range(3)]
    consumer.close()
    return described(EXPORTER, TOPIC, received)


print(json.dumps(main(), sort_keys=True, default=repr))
