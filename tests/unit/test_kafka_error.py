"""KafkaError and KafkaException: construction, comparison, class attributes, pickling."""

from __future__ import annotations

import copy
import pickle

import pytest

from confluent_kafka import KafkaError, KafkaException

# A sample of librdkafka error codes with their numeric values (from rdkafka.h).
KNOWN_CODES = {
    "_BAD_MSG": -199,
    "_BAD_COMPRESSION": -198,
    "_DESTROY": -197,
    "_FAIL": -196,
    "_TRANSPORT": -195,
    "_MSG_TIMED_OUT": -192,
    "_PARTITION_EOF": -191,
    "_UNKNOWN_PARTITION": -190,
    "_UNKNOWN_TOPIC": -188,
    "_ALL_BROKERS_DOWN": -187,
    "_INVALID_ARG": -186,
    "_TIMED_OUT": -185,
    "_QUEUE_FULL": -184,
    "_STATE": -172,
    "_PURGE_QUEUE": -152,
    "_PURGE_INFLIGHT": -151,
    "_FATAL": -150,
    "_NOT_CONFIGURED": -145,
    "UNKNOWN": -1,
    "NO_ERROR": 0,
    "OFFSET_OUT_OF_RANGE": 1,
    "UNKNOWN_TOPIC_OR_PART": 3,
    "LEADER_NOT_AVAILABLE": 5,
    "NOT_LEADER_FOR_PARTITION": 6,
    "REQUEST_TIMED_OUT": 7,
    "MSG_SIZE_TOO_LARGE": 10,
    "COORDINATOR_LOAD_IN_PROGRESS": 14,
    "COORDINATOR_NOT_AVAILABLE": 15,
    "NOT_COORDINATOR": 16,
    "TOPIC_EXCEPTION": 17,
    "NOT_ENOUGH_REPLICAS": 19,
    "ILLEGAL_GENERATION": 22,
    "UNKNOWN_MEMBER_ID": 25,
    "REBALANCE_IN_PROGRESS": 27,
    "TOPIC_AUTHORIZATION_FAILED": 29,
    "GROUP_AUTHORIZATION_FAILED": 30,
    "TOPIC_ALREADY_EXISTS": 36,
    "OUT_OF_ORDER_SEQUENCE_NUMBER": 45,
    "INVALID_PRODUCER_EPOCH": 47,
    "INVALID_TXN_STATE": 48,
    "PRODUCER_FENCED": 90,
}

LEGACY = {
    "GROUP_LOAD_IN_PROGRESS": 14,
    "GROUP_COORDINATOR_NOT_AVAILABLE": 15,
    "NOT_COORDINATOR_FOR_GROUP": 16,
}


@pytest.mark.parametrize("name,value", sorted(KNOWN_CODES.items()))
def test_class_attribute_values(name: str, value: int) -> None:
    assert getattr(KafkaError, name) == value


@pytest.mark.parametrize("name,value", sorted(LEGACY.items()))
def test_legacy_class_attributes(name: str, value: int) -> None:
    assert getattr(KafkaError, name) == value


def test_every_class_attribute_names_its_code() -> None:
    names = [n for n in dir(KafkaError) if n.lstrip("_").isupper() and not n.startswith("__")]
    codes = {n: getattr(KafkaError, n) for n in names if isinstance(getattr(KafkaError, n), int)}
    # librdkafka 2.8+ knows about 170 error codes.
    assert len(codes) >= 150
    for name, code in codes.items():
        if name in LEGACY or name in ("_BEGIN", "_END"):
            continue  # aliases, and the two range markers librdkafka gives no name
        assert KafkaError(code).name() == name


def test_defaults_from_librdkafka() -> None:
    err = KafkaError(KafkaError._MSG_TIMED_OUT)
    assert err.code() == -192
    assert err.name() == "_MSG_TIMED_OUT"
    assert err.str() == "Local: Message timed out"
    assert str(err) == 'KafkaError{code=_MSG_TIMED_OUT,val=-192,str="Local: Message timed out"}'
    assert err.fatal() is False
    assert err.retriable() is False
    assert err.txn_requires_abort() is False


