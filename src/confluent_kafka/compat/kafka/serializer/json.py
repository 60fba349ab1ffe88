"""``kafka.serializer.json``: the JSON serializer (also in ``kafka.serializer``)."""
from confluent_kafka.compat.kafka.serializer import JsonSerializer

__all__ = ["JsonSerializer"]
