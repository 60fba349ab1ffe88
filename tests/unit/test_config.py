"""Client configuration: dict/kwargs handling, type conversion, and config errors."""

from __future__ import annotations

import logging

import pytest

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer


def _close(client: object) -> None:
    client.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("cls", [Producer, Consumer])
def test_unknown_key_is_invalid_arg(cls: type) -> None:
    conf = {"no.such.property": "1", "group.id": "g"}
    with pytest.raises(KafkaException) as info:
        cls(conf)
    err = info.value.args[0]
    assert isinstance(err, KafkaError)
    assert err.code() == KafkaError._INVALID_ARG
    assert "no.such.property" in err.str()


@pytest.mark.parametrize(
    "key,value",
    [
        ("acks", "banana"),
        ("batch.size", "not-a-number"),
        ("compression.codec", "bzip9"),
        ("message.max.bytes", -5),
        ("enable.idempotence", "perhaps"),
    ],
)
def test_bad_value_is_invalid_arg(key: str, value: object) -> None:
    with pytest.raises(KafkaException) as info:
        Producer({key: value})
    assert info.value.args[0].code() == KafkaError._INVALID_ARG
    assert key in info.value.args[0].str()


def test_non_string_key_is_type_error() -> None:
    with pytest.raises(TypeError):
        Producer({1: "x"})


@pytest.mark.parametrize("value", [object(), [1, 2], (1,), {1, 2}])
def test_unsupported_value_type_is_type_error(value: object) -> None:
    with pytest.raises(TypeError):
        Producer({"client.id": value})


@pytest.mark.parametrize("conf", ["bootstrap.servers=x", ["a"], 5])
def test_conf_must_be_a_mapping(conf: object) -> None:
    with pytest.raises(TypeError):
        Producer(conf)


def test_scalar_values_are_converted() -> None:
    p = Producer({
        "enable.idempotence": True,
        "linger.ms": 0.5,
        "batch.num.messages": 1000,
        "client.id": "conv",
        "socket.nagle.disable": False,
    })
    _close(p)


def test_no_config_at_all() -> None:
    _close(Producer())
    _close(Producer({}))


def test_kwargs_merge_over_dict_verbatim() -> None:
    # The kwarg wins over the dict: the bad value is in the kwarg.
    with pytest.raises(KafkaException) as info:
        Producer({"acks": "all"}, **{"acks": "banana"})
    assert info.value.args[0].code() == KafkaError._INVALID_ARG
    # ...and here the good value in the kwarg replaces the bad dict value.
    _close(Producer({"acks": "banana"}, **{"acks": "all"}))
    # Keys are taken verbatim: an underscore spelling is not translated.
    with pytest.raises(KafkaException):
        Producer(bootstrap_servers="127.0.0.1:1")


def test_kwargs_only() -> None:
    _close(Producer(**{"client.id": "only-kwargs", "acks": 1}))


def test_conf_dict_is_not_modified() -> None:
    conf = {"client.id": "x", "error_cb": lambda e: None, "default.topic.config": {"acks": 1}}
    snapshot = dict(conf)
    _close(Producer(conf))
    assert conf == snapshot


@pytest.mark.parametrize("key", ["error_cb", "stats_cb", "throttle_cb", "on_delivery", "oauth_cb"])
def test_callback_keys_must_be_callable(key: str) -> None:
    with pytest.raises(TypeError):
        Producer({key: 5})


def test_on_commit_must_be_callable() -> None:
    with pytest.raises(TypeError):
        Consumer({"group.id": "g", "on_commit": "nope"})


def test_callables_accepted() -> None:
    p = Producer({
        "error_cb": lambda err: None,
        "stats_cb": lambda s: None,
        "throttle_cb": lambda ev: None,
        "on_delivery": lambda err, msg: None,
        "logger": logging.getLogger("test_config"),
        "delivery.report.only.error": True,
    })
    _close(p)
    c = Consumer({"group.id": "g", "on_commit": lambda err, parts: None,
                  "logger": logging.getLogger("test_config")})
    _close(c)


def test_logger_as_keyword() -> None:
    _close(Producer({"client.id": "x"}, logger=logging.getLogger("kw")))


def test_default_topic_config() -> None:
    _close(Producer({"default.topic.config": {"acks": "all", "message.timeout.ms": 1000}}))
    with pytest.raises(TypeError):
        Producer({"default.topic.config": "acks=all"})
    with pytest.raises(KafkaException) as info:
        Producer({"default.topic.config": {"no.such.topic.prop": 1}})
    assert info.value.args[0].code() == KafkaError._INVALID_ARG


def test_transactional_id_requires_idempotence_compatible_settings() -> None:
    # librdkafka rejects a transactional producer with acks=1 at construction.
    with pytest.raises(KafkaException) as info:
        Producer({"transactional.id": "t", "acks": 1})
    assert info.value.args[0].code() == KafkaError._INVALID_ARG


def test_consumer_without_group_id_can_be_created_but_not_subscribe() -> None:
    c = Consumer({"bootstrap.servers": "127.0.0.1:1", "log_level": 0})
    try:
        with pytest.raises(KafkaException):
            c.subscribe(["t"])
    finally:
        c.close()