def test_reason_and_flags() -> None:
    err = KafkaError(KafkaError.INVALID_TXN_STATE, "custom text", fatal=True, retriable=True,
                     txn_requires_abort=True)
    assert err.code() == KafkaError.INVALID_TXN_STATE
    assert err.name() == "INVALID_TXN_STATE"
    assert err.str() == "custom text"
    assert str(err) == 'KafkaError{FATAL,code=INVALID_TXN_STATE,val=48,str="custom text"}'
    assert err.fatal() is True
    assert err.retriable() is True
    assert err.txn_requires_abort() is True


def test_positional_flags() -> None:
    err = KafkaError(KafkaError._FAIL, "r", False, True, False)
    assert (err.fatal(), err.retriable(), err.txn_requires_abort()) == (False, True, False)


def test_repr_format() -> None:
    err = KafkaError(KafkaError._MSG_TIMED_OUT)
    assert repr(err) == 'KafkaError{code=_MSG_TIMED_OUT,val=-192,str="Local: Message timed out"}'


def test_equality_with_ints_and_errors() -> None:
    err = KafkaError(KafkaError._PARTITION_EOF)
    assert err == KafkaError._PARTITION_EOF
    assert err == -191
    assert KafkaError._PARTITION_EOF == err
    assert err != KafkaError._MSG_TIMED_OUT
    assert not (err != -191)
    assert err == KafkaError(KafkaError._PARTITION_EOF, "other text")
    assert err != KafkaError(KafkaError._MSG_TIMED_OUT)
    assert err != "x"
    assert err is not None


def test_hash_is_code_hash() -> None:
    err = KafkaError(KafkaError.UNKNOWN_TOPIC_OR_PART, "gone")
    assert hash(err) == hash(3)
    assert {err: "v"}[3] == "v"
    assert len({err, KafkaError(3), KafkaError(3, "x")}) == 1


def test_unknown_code_is_kept() -> None:
    err = KafkaError(12345)
    assert err.code() == 12345
    assert err == 12345
    assert isinstance(err.str(), str)


@pytest.mark.parametrize(
    "args,kwargs",
    [
        ((), {}),
        (("not an int",), {}),
        ((1.5,), {}),
        ((None,), {}),
        ((1, 2), {}),
        ((1,), {"unknown": True}),
        ((1, "r", "yes"), {}),
        ((1, "r", None), {}),
        ((1, "r", 0, 0, 0, 0), {}),
    ],
)
def test_bad_arguments(args: tuple, kwargs: dict) -> None:
    with pytest.raises(TypeError):
        KafkaError(*args, **kwargs)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_roundtrip(protocol: int) -> None:
    err = KafkaError(KafkaError._STATE, "in wrong state", fatal=True, retriable=False,
                     txn_requires_abort=True)
    back = pickle.loads(pickle.dumps(err, protocol))
    assert type(back) is KafkaError
    assert back.code() == err.code()
    assert back.name() == "_STATE"
    assert back.str() == "in wrong state"
    assert (back.fatal(), back.retriable(), back.txn_requires_abort()) == (True, False, True)


def test_pickle_default_reason() -> None:
    back = pickle.loads(pickle.dumps(KafkaError(KafkaError._TRANSPORT)))
    assert back.str() == KafkaError(KafkaError._TRANSPORT).str()


def test_copy_and_deepcopy() -> None:
    err = KafkaError(KafkaError._FAIL, "x", retriable=True)
    for c in (copy.copy(err), copy.deepcopy(err)):
        assert c == err and c.str() == "x" and c.retriable() is True


class TestKafkaException:
    def test_carries_error(self) -> None:
        err = KafkaError(KafkaError._INVALID_ARG, "bad thing")
        exc = KafkaException(err)
        assert exc.args[0] is err
        with pytest.raises(KafkaException) as info:
            raise exc
        assert info.value.args[0].code() == KafkaError._INVALID_ARG

    def test_str_argument(self) -> None:
        exc = KafkaException("just text")
        assert exc.args == ("just text",)

    @pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
    def test_pickle_roundtrip(self, protocol: int) -> None:
        exc = KafkaException(KafkaError(KafkaError._TIMED_OUT, "slow", retriable=True))
        back = pickle.loads(pickle.dumps(exc, protocol))
        assert type(back) is KafkaException
        assert isinstance(back.args[0], KafkaError)
        assert back.args[0].code() == KafkaError._TIMED_OUT
        assert back.args[0].str() == "slow"
        assert back.args[0].retriable() is True

    def test_catchable_as_exception(self) -> None:
        try:
            raise KafkaException(KafkaError(KafkaError._FAIL))
        except Exception as e:  # noqa: BLE001 - the point of the test
            assert isinstance(e, KafkaException)


