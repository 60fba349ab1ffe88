"""quixstreams' Avro and JSON serializers, with and without a Schema Registry, round-tripped.

    python quix_serdes.py BOOTSTRAP REGISTRY_URL SUBJECT_TOPIC PREFIX

Runs under this project's interpreter and under the upstream wheel's. Prints one JSON document:
for each serializer, the bytes it made (hex), what its deserializer gave back, and the error
(type and text) for a value that does not fit the schema and for bytes that are not the
registry's framing. The registry serializers register their schemas under subjects named after SUBJECT_TOPIC, the same on both sides, so that the schema ids in the framing (and so the bytes) are
the same too. Then the Avro (registry) and JSON (registry) topics of an application carry
records through the broker on PREFIX's topics: produced with ``Topic.serialize`` and the
application's producer, read back with its consumer and ``Topic.deserialize``.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Callable

from confluent_kafka import OFFSET_BEGINNING, TopicPartition
from quixstreams import Application
from quixstreams.models import TopicConfig
from quixstreams.models.serializers import SerializationContext
from quixstreams.models.serializers.avro import AvroDeserializer, AvroSerializer
from quixstreams.models.serializers.json import JSONDeserializer, JSONSerializer
from quixstreams.models.serializers.schema_registry import (
    SchemaRegistryClientConfig,
    SchemaRegistrySerializationConfig,
)

AVRO_SCHEMA = {
    "type": "record", "name": "Reading", "namespace": "programs.quix",
    "fields": [
        {"name": "sensor", "type": "string"},
        {"name": "amount", "type": "long"},
        {"name": "unit", "type": ["null", "string"], "default": None},
        {"name": "tags", "type": {"type": "array", "items": "string"}, "default": []},
    ],
}
JSON_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Reading", "type": "object",
    "properties": {
        "sensor": {"type": "string"},
        "amount": {"type": "integer"},
        "unit": {"type": ["string", "null"]},
    },
    "required": ["sensor", "amount"],
}
RECORDS = [
    {"sensor": "sensor-a", "amount": 3, "unit": "kWh", "tags": ["x", "y"]},
    {"sensor": "sensor-b", "amount": -2**40, "unit": None, "tags": []},
    {"sensor": "s\u00e9nsor-\u2603", "amount": 0, "unit": "\u00b0C", "tags": ["\U0001f600"]},
]
JSON_RECORDS = [{k: v for k, v in r.items() if k != "tags"} for r in RECORDS]
BAD_AVRO = {"sensor": "sensor-a", "amount": "not a number"}
BAD_JSON = {"sensor": "sensor-a"}
NOT_FRAMED = b"\x07not the registry's framing"


def outcome(fn: Callable[[], Any]) -> dict[str, Any]:
    """What FN returned (bytes as hex), or the type and text of what it raised."""
    try:
        value = fn()
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        return {"raised": f"{type(exc).__module__}.{type(exc).__qualname__}", "text": str(exc)}
    return {"hex": value.hex()} if isinstance(value, bytes) else {"value": value}


def round_trip(serializer: Any, deserializer: Any, records: list[dict[str, Any]], bad: dict[str, Any],
               ctx: SerializationContext) -> dict[str, Any]:
    encoded = [outcome(lambda r=r: serializer(r, ctx)) for r in records]
    decoded = [outcome(lambda e=e: deserializer(bytes.fromhex(e["hex"]), ctx)) if "hex" in e else None
               for e in encoded]
    return {
        "encoded": encoded, "decoded": decoded,
        "bad value": outcome(lambda: serializer(bad, ctx)),
        "bad bytes": outcome(lambda: deserializer(NOT_FRAMED, ctx)),
    }


def in_memory(registry_url: str, subject_topic: str) -> dict[str, Any]:
    registry = SchemaRegistryClientConfig(url=registry_url)
    serialization = SchemaRegistrySerializationConfig(auto_register_schemas=True)
    # One subject per format: a registry refuses a JSON schema under a subject holding Avro.
    avro_ctx = SerializationContext(topic=f"{subject_topic}-avro", field="value")
    json_ctx = SerializationContext(topic=f"{subject_topic}-json", field="value")
    return {
        "avro (registry)": round_trip(
            AvroSerializer(AVRO_SCHEMA, schema_registry_client_config=registry,
                           schema_registry_serialization_config=serialization),
            AvroDeserializer(schema_registry_client_config=registry), RECORDS, BAD_AVRO, avro_ctx),
        "avro (schema only)": round_trip(
            AvroSerializer(AVRO_SCHEMA), AvroDeserializer(AVRO_SCHEMA), RECORDS, BAD_AVRO, avro_ctx),
        "json (registry)": round_trip(
            JSONSerializer(schema=JSON_SCHEMA, schema_registry_client_config=registry,
                           schema_registry_serialization_config=serialization),
            JSONDeserializer(schema=JSON_SCHEMA, schema_registry_client_config=registry),
            JSON_RECORDS, BAD_JSON, json_ctx),
        "json (schema only)": round_trip(
            JSONSerializer(schema=JSON_SCHEMA), JSONDeserializer(schema=JSON_SCHEMA),
            JSON_RECORDS, BAD_JSON, json_ctx),
    }


def through_broker(bootstrap: str, registry_url: str, prefix: str) -> dict[str, Any]:
    """Records through a topic whose value serializer is the registry's Avro or JSON one."""
    registry = SchemaRegistryClientConfig(url=registry_url)
    app = Application(broker_address=bootstrap, consumer_group=f"{prefix}-serdes", loglevel="WARNING",
                      auto_offset_reset="earliest")
    config = TopicConfig(num_partitions=1, replication_factor=1)
    topics = {
        "avro": app.topic(f"{prefix}-avro", config=config, key_serializer="str", key_deserializer="str",
                          value_serializer=AvroSerializer(AVRO_SCHEMA, schema_registry_client_config=registry),
                          value_deserializer=AvroDeserializer(schema_registry_client_config=registry)),
        "json": app.topic(f"{prefix}-json", config=config, key_serializer="str", key_deserializer="str",
                          value_serializer=JSONSerializer(schema=JSON_SCHEMA,
                                                          schema_registry_client_config=registry),
                          value_deserializer=JSONDeserializer(schema=JSON_SCHEMA,
                                                              schema_registry_client_config=registry)),
    }
    sent = {"avro": RECORDS, "json": JSON_RECORDS}
    with app.get_producer() as producer:
        for name, topic in topics.items():
            for i, record in enumerate(sent[name]):
                message = topic.serialize(key=record["sensor"], value=record, timestamp_ms=1_700_000_000_000 + i)
                producer.produce(topic=topic.name, key=message.key, value=message.value,
                                 timestamp=message.timestamp)
    result: dict[str, Any] = {}
    with app.get_consumer() as consumer:
        for name, topic in topics.items():
            consumer.assign([TopicPartition(topic.name, 0, OFFSET_BEGINNING)])
            rows = []
            while len(rows) < len(sent[name]):
                message = consumer.poll(10)
                if message is None:
                    rows.append({"timeout after": len(rows)})
                    break
                row = topic.deserialize(message)
                rows.append({"key": row.key, "value": row.value, "timestamp": row.timestamp,
                             "offset": message.offset(), "raw": message.value().hex()})
            result[name] = rows
    return result


def main(bootstrap: str, registry_url: str, subject_topic: str, prefix: str) -> dict[str, Any]:
    return {"in memory": in_memory(registry_url, subject_topic),
            "through the broker": through_broker(bootstrap, registry_url, prefix)}


if __name__ == "__main__":
    json.dump(main(*sys.argv[1:5]), sys.stdout, sort_keys=True, ensure_ascii=False)
