"""The kafka-python facade's option table: mapping, refusal of options with no equivalent, and the
docs page that lists it (no broker needed)."""
from __future__ import annotations

import pathlib
import socket

import pytest

from confluent_kafka.compat import kafka
from confluent_kafka.compat.kafka import _config
from confluent_kafka.compat.kafka import errors as Errors

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "kafka_python.md"
# What translate() passes for options left out (OBSERVED_DEFAULTS): kafka-python's defaults.
CONSUMER_OBSERVED = {"isolation.level": "read_uncommitted", "socket.nagle.disable": True}
PRODUCER_OBSERVED = {"linger.ms": 0, "max.in.flight.requests.per.connection": 5, "delivery.timeout.ms": 120000,
                     "socket.nagle.disable": True}


def test_docs_table_is_the_option_table():
    text = DOC.read_text(encoding="utf-8")
    start = text.index("<!-- option-table: start -->\n") + len("<!-- option-table: start -->\n")
    end = text.index("<!-- option-table: end -->")
    assert text[start:end] == _config.markdown_table()


def test_every_option_has_a_row_and_a_reason():
    for o in _config.OPTIONS.values():
        assert o.kind in ("librdkafka", "facade", "none"), o
        assert o.target, o
        if o.kind == "librdkafka":
            assert "." in o.target or o.target in ("acks", "retries", "partitioner"), o
    for client in (_config.CONSUMER, _config.PRODUCER, _config.ADMIN):
        assert list(_config.DEFAULTS[client]) == [o.name for o in _config.OPTIONS.values() if o.client == client]
    assert kafka.KafkaConsumer.DEFAULT_CONFIG is _config.DEFAULTS["consumer"]


@pytest.mark.parametrize("given, expected", [
    ({"bootstrap_servers": ["a:1", "b:2"]}, {"bootstrap.servers": "a:1,b:2"}),
    ({"auto_offset_reset": "smallest"}, {"auto.offset.reset": "earliest"}),
    ({"auto_offset_reset": "largest"}, {"auto.offset.reset": "latest"}),
    ({"auto_offset_reset": "none"}, {"auto.offset.reset": "error"}),
    ({"api_version": (2, 8, 1)}, {"broker.version.fallback": "2.8.1"}),
    ({"ssl_check_hostname": False}, {"ssl.endpoint.identification.algorithm": "none"}),
    ({"socket_options": [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]}, {"socket.nagle.disable": True}),
    ({"partition_assignment_strategy": [type("A", (), {"name": "roundrobin"})]},
     {"partition.assignment.strategy": "roundrobin"}),
    ({"isolation_level": "read_committed", "session_timeout_ms": 6000},
     {"isolation.level": "read_committed", "session.timeout.ms": 6000}),
    ({"receive_buffer_bytes": None, "group_id": None}, {}),
    ({"selector": _config.DEFAULT_SELECTOR, "ssl_context": None}, {}),   # defaults of "none" rows pass
])
def test_consumer_mapping(given, expected):
    conf, config = _config.translate("consumer", given)
    assert conf == {**CONSUMER_OBSERVED, **expected}
    assert all(config[k] is v for k, v in given.items())


@pytest.mark.parametrize("given, expected", [
    ({"acks": "all"}, {"acks": "all"}),
    ({"acks": -1}, {"acks": "all"}),
    ({"acks": 0}, {"acks": "0"}),
    ({"retries": float("inf")}, {"retries": 2147483647}),
    ({"compression_type": None}, {}),
    ({"compression_type": "zstd", "linger_ms": 5}, {"compression.type": "zstd", "linger.ms": 5}),
    ({"request_timeout_ms": 1000, "max_request_size": 10}, {"request.timeout.ms": 1000, "message.max.bytes": 1000}),
])
def test_producer_mapping(given, expected):
    assert _config.translate("producer", given)[0] == {**PRODUCER_OBSERVED, **expected}


def test_observed_defaults_are_kafka_pythons():
    """Left out, these take kafka-python's default, not librdkafka's (5 ms linger, Nagle on,
    read_committed, ...); every other option left out is not passed at all."""
    assert _config.translate("producer", {})[0] == PRODUCER_OBSERVED
    assert _config.translate("consumer", {})[0] == CONSUMER_OBSERVED
    assert _config.translate("admin", {})[0] == {"socket.nagle.disable": True}
    for client, names in _config.OBSERVED_DEFAULTS.items():
        for name in names:
            assert _config.option(client, name).kind == "librdkafka"


def _producer_idempotence(caplog, **configs):
    with caplog.at_level("WARNING"):
        producer = kafka.KafkaProducer(bootstrap_servers="127.0.0.1:1", **configs)
    try:
        return producer.config["enable_idempotence"], caplog.text
    finally:
        producer.close(timeout=0)