def test_repr_and_str_of_a_reason_with_lone_surrogates() -> None:
    """repr() is what loggers and tracebacks call: it must not raise for any str reason."""
    from confluent_kafka import KafkaError

    err = KafkaError(KafkaError._FAIL, "bad \udcff text")
    assert "\udcff" in repr(err)
    assert str(err) == 'KafkaError{code=_FAIL,val=-196,str="bad \udcff text"}'
    assert err.str() == "bad \udcff text"


# ---- text, flags and construction as in confluent-kafka 2.x ---------------------------------------

def test_str_and_repr_are_the_same_form() -> None:
    err = KafkaError(KafkaError._TIMED_OUT)
    assert str(err) == repr(err) == 'KafkaError{code=_TIMED_OUT,val=-185,str="Local: Timed out"}'
    # Only fatal shows in the text; the other flags do not.
    assert str(KafkaError(1, "x", retriable=True, txn_requires_abort=True)) == \
        'KafkaError{code=OFFSET_OUT_OF_RANGE,val=1,str="x"}'
    assert str(KafkaError(1, "x", fatal=True)).startswith("KafkaError{FATAL,code=")
    assert str(KafkaError(1, "")) == 'KafkaError{code=OFFSET_OUT_OF_RANGE,val=1,str=""}'


def test_unknown_code_name_and_text() -> None:
    err = KafkaError(12345)
    assert err.name() == "ERR_12345?"
    assert str(err) == 'KafkaError{code=ERR_12345?,val=12345,str="Err-12345?"}'


def test_kafka_exception_reads_as_its_error() -> None:
    exc = KafkaException(KafkaError(KafkaError._TIMED_OUT, "r"))
    assert str(exc) == 'KafkaError{code=_TIMED_OUT,val=-185,str="r"}'
    assert repr(exc) == 'KafkaException(KafkaError{code=_TIMED_OUT,val=-185,str="r"})'
    assert str(KafkaException("text")) == "text"
    assert str(KafkaException()) == ""


NEWER_CODES = {
    "INCONSISTENT_TOPIC_ID": (103, "Broker: The log's topic ID did not match the topic ID in the request"),
    "MISMATCHED_ENDPOINT_TYPE": (114, "Broker: The request was sent to an endpoint of the wrong type"),
    "UNSUPPORTED_ENDPOINT_TYPE": (115, "Broker: This endpoint type is not supported yet"),
    "UNKNOWN_CONTROLLER_ID": (116, "Broker: This controller ID is not known"),
    "INVALID_REGISTRATION": (119, "Broker: The controller has considered the broker registration to be invalid"),
    "TRANSACTION_ABORTABLE": (120, "Broker: The server encountered an error with the transaction"),
    "INVALID_RECORD_STATE": (121, "Broker: The record state is invalid"),
    "SHARE_SESSION_NOT_FOUND": (122, "Broker: The share session was not found"),
    "INVALID_SHARE_SESSION_EPOCH": (123, "Broker: The share session epoch is invalid"),
    "FENCED_STATE_EPOCH": (124, "Broker: The share-group state epoch did not match"),
    "INVALID_VOTER_KEY": (125, "Broker: The voter key doesn't match the receiving replica's key"),
    "DUPLICATE_VOTER": (126, "Broker: The voter is already part of the set of voters"),
    "VOTER_NOT_FOUND": (127, "Broker: The voter is not part of the set of voters"),
    "INVALID_REGULAR_EXPRESSION": (128, "Broker: The regular expression is not valid"),
    "STREAMS_INVALID_TOPOLOGY": (130, "Broker: The supplied topology is invalid"),
    "STREAMS_INVALID_TOPOLOGY_EPOCH": (131, "Broker: The supplied topology epoch is invalid"),
    "STREAMS_TOPOLOGY_FENCED": (132, "Broker: The supplied topology epoch is outdated"),
    "SHARE_SESSION_LIMIT_REACHED": (133, "Broker: The limit of share sessions has been reached"),
}


