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


@pytest.mark.parametrize("key,value,wrapped", [
    ("queue.buffering.max.messages", 2**32 + 5, "5"),
    ("queue.buffering.max.messages", str(2**32 + 5), "5"),
    ("queue.buffering.max.messages", "0x100000005", "5"),
    ("queue.buffering.max.messages", "4294967301 ", "5"),  # librdkafka reads the leading number
    ("queue.buffering.max.messages", -2**32 + 5, "5"),
    ("message.timeout.ms", 2**32 + 5000, "5000"),  # a topic property on the client's configuration
])
def test_an_int_librdkafka_would_wrap_is_refused(key: str, value: object, wrapped: str) -> None:
    """librdkafka keeps int properties in 32 bits and casts what strtol() read: 2**32 + 5 would be
    taken as 5, silently, where 5 is in the property's range (the 2.16.1 wheel takes it so)."""
    for conf in ({key: value}, {"default.topic.config": {key: value}}):
        with pytest.raises(KafkaException) as info:
            Producer(conf)
        err = info.value.args[0]
        assert err.code() == KafkaError._INVALID_ARG
        assert err.str() == (f'Configuration property "{key}" value {value} does not fit the 32-bit int '
                             f"librdkafka keeps (it would be read as {wrapped})")


@pytest.mark.parametrize("conf", [
    {"client.id": 2**40}, {"client.id": str(2**40)}, {"client.id": 2**250}, {"client.id": "4294967301 x"},
    {"queue.buffering.max.messages": 2**31 - 1}, {"message.timeout.ms": 2**31 - 1},
])
def test_numbers_librdkafka_keeps_as_given_are_taken(conf: dict) -> None:
    """Only a number librdkafka would keep as another is refused: a text property keeps a large
    one as given, and int32's own bounds fit."""
    _close(Producer(conf))


def test_non_string_key_is_configured_by_its_str() -> None:
    """Keys and values go to librdkafka as str(): an int key names a property that does not exist."""
    with pytest.raises(KafkaException) as info:
        Producer({1: "x"})
    assert info.value.args[0].str() == 'No such configuration property: "1"'


@pytest.mark.parametrize("value", [object(), [1, 2], (1,), {1, 2}, b"x"])
def test_any_value_is_configured_by_its_str(value: object) -> None:
    _close(Producer({"client.id": value}))
    with pytest.raises(KafkaException) as info:
        Producer({"acks": value})
    assert info.value.args[0].code() == KafkaError._INVALID_ARG


@pytest.mark.parametrize("conf", ["bootstrap.servers=x", ["a"], 5, None])
def test_conf_must_be_a_dict(conf: object) -> None:
    with pytest.raises(TypeError, match="^expected configuration dict$"):
        Producer(conf)
    with pytest.raises(TypeError, match="^expected configuration dict$"):
        Consumer(conf, **{"group.id": "g"})


def test_two_positional_dicts() -> None:
    with pytest.raises(TypeError, match="^expected tuple containing single dict$"):
        Producer({}, {})


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
    """Producer() and Consumer() take a dict or keywords; with neither they raise TypeError."""
    for cls in (Producer, Consumer):
        with pytest.raises(TypeError, match="^expected configuration dict$"):
            cls()
    _close(Producer({}))
    _close(Producer(**{}))


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


@pytest.mark.parametrize("key,exc", [("error_cb", TypeError), ("stats_cb", TypeError), ("oauth_cb", TypeError),
                                     ("throttle_cb", ValueError)])
@pytest.mark.parametrize("value", [5, None])
def test_callback_keys_must_be_callable(key: str, exc: type, value: object) -> None:
    with pytest.raises(exc, match=f"^expected {key} property as a callable function$"):
        Producer({key: value})


@pytest.mark.parametrize("value", [5, None])
def test_on_delivery_and_on_commit_must_be_callable(value: object) -> None:
    with pytest.raises(KafkaException) as info:
        Producer({"on_delivery": value})
    assert info.value.args[0].code() == KafkaError._INVALID_ARG
    assert info.value.args[0].str() == "on_delivery requires a callable object"
    with pytest.raises(KafkaException) as info:
        Consumer({"group.id": "g", "on_commit": value})
    assert info.value.args[0].str() == "on_commit requires a callable object"


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
    with pytest.raises(AttributeError, match="'str' object has no attribute 'keys'"):
        Producer({"default.topic.config": "acks=all"})
    # Its items are checked like top-level ones.
    with pytest.raises(TypeError, match="expected error_cb property"):
        Producer({"default.topic.config": {"error_cb": 1}})
    with pytest.raises(KafkaException) as info:
        Producer({"default.topic.config": {"no.such.topic.prop": 1}})
    assert info.value.args[0].code() == KafkaError._INVALID_ARG


