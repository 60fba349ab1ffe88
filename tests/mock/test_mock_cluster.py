"""MockCluster itself and the confluent_kafka.testing pytest plugin."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from typing import Any

import pytest

from confluent_kafka import Consumer, Producer
from confluent_kafka.testing import MockCluster

pytestmark = pytest.mark.mock


def test_bootstrap_servers_lists_loopback_brokers() -> None:
    with MockCluster(num_brokers=3) as mc:
        servers = mc.bootstrap_servers.split(",")
        assert len(servers) == 3
        for s in servers:
            host, port = s.rsplit(":", 1)
            assert host in ("127.0.0.1", "localhost")
            assert 0 < int(port) < 65536


def test_default_is_three_brokers() -> None:
    mc = MockCluster()
    try:
        assert len(mc.bootstrap_servers.split(",")) == 3
    finally:
        mc.close()


def test_create_topic_partitions(unique_topic: str) -> None:
    with MockCluster(1) as mc:
        mc.create_topic(unique_topic, partitions=6, replication_factor=1)
        p = Producer({"bootstrap.servers": mc.bootstrap_servers})
        try:
            md = p.list_topics(unique_topic, timeout=10)
            assert len(md.topics[unique_topic].partitions) == 6
        finally:
            p.close()


def test_close_is_idempotent_and_context_manager_closes() -> None:
    mc = MockCluster(1)
    mc.close()
    mc.close()
    with MockCluster(1) as mc2:
        assert mc2.bootstrap_servers
    with pytest.raises(RuntimeError):
        mc2.create_topic("t", 1)


def test_clients_in_the_same_process_share_a_cluster(unique_topic: str) -> None:
    with MockCluster(2) as mc:
        mc.create_topic(unique_topic, partitions=1)
        p = Producer({"bootstrap.servers": mc.bootstrap_servers})
        p.produce(unique_topic, b"shared")
        assert p.flush(30) == 0
        p.close()
        c = Consumer({"bootstrap.servers": mc.bootstrap_servers, "group.id": "g",
                      "auto.offset.reset": "earliest"})
        try:
            c.subscribe([unique_topic])
            deadline = time.monotonic() + 30
            msg = None
            while msg is None and time.monotonic() < deadline:
                m = c.poll(0.5)
                if m is not None and m.error() is None:
                    msg = m
            assert msg is not None and msg.value() == b"shared"
        finally:
            c.close()


@pytest.mark.parametrize("args,exc", [(("x",), TypeError), ((0,), ValueError), ((-1,), ValueError)])
def test_bad_arguments(args: tuple, exc: type) -> None:
    with pytest.raises(exc):
        MockCluster(*args)


def test_not_picklable() -> None:
    import pickle

    with MockCluster(1) as mc:
        with pytest.raises(TypeError):
            pickle.dumps(mc)


PLUGIN_TEST = textwrap.dedent(
    """
    from confluent_kafka import Producer
    from confluent_kafka.testing import MockCluster

    def test_uses_fixture(kafka_mock_cluster):
        assert isinstance(kafka_mock_cluster, MockCluster)
        got = []
        p = Producer({"bootstrap.servers": kafka_mock_cluster.bootstrap_servers})
        p.produce("plugin-topic", b"hi", on_delivery=lambda e, m: got.append((e, m.value())))
        assert p.flush(30) == 0
        p.close()
        assert got == [(None, b"hi")]
    """
)


def test_pytest_plugin_fixture(tmp_path: Any) -> None:
    (tmp_path / "test_plugin_user.py").write_text(PLUGIN_TEST)
    (tmp_path / "conftest.py").write_text(
        'pytest_plugins = ["confluent_kafka.testing.pytest_plugin"]\n')
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout


def test_push_request_errors_survives_a_list_that_shrinks_while_read() -> None:
    """Converting an item runs Python code (__index__) that may empty the list: the codes are
    read from a snapshot, never from freed list storage."""
    from confluent_kafka.testing import ApiKey

    errors: list = []

    class Shrinks:
        def __index__(self) -> int:
            errors.clear()
            return 6

    errors.extend([Shrinks()] + [7] * 1000)
    with MockCluster(1) as mc:
        mc.push_request_errors(ApiKey.PRODUCE, errors)
        mc.clear_request_errors(ApiKey.PRODUCE)
        with pytest.raises(OverflowError):
            mc.push_request_errors(ApiKey.PRODUCE, [2**40])
        with pytest.raises(TypeError):
            mc.push_request_errors(ApiKey.PRODUCE, ["x"])
        with pytest.raises(ValueError):
            mc.clear_request_errors(-1)


def test_cleared_request_errors_are_not_injected(unique_topic: str) -> None:
    from confluent_kafka import KafkaError
    from confluent_kafka.testing import ApiKey

    with MockCluster(1) as mc:
        mc.create_topic(unique_topic, 1)
        mc.push_request_errors(ApiKey.PRODUCE, [KafkaError.MSG_SIZE_TOO_LARGE])
        mc.clear_request_errors(ApiKey.PRODUCE)
        got: list = []
        p = Producer({"bootstrap.servers": mc.bootstrap_servers})
        p.produce(unique_topic, b"x", on_delivery=lambda e, m: got.append(e))
        assert p.flush(30) == 0
        p.close()
        assert got == [None]


def test_create_topic_refuses_sizes_the_mock_cannot_allocate() -> None:
    """librdkafka's mock aborts the process when a topic's partitions cannot be allocated."""
    with MockCluster(1) as mc:
        with pytest.raises(ValueError):
            mc.create_topic("huge", 2_000_000_000)
        with pytest.raises(ValueError):
            mc.create_topic("wide", 1, 1000)
        with pytest.raises(OverflowError):
            mc.create_topic("t", 2**40)
        mc.create_topic("fine", 16, 1)


def test_set_partition_leader_refuses_negative_partitions() -> None:
    """librdkafka indexes its partition array with the number unchecked: a negative partition
    corrupted the mock's memory and crashed the process later."""
    with MockCluster(2) as mc:
        mc.create_topic("t", 2, 2)
        for _ in range(3):
            with pytest.raises(ValueError):
                mc.set_partition_leader("t", -1, 1)
            with pytest.raises(ValueError):
                mc.set_partition_leader("x", -2, -2)
        with pytest.raises(ValueError):
            mc.set_partition_leader("t", 0, -5)
        with pytest.raises(ValueError):  # would auto-create a topic of 2e9 partitions
            mc.set_partition_leader("new", 2_000_000_000, 1)
        mc.set_partition_leader("t", 0, -1)  # leaderless: documented by librdkafka
        mc.set_partition_leader("t", 0, 2)
