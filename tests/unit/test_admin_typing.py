"""Typed code using AdminClient checks cleanly with mypy --strict, and misuse is reported."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import textwrap

import pytest

import confluent_kafka
from typecheck import mypy_env

PKG = pathlib.Path(confluent_kafka.__file__).parent

SAMPLE = textwrap.dedent(
    """
    from concurrent.futures import Future
    from typing import Dict, List, Optional
    from confluent_kafka import KafkaException, TopicPartition
    from confluent_kafka.admin import (AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource,
                                       ConsumerGroupTopicPartitions, DescribeClusterResult, NewTopic,
                                       OffsetSpec, TopicCollection, TopicDescription)

    a = AdminClient({"bootstrap.servers": "127.0.0.1:1"})
    created: Dict[str, "Future[None]"] = a.create_topics([NewTopic("t", 3, 1)], request_timeout=1.0)
    for name, fut in created.items():
        try:
            fut.result()
        except KafkaException as e:
            print(name, e.args[0])
    cluster: DescribeClusterResult = a.describe_cluster().result()
    ids: List[int] = [n.id for n in cluster.nodes]
    desc: TopicDescription = a.describe_topics(TopicCollection(["t"]))["t"].result()
    leader_ports: List[Optional[int]] = [p.leader.port if p.leader else None for p in desc.partitions]
    res = ConfigResource("topic", "t")
    res.add_incremental_config(ConfigEntry("retention.ms", "1", incremental_operation=AlterConfigOpType.SET))
    a.incremental_alter_configs([res])[res].result()
    entries: Dict[str, ConfigEntry] = a.describe_configs([res])[res].result()
    offsets = a.list_offsets({TopicPartition("t", 0): OffsetSpec.latest()})
    latest: int = offsets[TopicPartition("t", 0)].result().offset
    grp = a.list_consumer_group_offsets([ConsumerGroupTopicPartitions("g")])["g"].result()
    print(ids, leader_ports, entries, latest, grp.topic_partitions, a.poll(0))
    a.close()
    """
)

BAD = textwrap.dedent(
    """
    from confluent_kafka.admin import AdminClient, NewTopic
    a = AdminClient()
    a.create_topics(NewTopic("t"))
    a.describe_cluster(request_timeout="soon")
    """
)


def _mypy(tmp_path: pathlib.Path, source: str) -> subprocess.CompletedProcess:
    pytest.importorskip("mypy")
    f = tmp_path / "sample.py"
    f.write_text(source)
    env = mypy_env(PKG)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / ".mypy_cache"),
         str(f)], capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)


def test_typed_usage_passes(tmp_path: pathlib.Path) -> None:
    result = _mypy(tmp_path, SAMPLE)
    assert result.returncode == 0, result.stdout + result.stderr


def test_misuse_is_reported(tmp_path: pathlib.Path) -> None:
    result = _mypy(tmp_path, BAD)
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'Argument 1 to "create_topics" of "AdminClient"' in result.stdout
    assert 'Argument "request_timeout" to "describe_cluster"' in result.stdout
