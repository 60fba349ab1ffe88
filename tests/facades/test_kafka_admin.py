"""KafkaAdminClient of the kafka-python facade on the tansu broker: topics, configs, groups
(test_kafka_admin_extras.py has the rest of the client, and the comparison with kafka-python)."""
from __future__ import annotations

import uuid

import pytest

from confluent_kafka.compat import kafka
from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka import OffsetAndMetadata, TopicPartition
from confluent_kafka.compat.kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient, NewTopic


def test_topics_configs_groups(kafka_bootstrap, produce_native):
    admin = KafkaAdminClient(bootstrap_servers=kafka_bootstrap, request_timeout_ms=20000)
    name = f"admin-{uuid.uuid4().hex[:12]}"
    result = admin.create_topics([NewTopic(name, 2, 1)], wait_for_metadata=True)
    assert result["topics"][0]["name"] == name and result["topics"][0]["error_code"] == 0
    with pytest.raises(Errors.TopicAlreadyExistsError) as info:
        admin.create_topics([NewTopic(name, 2, 1)])
    assert info.value.errno == 36
    again = admin.create_topics([NewTopic(name, 2, 1)], raise_errors=False)
    assert again["topics"][0]["error_code"] == 36
    with pytest.raises(ValueError):
        admin.create_topics([NewTopic(name, 1, 1)], validate_only=True, wait_for_metadata=True)
    assert name in admin.list_topics()
    (desc,) = admin.describe_topics([name])
    assert desc["name"] == name and [p["partition_index"] for p in desc["partitions"]] == [0, 1]
    assert not desc["is_internal"] and desc["error_code"] == 0

    res = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, name)], config_filter="all")
    assert name in res["topic"]
    assert set(res["topic"][name]) == set(admin.describe_configs(
        [ConfigResource("topic", name)], config_filter="all")["topic"][name])
    with pytest.raises(ValueError):
        admin.describe_configs([ConfigResource("topic", name)], config_filter="sometimes")
    altered = admin.alter_configs([ConfigResource("topic", name, {"retention.ms": "3600000"})],
                                  raise_on_unknown=False)
    assert altered == {"topic": {name: "OK"}}
    after = admin.describe_configs([ConfigResource("topic", name)], config_filter="all")["topic"][name]
    assert after["retention.ms"]["value"] == "3600000"
    # librdkafka has no config API for broker loggers: kafka-python's error for a missing API
    with pytest.raises(Errors.IncompatibleBrokerVersion):
        admin.alter_configs([ConfigResource(ConfigResourceType.BROKER_LOGGER, "1", {"a": "b"})],
                            raise_on_unknown=False)
    synonyms = admin.describe_configs([ConfigResource("topic", name)], include_synonyms=True, config_filter="all")
    assert set(synonyms["topic"][name]) == set(after)
    assert all(isinstance(c["synonyms"], list) for c in synonyms["topic"][name].values())
    with pytest.raises(KeyError):
        ConfigResource("no-such-kind", name)

    produce_native(name, [b"a", b"b"])
    group = f"admin-g-{uuid.uuid4().hex[:8]}"
    consumer = kafka.KafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id=group, enable_auto_commit=False)
    consumer.commit({TopicPartition(name, 0): OffsetAndMetadata(2, "", -1)})
    consumer.close()
    offsets = admin.list_group_offsets({group: None})
    # tansu keeps no commit metadata and answers null, which kafka-python reports as None too
    assert offsets == {group: {TopicPartition(name, 0): OffsetAndMetadata(2, None, -1)}}
    assert admin.list_group_offsets(group) == offsets
    assert admin.list_consumer_group_offsets(group) == offsets[group]
    assert group in {g["group_id"] for g in admin.list_groups()}
    described = admin.describe_groups([group])
    assert described[group]["group_id"] == group and described[group]["members"] == []
    assert described[group]["error"] is None
    assert admin.delete_groups([group]) == {group: "OK"}

    deleted = admin.delete_topics([name])
    assert deleted["topics"] == [{"name": name, "topic_id": None, "error_code": 0, "error_message": None}]
    with pytest.raises(Errors.UnknownTopicOrPartitionError):
        admin.delete_topics([name])
    admin.close()
    admin.close()
    with pytest.raises(RuntimeError):  # kafka-python: RuntimeError('NetworkSelector closed!')
        admin.list_topics()


def test_admin_bad_options():
    with pytest.raises(Errors.KafkaConfigurationError, match="no_such"):
        KafkaAdminClient(bootstrap_servers="127.0.0.1:1", no_such=1)
    with pytest.raises(Errors.KafkaConfigurationError, match="ssl_context"):
        KafkaAdminClient(bootstrap_servers="127.0.0.1:1", ssl_context=object())
