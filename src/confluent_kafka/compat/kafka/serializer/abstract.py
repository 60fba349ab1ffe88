"""``kafka.serializer.abstract``: the serializer interfaces (also in ``kafka.serializer``)."""
from confluent_kafka.compat.kafka.serializer import Deserializer, Serializer

__all__ = ["Deserializer", "Serializer"]
