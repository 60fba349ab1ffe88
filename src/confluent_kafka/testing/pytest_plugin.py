"""pytest plugin with a fixture that provides an in-process mock Kafka cluster.

Enable it in a ``conftest.py``::

    pytest_plugins = ["confluent_kafka.testing.pytest_plugin"]

then ask for ``kafka_mock_cluster`` in a test::

    def test_send(kafka_mock_cluster):
        p = Producer({"bootstrap.servers": kafka_mock_cluster.bootstrap_servers})
"""

from __future__ import annotations

from typing import Iterator

import pytest

from . import MockCluster

__all__ = ["kafka_mock_cluster"]


@pytest.fixture
def kafka_mock_cluster() -> Iterator[MockCluster]:
    """A fresh three-broker mock cluster for one test, closed afterwards.

    Topics are created on first use with four partitions, or explicitly with
    ``kafka_mock_cluster.create_topic(name, partitions)``. Close every client
    that uses the cluster before the test ends.
    """
    cluster = MockCluster(num_brokers=3)
    try:
        yield cluster
    finally:
        cluster.close()
