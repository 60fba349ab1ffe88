"""``kafka.serializer.default``: the str/bytes serializer (also in ``kafka.serializer``)."""
from confluent_kafka.compat.kafka.serializer import DefaultSerializer

__all__ = ["DefaultSerializer"]