def test_transactional_id_requires_idempotence_compatible_settings() -> None:
    # librdkafka rejects a transactional producer with acks=1 at construction.
    with pytest.raises(KafkaException) as info:
        Producer({"transactional.id": "t", "acks": 1})
    assert info.value.args[0].code() == KafkaError._INVALID_ARG


@pytest.mark.parametrize("group", [{}, {"group.id": None}, {"group.id": ""}])
def test_consumer_needs_a_group_id(group: dict) -> None:
    with pytest.raises(ValueError, match="^Failed to create consumer: group.id must be set$"):
        Consumer({"bootstrap.servers": "127.0.0.1:1", "log_level": 0, **group})


# ---- None values, the text of each refusal, the logger bridge ---------------------------------

def test_none_unsets_a_property() -> None:
    """Values of None (os.getenv() of an unset variable) unset the property."""
    _close(Producer({"client.id": None, "bootstrap.servers": None, "sasl.password": None}))
    with pytest.raises(KafkaException) as info:
        Producer({"acks": None})
    assert info.value.args[0].str() == 'Integer configuration property "request.required.acks" cannot be set to empty value'
    # Two keys take None as the text "None", as confluent-kafka 2.x does.
    with pytest.raises(KafkaException, match='Invalid value "None" for configuration property "debug"'):
        Producer({"debug": None})


def test_logger_none_and_oddities() -> None:
    _close(Producer({"logger": None}))
    # Only used when something is logged (log_level 0: nothing is).
    _close(Producer({"logger": "not a logger", "log_level": 0}))


def test_delivery_report_only_error_must_be_a_bool() -> None:
    _close(Producer({"delivery.report.only.error": False}))
    for bad in ("true", 1, None):
        with pytest.raises(TypeError, match="^Expected delivery.report.only.error to be bool type, not "):
            Producer({"delivery.report.only.error": bad})


def test_creation_failure_names_the_client() -> None:
    with pytest.raises(KafkaException) as info:
        Producer({"transactional.id": "t", "enable.idempotence": False})
    assert info.value.args[0].str().startswith("Failed to create producer: ")
    with pytest.raises(KafkaException) as info:
        Consumer({"group.id": "g", "security.protocol": "SASL_PLAINTEXT", "sasl.mechanisms": "BOGUS"})
    assert info.value.args[0].str() == "Failed to create consumer: Unsupported SASL mechanism: BOGUS"


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_logger_receives_facility_client_name_and_text() -> None:
    handler = _Records()
    logger = logging.getLogger("test_config.bridge")
    logger.handlers[:] = [handler]
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    c = Consumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g", "client.id": "bridge",
                  "socket.timeout.ms": 100, "logger": logger})
    try:
        c.poll(0.3)
    finally:
        c.close()
    warn = [r for r in handler.records if r.args and r.args[0] == "CONFWARN"]
    assert warn, [r.getMessage() for r in handler.records]
    r = warn[0]
    assert r.name == "test_config.bridge" and r.levelno == logging.WARNING
    assert r.msg == "%s [%s] %s"
    assert r.args[1].startswith("bridge#consumer-")
    assert r.getMessage().startswith(f"CONFWARN [{r.args[1]}] [thrd:app]: Configuration property `fetch.wait.max.ms`")


def test_logger_without_log_method_fails_when_used() -> None:
    p = Producer({"bootstrap.servers": "127.0.0.1:1", "logger": 1, "debug": "generic"})
    with pytest.raises(AttributeError, match="'int' object has no attribute 'log'"):
        p.poll(0.2)
    with pytest.raises(AttributeError):
        p.close()  # serves the last logs: raises, and is closed all the same
    assert p.close() is True


def test_default_topic_config_any_mapping_and_no_endless_recursion() -> None:
    class Keyed:
        def keys(self) -> list:
            return ["acks"]

        def __getitem__(self, key: str) -> str:
            return "all"

    _close(Producer({"log_level": 0, "default.topic.config": Keyed()}))
    looped: dict = {}
    looped["default.topic.config"] = looped
    with pytest.raises(RecursionError):
        Producer(looped)


def test_a_key_or_value_whose_str_raises() -> None:
    class NoText:
        def __str__(self) -> str:
            raise ValueError("no text")

    for conf in ({NoText(): "x"}, {"client.id": NoText()}):
        with pytest.raises(ValueError, match="no text"):
            Producer(conf)
