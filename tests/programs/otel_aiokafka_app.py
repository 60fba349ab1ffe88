"""An aiokafka program traced by OpenTelemetry's aiokafka instrumentation, run and read back.

Run by test_otel.py with opentelemetry-instrumentation-aiokafka 0.66b1 (installed by
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

from otel_spans import described, tracer_provider
from opentelemetry.instrumentation.aiokafka import AIOKafkaInstrumentor

BOOTSTRAP, TOPIC = sys.argv[1:3]
EXPORTER, PROVIDER = tracer_provider()
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
    return described(EXPORTER, TOPIC, [first, *rest])


print(json.dumps(asyncio.run(main()), sort_keys=True, default=repr))
