"""An aiokafka program traced by OpenTelemetry's aiokafka instrumentation, run and read back.

Run by test_otel_aiokafka.py with opentelemetry-instrumentation-aiokafka 0.66b1 (installed by
scripts/install-programs.sh): under the real aiokafka 0.14 (.bench-venv) and under this package's
aiokafka facade (``python -m confluent_kafka.compat run``). The instrumentation wraps
``AIOKafkaProducer.send`` and ``AIOKafkaConsumer.getone``/``getmany``, reads the clients'
internal client for its bootstrap servers and client id, and carries the trace from producer to
consumer in the records' headers.

Arguments: BOOTSTRAP TOPIC (a new topic). Prints one JSON document: the finished spans, by name,
with their kind and attributes, and whether each receive span continues a send span's trace.
"""
from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, Dict, List

from opentelemetry import trace
from opentelemetry.instrumentation.aiokafka import AIOKafkaInstrumentor
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

BOOTSTRAP, TOPIC = sys.argv[1:3]
EXPORTER = InMemorySpanExporter()
PROVIDER = TracerProvider()
PROVIDER.add_span_processor(SimpleSpanProcessor(EXPORTER))
trace.set_tracer_provider(PROVIDER)
AIOKafkaInstrumentor().instrument(tracer_provider=PROVIDER)

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition  # noqa: E402 (after instrument())

WAIT_S = 30


async def main() -> Dict[str, Any]:
    async with AIOKafkaProducer(bootstrap_servers=BOOTSTRAP, client_id="otel-producer") as producer:
        await producer.send_and_wait(TOPIC, b"v0", key=b"k0", partition=0)
        await producer.send_and_wait(TOPIC, b"v1", key=b"k1", partition=0)
        await producer.send_and_wait(TOPIC, b"v2", partition=0, headers=[("own", b"header")])
    consumer = AIOKafkaConsumer(bootstrap_servers=BOOTSTRAP, client_id="otel-consumer", group_id=TOPIC + "-g",
                                auto_offset_reset="earliest", enable_auto_commit=False)
    await consumer.start()
    try:
        consumer.assign([TopicPartition(TOPIC, 0)])
        first = await asyncio.wait_for(consumer.getone(), WAIT_S)
        rest: List[Any] = []
        while len(rest) < 2:
            for records in (await consumer.getmany(timeout_ms=WAIT_S * 1000)).values():
                rest.extend(records)
    finally:
        await consumer.stop()
    received = [first, *rest]
    spans = EXPORTER.get_finished_spans()
    sends = {s.context.trace_id for s in spans if s.kind == trace.SpanKind.PRODUCER}
    return {
        "values": [r.value.decode() for r in received],
        # the trace context the instrumentation put in the headers, beside the program's own
        "header_keys": [sorted(k for k, _ in r.headers) for r in received],
        "spans": sorted([{"name": s.name.replace(TOPIC, "<topic>"), "kind": s.kind.name,
                          "attributes": {k: (v.replace(TOPIC, "<topic>") if isinstance(v, str) else v)
                                         for k, v in sorted((s.attributes or {}).items())},
                          "continues_a_send": s.context.trace_id in sends}
                         for s in spans], key=lambda d: json.dumps(d, sort_keys=True)),
    }


print(json.dumps(asyncio.run(main()), sort_keys=True, default=repr))
