"""``aiokafka.producer`` of the aiokafka facade: ``AIOKafkaProducer``, defined in
``aiokafka.producer.producer`` as in aiokafka."""
from .producer import AIOKafkaProducer

__all__ = ["AIOKafkaProducer"]
