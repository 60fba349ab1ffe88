"""Helpers for testing code that uses this client without a real Kafka cluster.

:class:`MockCluster` starts librdkafka's in-process mock brokers; point any
Producer or Consumer at its ``bootstrap_servers``. For pytest, enable the
bundled plugin with ``pytest_plugins = ["confluent_kafka.testing.pytest_plugin"]``
to get the ``kafka_mock_cluster`` fixture.

:class:`ApiKey` names the Kafka request types that
:meth:`MockCluster.push_request_errors` takes, so a fault reads as what it is::

    cluster.push_request_errors(ApiKey.PRODUCE, [KafkaError.NOT_LEADER_FOR_PARTITION])
"""

from enum import IntEnum

from ..cimpl import MockCluster

__all__ = ["ApiKey", "MockCluster"]


class ApiKey(IntEnum):
    """Kafka protocol request types (API keys), for :meth:`MockCluster.push_request_errors`."""

    PRODUCE = 0
    FETCH = 1
    LIST_OFFSETS = 2
    METADATA = 3
    OFFSET_COMMIT = 8
    OFFSET_FETCH = 9
    FIND_COORDINATOR = 10
    JOIN_GROUP = 11
    HEARTBEAT = 12
    LEAVE_GROUP = 13
    SYNC_GROUP = 14
    DESCRIBE_GROUPS = 15
    LIST_GROUPS = 16
    SASL_HANDSHAKE = 17
    API_VERSIONS = 18
    INIT_PRODUCER_ID = 22
    OFFSET_FOR_LEADER_EPOCH = 23
    ADD_PARTITIONS_TO_TXN = 24
    ADD_OFFSETS_TO_TXN = 25
    END_TXN = 26
    TXN_OFFSET_COMMIT = 28
    CONSUMER_GROUP_HEARTBEAT = 68
