"""Commit metadata on librdkafka's mock cluster: the text given as ``TopicPartition(...,
metadata=...)`` to commit() is what committed() reads back, for the committing consumer and for
another member of its group, until a later commit replaces it.

tansu drops it (docs/testing.md; the same round trip is an xfail in
tests/integration/test_consumer_offsets.py), so this tier is where it is checked."""

from __future__ import annotations

import time
import uuid
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

from confluent_kafka import Consumer, KafkaError, TopicPartition
from consumer_helpers import tps

pytestmark = pytest.mark.mock

PARTS = [0, 1]


@pytest.fixture
def topic(mock_cluster: Any, unique_topic: str) -> str:
    mock_cluster.create_topic(unique_topic, len(PARTS), 1)
    return unique_topic


def _group() -> str:
    return f"meta-{uuid.uuid4().hex[:12]}"


def _committed(c: Consumer, topic: str) -> Dict[int, Tuple[int, Optional[str]]]:
    return {tp.partition: (tp.offset, tp.metadata) for tp in c.committed(tps(topic, PARTS), timeout=10)}


def test_sync_commit_metadata_is_read_back(topic: str, make_consumer: Callable[..., Consumer]) -> None:
    group = _group()
    c = make_consumer({"group.id": group})
    res = c.commit(offsets=[TopicPartition(topic, 0, 5, metadata="checkpoint 5 \u00e9"), TopicPartition(topic, 1, 3)],
                   asynchronous=False)
    assert sorted((tp.partition, tp.offset, tp.error) for tp in res) == [(0, 5, None), (1, 3, None)]
    assert _committed(c, topic) == {0: (5, "checkpoint 5 \u00e9"), 1: (3, None)}

    # Another member of the group reads the same offsets and metadata.
    assert _committed(make_consumer({"group.id": group}), topic) == {0: (5, "checkpoint 5 \u00e9"), 1: (3, None)}

    # Each commit replaces the partition's metadata: none given, none kept; an empty one reads as None.
    c.commit(offsets=[TopicPartition(topic, 0, 6), TopicPartition(topic, 1, 4, metadata="")], asynchronous=False)
    assert _committed(c, topic) == {0: (6, None), 1: (4, None)}


def test_async_commit_metadata_is_read_back(topic: str, make_consumer: Callable[..., Consumer]) -> None:
    commits: List[Tuple[Optional[KafkaError], List[TopicPartition]]] = []
    c = make_consumer({"group.id": _group(), "on_commit": lambda err, parts: commits.append((err, parts))})
    long_text = "state:" + "x" * 1000
    assert c.commit(offsets=[TopicPartition(topic, 1, 9, metadata=long_text)]) is None
    deadline = time.monotonic() + 15
    while not commits and time.monotonic() < deadline:
        c.poll(0.1)
    assert commits, "on_commit never reported the asynchronous commit"
    err, parts = commits[-1]
    assert err is None
    assert [(tp.partition, tp.offset, tp.error) for tp in parts] == [(1, 9, None)]
    assert _committed(c, topic)[1] == (9, long_text)
