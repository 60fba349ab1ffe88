"""``kafka.version``: the kafka-python release whose API the facade offers."""
from confluent_kafka.compat.kafka._config import KAFKA_PYTHON_VERSION as __version__

__all__ = ["__version__"]
