"""``kafka.serializer.wrapper``: callables as serializers (also in ``kafka.serializer``)."""
from confluent_kafka.compat.kafka.serializer import DeserializeWrapper, SerializeWrapper

__all__ = ["DeserializeWrapper", "SerializeWrapper"]
