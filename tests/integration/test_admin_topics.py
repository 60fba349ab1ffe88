"""AdminClient on a real broker (tansu): topics, cluster, configs, offsets."""

from __future__ import annotations

import time
import uuid
from typing import Any, Dict

import pytest

from clients import future_results as results

from confluent_kafka import KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import (
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    DescribeClusterResult,
    ListOffsetsResultInfo,
    NewTopic,
    Node,
    OffsetSpec,
    ResourceType,
    TopicCollection,
    TopicDescription,
    Uuid,
)

TIMEOUT = 30


def errors(futures: Dict[Any, Any]) -> Dict[Any, KafkaError]:
    out = {}
    for k, f in futures.items():
        exc = f.exception(TIMEOUT)
        assert isinstance(exc, KafkaException), f"{k}: {exc!r}"
        out[k] = exc.args[0]
    return out


@pytest.fixture
def topic(admin: AdminClient, unique_topic: str) -> str:
    assert results(admin.create_topics([NewTopic(unique_topic, 3, 1)], operation_timeout=10)) == {unique_topic: None}
    return unique_topic


def test_create_list_and_delete_topics(admin: AdminClient) -> None:
    names = [f"adm-{uuid.uuid4().hex[:10]}" for _ in range(3)]
    created = admin.create_topics([NewTopic(n, i + 1, 1) for i, n in enumerate(names)], request_timeout=20)
    assert set(created) == set(names)
    assert results(created) == {n: None for n in names}

    md = admin.list_topics(timeout=10)
    for i, n in enumerate(names):
        assert n in md.topics
        assert len(md.topics[n].partitions) == i + 1

    assert results(admin.delete_topics(names, operation_timeout=10)) == {n: None for n in names}
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and set(names) & set(admin.list_topics(timeout=10).topics):
        time.sleep(0.2)
    assert not set(names) & set(admin.list_topics(timeout=10).topics)


def test_create_existing_topic_fails_that_topic_only(admin: AdminClient, topic: str) -> None:
    fresh = f"adm-{uuid.uuid4().hex[:10]}"
    fs = admin.create_topics([NewTopic(topic, 1, 1), NewTopic(fresh, 1, 1)])
    assert fs[fresh].result(TIMEOUT) is None
    err = fs[topic].exception(TIMEOUT)
    assert isinstance(err, KafkaException)
    assert err.args[0].code() == KafkaError.TOPIC_ALREADY_EXISTS
    results(admin.delete_topics([fresh]))


def test_create_topic_with_config(admin: AdminClient, unique_topic: str) -> None:
    results(admin.create_topics([NewTopic(unique_topic, 1, 1, config={"retention.ms": "3600000"})]))
    described = results(admin.describe_configs([ConfigResource(ResourceType.TOPIC, unique_topic)]))
    entries = described[ConfigResource("topic", unique_topic)]
    assert entries["retention.ms"].value == "3600000"


def test_delete_unknown_topic_reports_the_broker_error(admin: AdminClient) -> None:
    name = f"missing-{uuid.uuid4().hex}"
    assert errors(admin.delete_topics([name]))[name].code() == KafkaError.UNKNOWN_TOPIC_OR_PART


@pytest.mark.xfail(reason="tansu gap: CreateTopics ignores validate_only and creates the topic", strict=False)
def test_validate_only_creates_nothing(admin: AdminClient, unique_topic: str) -> None:
    assert results(admin.create_topics([NewTopic(unique_topic, 1, 1)], validate_only=True)) == {unique_topic: None}
    time.sleep(0.5)
    assert unique_topic not in admin.list_topics(timeout=10).topics


def test_describe_cluster(admin: AdminClient, kafka_bootstrap: str) -> None:
    result = admin.describe_cluster(request_timeout=20).result(TIMEOUT)
    assert isinstance(result, DescribeClusterResult)
    assert result.nodes and all(isinstance(n, Node) for n in result.nodes)
    host, port = kafka_bootstrap.rsplit(":", 1)
    assert any(n.host == host and n.port == int(port) for n in result.nodes)
    # Nodes are plain holders (identity equality, as upstream's): compare their fields.
    assert result.controller is None or result.controller.id in {n.id for n in result.nodes}
    assert result.cluster_id
    assert result.authorized_operations is None


