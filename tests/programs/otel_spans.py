"""What the OpenTelemetry programs (otel_*_app.py) share: an in-memory tracer provider, and the
finished spans described so that two runs on different topics compare equal."""
from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter


def tracer_provider() -> Tuple[InMemorySpanExporter, TracerProvider]:
    """The global tracer provider, keeping every finished span in memory."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    return exporter, provider


def described(exporter: InMemorySpanExporter, topic: str, received: List[Any]) -> Dict[str, Any]:
    """The records' values and header keys, and the spans: name, kind, attributes (``topic`` shown
    as ``<topic>``), and whether the span belongs to a trace a send span started."""
    spans = exporter.get_finished_spans()
    sends = {s.context.trace_id for s in spans if s.kind == trace.SpanKind.PRODUCER}

    def hidden(value: Any) -> Any:
        return value.replace(topic, "<topic>") if isinstance(value, str) else value

    def field(record: Any, name: str) -> Any:
        """A record's field: an attribute (aiokafka, kafka-python) or a method (confluent-kafka)."""
        value = getattr(record, name)
        return value() if callable(value) else value

    return {
        "values": [field(r, "value").decode() for r in received],
        # the trace context the instrumentation put in the headers, beside the program's own
        "header_keys": [sorted(k for k, _ in field(r, "headers") or ()) for r in received],
        "spans": sorted([{"name": hidden(s.name), "kind": s.kind.name,
                          "attributes": {k: hidden(v) for k, v in sorted((s.attributes or {}).items())},
                          "continues_a_send": s.context.trace_id in sends}
                         for s in spans], key=lambda d: json.dumps(d, sort_keys=True)),
    }
