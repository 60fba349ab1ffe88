"""``confluent.type``: Confluent's Protobuf value types (Decimal, Variant)."""
