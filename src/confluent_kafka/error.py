"""Exception and error types of the client.

``KafkaError`` describes one error (a librdkafka or broker error code plus
text and flags); ``KafkaException`` is the exception that carries it as
``args[0]``.
"""

from .cimpl import KafkaError, KafkaException

__all__ = ["KafkaError", "KafkaException"]
