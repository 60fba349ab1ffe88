"""Helpers for testing code that uses this client without a real Kafka cluster.

:class:`MockCluster` starts librdkafka's in-process mock brokers; point any
Producer or Consumer at its ``bootstrap_servers``. For pytest, enable the
bundled plugin with ``pytest_plugins = ["confluent_kafka.testing.pytest_plugin"]``
to get the ``kafka_mock_cluster`` fixture.
"""

from ..cimpl import MockCluster

__all__ = ["MockCluster"]
