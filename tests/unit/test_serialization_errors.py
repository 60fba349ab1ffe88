"""The error types of confluent_kafka.error: hierarchy, codes, attached exception, pickling."""

from __future__ import annotations

import pickle

import pytest

from confluent_kafka import KafkaError, KafkaException, Message
from confluent_kafka.error import (
    ConsumeError,
    KeyDeserializationError,
    KeySerializationError,
    ProduceError,
    ValueDeserializationError,
    ValueSerializationError,
)
from confluent_kafka.serialization import SerializationError


@pytest.mark.parametrize("cls, base, code", [
    (KeySerializationError, ProduceError, KafkaError._KEY_SERIALIZATION),
    (ValueSerializationError, ProduceError, KafkaError._VALUE_SERIALIZATION),
    (KeyDeserializationError, ConsumeError, KafkaError._KEY_DESERIALIZATION),
    (ValueDeserializationError, ConsumeError, KafkaError._VALUE_DESERIALIZATION),
])
def test_serialization_errors_carry_code_cause_and_both_bases(cls: type, base: type, code: int) -> None:
    cause = ValueError("bad input")
    err = cls(cause)
    assert isinstance(err, base) and isinstance(err, SerializationError) and isinstance(err, KafkaException)
    assert err.code == code
    assert err.name == KafkaError(code).name()
    assert err.args[0].code() == code and err.args[0].str() == "bad input"
    assert err.exception is cause


def test_consume_error_keeps_the_message() -> None:
    msg = Message(topic="t", partition=0, offset=5, error=KafkaError(KafkaError._PARTITION_EOF))
    err = ConsumeError(KafkaError(KafkaError._PARTITION_EOF), kafka_message=msg)
    assert err.kafka_message is msg and err.exception is None
    assert err.code == KafkaError._PARTITION_EOF
    assert ValueDeserializationError(None, msg).kafka_message is msg


def test_produce_error_wraps_any_kafka_error() -> None:
    err = ProduceError(KafkaError(KafkaError._MSG_TIMED_OUT, "slow"))
    assert err.code == KafkaError._MSG_TIMED_OUT and err.exception is None


def test_errors_without_a_cause_still_work() -> None:
    err = KeySerializationError()
    assert err.exception is None and err.code == KafkaError._KEY_SERIALIZATION
    assert err.args[0].str() == "None"  # str(exception), as upstream


@pytest.mark.parametrize("make", [
    lambda: KeySerializationError(ValueError("k")),
    lambda: ValueDeserializationError(TypeError("v"), Message(topic="t", value=b"x")),
    lambda: ConsumeError(KafkaError(KafkaError._TRANSPORT, "down")),
    lambda: ProduceError(KafkaError(KafkaError._QUEUE_FULL)),
])
def test_errors_pickle_with_their_parts(make) -> None:  # type: ignore[no-untyped-def]
    err = make()
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is type(err)
    assert back.code == err.code and back.args[0].str() == err.args[0].str()
    assert type(back.exception) is type(err.exception)
    if err.kafka_message is not None:
        assert back.kafka_message.value() == err.kafka_message.value()


def test_serialization_error_pickles_through_the_constructor() -> None:
    # (class, constructor arguments, state): what upstream's classes of the same names take too.
    cls, args, state = KeySerializationError(ValueError("k")).__reduce__()
    assert cls is KeySerializationError and len(args) == 1 and isinstance(args[0], ValueError)
    assert set(state) == {"exception", "kafka_message"}
    cls, args, _ = ConsumeError(KafkaError(KafkaError._TRANSPORT)).__reduce__()
    assert cls is ConsumeError and args[0].code() == KafkaError._TRANSPORT


def test_error_module_reexports_the_core_types() -> None:
    import confluent_kafka.error as error

    assert error.KafkaError is KafkaError and error.KafkaException is KafkaException