def test_idempotence_is_on_by_default_and_yields_to_a_conflict(caplog):
    assert _producer_idempotence(caplog) == (True, "")
    assert _producer_idempotence(caplog, acks="all", max_in_flight_requests_per_connection=5) == (True, "")
    on, text = _producer_idempotence(caplog, acks=1)
    assert not on and "Idempotence will be disabled" in text and "acks=1" in text
    caplog.clear()
    on, text = _producer_idempotence(caplog, api_version=(0, 10))
    assert not on and "api_version" in text
    assert _producer_idempotence(caplog, enable_idempotence=False)[0] is False


@pytest.mark.parametrize("configs, match", [
    ({"enable_idempotence": True, "acks": 1}, "incompatible with user-provided acks=1"),
    ({"enable_idempotence": True, "retries": 0}, "retries=0"),
    ({"transactional_id": "t", "max_in_flight_requests_per_connection": 6}, "max_in_flight"),
    ({"transactional_id": "t", "enable_idempotence": False}, "Cannot set transactional_id"),
    ({"enable_idempotence": True, "api_version": "0.10.2"}, "requires broker >= 0.11"),
])
def test_asked_for_idempotence_refuses_a_conflict(configs, match):
    with pytest.raises(Errors.KafkaConfigurationError, match=match):
        kafka.KafkaProducer(bootstrap_servers="127.0.0.1:1", **configs)


@pytest.mark.parametrize("client, name, value", [
    ("consumer", "selector", object()),
    ("consumer", "ssl_context", object()),
    ("producer", "proxy_url", "http://proxy:1"),
    ("admin", "metric_reporters", [object]),
    ("consumer", "metrics_num_samples", 5),
    ("consumer", "bootstrap_timeout_ms", 1),
    ("consumer", "enable_incremental_fetch_sessions", False),
    ("consumer", "sasl_kerberos_domain_name", "example.com"),
    ("consumer", "socket_options", [(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)]),
    ("consumer", "partition_assignment_strategy", [type("S", (), {"name": "sticky"})]),
    ("consumer", "auto_offset_reset", "sometimes"),
    ("producer", "acks", 2),
    ("producer", "compression_type", "brotli"),
    ("consumer", "bootstrap_servers", 42),
    ("consumer", "api_version", "x.y"),
])
def test_no_equivalent_is_refused_by_name(client, name, value):
    with pytest.raises((Errors.KafkaConfigurationError, ValueError)) as info:
        _config.translate(client, {name: value})
    assert name in str(info.value)


def test_unknown_options_refused_like_kafka_python():
    with pytest.raises(Errors.KafkaConfigurationError, match="bogus"):
        kafka.KafkaConsumer(bogus=1)
    with pytest.raises(ValueError, match="bogus"):
        kafka.KafkaProducer(bogus=1)
    with pytest.raises(Errors.KafkaConfigurationError, match="max_poll_records"):
        kafka.KafkaConsumer(bootstrap_servers="127.0.0.1:1", max_poll_records=0)
    with pytest.raises(Errors.KafkaConfigurationError, match="serializer"):
        kafka.KafkaProducer(bootstrap_servers="127.0.0.1:1", value_serializer=42)
    with pytest.raises(Errors.KafkaConfigurationError, match="token"):
        kafka.KafkaProducer(bootstrap_servers="127.0.0.1:1", sasl_oauth_token_provider=object())


def test_config_attribute_holds_defaults_and_given():
    consumer = kafka.KafkaConsumer(bootstrap_servers="127.0.0.1:1", group_id="g", fetch_min_bytes=7)
    try:
        assert consumer.config["fetch_min_bytes"] == 7
        assert consumer.config["session_timeout_ms"] == 45000
        assert consumer.config["group_id"] == "g"
    finally:
        consumer.close()


def test_errors_module():
    assert Errors.for_code(3) is Errors.UnknownTopicOrPartitionError
    assert issubclass(Errors.UnknownTopicOrPartitionError, Errors.InvalidMetadataError)
    assert Errors.UnknownTopicOrPartitionError.retriable and Errors.UnknownTopicOrPartitionError.invalid_metadata
    assert issubclass(Errors.TopicAuthorizationFailedError, Errors.AuthorizationError)
    assert Errors.RequestTimedOutError.retriable and not Errors.RequestTimedOutError.invalid_metadata
    assert Errors.CorruptRecordException is Errors.CorruptRecordError
    unknown = Errors.for_code(9999)
    assert issubclass(unknown, Errors.UnknownError) and unknown.errno == 9999
    assert str(Errors.for_code(36)("exists")) == "[Error 36] TopicAlreadyExistsError: exists"
    assert Errors.for_code(1).description == "Offset out of range"    # librdkafka's text
    assert Errors.KafkaError("a") == Errors.KafkaError("a") != Errors.KafkaTimeoutError("a")
    err = Errors.LogTruncationError({"tp": None})
    assert err.divergent_offsets == {"tp": None}