@pytest.mark.parametrize("name,expected", sorted(NEWER_CODES.items()))
def test_protocol_codes_newer_than_librdkafka(name: str, expected: tuple) -> None:
    code, text = expected
    assert getattr(KafkaError, name) == code
    err = KafkaError(code)
    assert err.name() == name
    assert err.str() == text
    assert str(err) == f'KafkaError{{code={name},val={code},str="{text}"}}'


def test_docstring_lists_every_code() -> None:
    doc = KafkaError.__doc__ or ""
    for name in list(KNOWN_CODES) + list(NEWER_CODES):
        assert f"``{name}``" in doc, name
    assert "Local: Timed out" in doc


def test_fatal_code_alone_is_not_flagged_fatal() -> None:
    assert KafkaError(KafkaError._FATAL).fatal() is False
    assert KafkaError(KafkaError._FATAL, fatal=True).fatal() is True


def test_flags_are_ints() -> None:
    err = KafkaError(1, "r", fatal=2, retriable=1, txn_requires_abort=0)
    assert (err.fatal(), err.retriable(), err.txn_requires_abort()) == (True, True, False)


def test_first_parameter_is_error_and_code_is_accepted_too() -> None:
    assert KafkaError(error=KafkaError._FAIL).code() == KafkaError._FAIL
    assert KafkaError(code=KafkaError._FAIL, reason="r").str() == "r"
    with pytest.raises(TypeError, match="missing required argument 'error'"):
        KafkaError()


def test_reason_type_error_names_the_argument() -> None:
    with pytest.raises(TypeError, match="argument 2 must be str or None, not int"):
        KafkaError(1, 2)
    with pytest.raises(TypeError, match="argument 'reason' must be str or None, not bytes"):
        KafkaError(1, reason=b"x")


def test_fields_are_set_by_init_so_subclasses_choose_their_arguments() -> None:
    class WithText(KafkaError):
        def __init__(self, text: str) -> None:
            super().__init__(KafkaError._FAIL, text)

    class Bare(KafkaError):
        def __init__(self) -> None:
            pass

    assert WithText("m").str() == "m" and WithText("m") == KafkaError._FAIL
    assert Bare().code() == 0 and Bare().name() == "NO_ERROR"
    err = KafkaError(1, "a")
    err.__init__(2, "b")  # type: ignore[misc]
    assert (err.code(), err.str()) == (2, "b")


def test_reduce_carries_the_text_and_int_flags() -> None:
    assert KafkaError(1).__reduce__() == (KafkaError, (1, "Broker: Offset out of range", 0, 0, 0))
    assert KafkaError(1, "r", True, False, True).__reduce__() == (KafkaError, (1, "r", 1, 0, 1))


def test_comparing_with_non_ints_does_not_raise() -> None:
    err = KafkaError(KafkaError._TIMED_OUT)
    assert (err == None) is False  # noqa: E711
    assert (err == -185.0) is False
    assert (err != "x") is True
    with pytest.raises(TypeError):
        err < "x"  # noqa: B015
    assert hash(KafkaError(-1)) == -2


class TestClientErrors:
    def test_text_of_a_missing_exception_is_none(self) -> None:
        from confluent_kafka.error import KeySerializationError, ValueDeserializationError
        assert KeySerializationError().args[0].str() == "None"
        assert ValueDeserializationError(None).args[0].str() == "None"
        assert KeySerializationError(ValueError("bad")).args[0].str() == "bad"

    @pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
    def test_pickle_keeps_args_and_attributes(self, protocol: int) -> None:
        from confluent_kafka.error import ConsumeError, KeyDeserializationError
        for exc in (ConsumeError(KafkaError(KafkaError._PARTITION_EOF, "eof"), ValueError("v")),
                    KeyDeserializationError(TypeError("k"))):
            back = pickle.loads(pickle.dumps(exc, protocol))
            assert type(back) is type(exc)
            assert str(back) == str(exc)
            assert back.args[0].str() == exc.args[0].str()
            assert type(back.exception) is type(exc.exception) and str(back.exception) == str(exc.exception)
            assert back.kafka_message is None
            assert back.code == exc.code