def test_describe_topics(admin: AdminClient, topic: str) -> None:
    missing = f"missing-{uuid.uuid4().hex}"
    fs = admin.describe_topics(TopicCollection([topic, missing]))
    assert set(fs) == {topic, missing}
    desc = fs[topic].result(TIMEOUT)
    assert isinstance(desc, TopicDescription)
    assert desc.name == topic and desc.is_internal is False
    assert [p.id for p in desc.partitions] == [0, 1, 2]
    for p in desc.partitions:
        assert isinstance(p.leader, Node) and p.replicas and p.isr
    assert desc.topic_id is None or isinstance(desc.topic_id, Uuid)
    err = fs[missing].exception(TIMEOUT)
    assert isinstance(err, KafkaException)
    assert err.args[0].code() == KafkaError.UNKNOWN_TOPIC_OR_PART


def test_describe_topics_empty_collection(admin: AdminClient) -> None:
    assert admin.describe_topics(TopicCollection([])) == {}


def test_incremental_alter_and_describe_configs(admin: AdminClient, topic: str) -> None:
    res = ConfigResource("topic", topic)
    res.add_incremental_config(ConfigEntry("retention.ms", "7200000", incremental_operation=AlterConfigOpType.SET))
    res.add_incremental_config(ConfigEntry("cleanup.policy", "compact", incremental_operation=AlterConfigOpType.SET))
    assert results(admin.incremental_alter_configs([res])) == {res: None}

    described = results(admin.describe_configs([ConfigResource(ResourceType.TOPIC, topic)]))
    entries = described[res]
    assert entries["retention.ms"].value == "7200000"
    assert entries["cleanup.policy"].value == "compact"
    entry = entries["retention.ms"]
    # The source is librdkafka's int, as upstream leaves it; ConfigSource(...) names it.
    assert isinstance(entry, ConfigEntry) and isinstance(entry.source, int)
    assert isinstance(ConfigSource(entry.source), ConfigSource)
    assert repr(entry) == 'ConfigEntry(retention.ms="7200000")'

    delete = ConfigResource("topic", topic, incremental_configs=[
        ConfigEntry("cleanup.policy", None, incremental_operation=AlterConfigOpType.DELETE)])
    assert results(admin.incremental_alter_configs([delete])) == {delete: None}


def test_describe_configs_of_unknown_topic_fails_it(admin: AdminClient) -> None:
    res = ConfigResource("topic", f"missing-{uuid.uuid4().hex}")
    fs = admin.describe_configs([res])
    exc = fs[res].exception(TIMEOUT)
    if exc is None:
        pytest.xfail("tansu gap: DescribeConfigs of an unknown topic answers with no error")
    assert isinstance(exc, KafkaException)
    assert exc.args[0].code() == KafkaError.UNKNOWN_TOPIC_OR_PART


def test_list_offsets(admin: AdminClient, topic: str, kafka_bootstrap: str) -> None:
    p = Producer({"bootstrap.servers": kafka_bootstrap, "linger.ms": 0})
    for i in range(3):
        p.produce(topic, f"m{i}".encode(), partition=0)
        p.flush(10)  # one batch per message: tansu's LATEST is right for single-message batches
    p.close()
    tp = TopicPartition(topic, 0)
    earliest = results(admin.list_offsets({tp: OffsetSpec.earliest()}))[tp]
    latest = results(admin.list_offsets({tp: OffsetSpec.latest()}))[tp]
    assert isinstance(earliest, ListOffsetsResultInfo)
    assert earliest.offset == 0 and latest.offset == 3
    empty = TopicPartition(topic, 1)
    fs = admin.list_offsets({empty: OffsetSpec.latest(), TopicPartition(topic, 2): OffsetSpec.earliest()})
    assert [r.offset for r in results(fs).values()] == [0, 0]


@pytest.mark.xfail(reason="tansu gap: ListOffsets(MAX_TIMESTAMP) answers with no offset (-1001)", strict=False)
def test_list_offsets_max_timestamp(admin: AdminClient, topic: str, kafka_bootstrap: str) -> None:
    p = Producer({"bootstrap.servers": kafka_bootstrap})
    p.produce(topic, b"x", partition=0, timestamp=1_000_000)
    p.flush(10)
    p.close()
    tp = TopicPartition(topic, 0)
    assert results(admin.list_offsets({tp: OffsetSpec.max_timestamp()}))[tp].offset == 0


def test_list_offsets_of_unknown_partition(admin: AdminClient, topic: str) -> None:
    tp = TopicPartition(topic, 99)
    exc = admin.list_offsets({tp: OffsetSpec.latest()}, request_timeout=10)[tp].exception(TIMEOUT)
    assert isinstance(exc, KafkaException)
    assert isinstance(exc.args[0], KafkaError)


def test_results_arrive_without_poll_from_many_threads(admin: AdminClient, topic: str) -> None:
    import threading

    out = []

    def worker() -> None:
        out.append(admin.describe_topics(TopicCollection([topic]))[topic].result(TIMEOUT).name)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    assert out == [topic] * 8
