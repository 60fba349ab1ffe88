"""The Avro serializer and deserializer (sync and async) on the ``mock://`` registry: framing,
subject name strategies, registration settings, schema evolution on read, and bad input."""

from __future__ import annotations

import json
import pickle
import struct
from typing import Any, Callable

import pytest

pytest.importorskip("fastavro", reason="the avro extra is not installed")

from serde_sides import SerdeSide, side_fixture  # noqa: E402

from confluent_kafka.schema_registry import (  # noqa: E402
    Schema,
    SchemaReference,
    SchemaRegistryError,
    header_schema_id_serializer,
    record_subject_name_strategy,
    topic_record_subject_name_strategy,
)
from confluent_kafka.schema_registry.avro import (  # noqa: E402
    AsyncAvroDeserializer,
    AsyncAvroSerializer,
    AvroDeserializer,
    AvroSerializer,
)
from confluent_kafka.schema_registry.common.serde import framing_error, wrap_error  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext, SerializationError  # noqa: E402

USER = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
        '{"name":"age","type":"int"}]}')
USER_V2 = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
           '{"name":"age","type":"int"},{"name":"email","type":"string","default":"none"}]}')


class Side(SerdeSide):
    """The Avro serdes, sync or async."""

    url = "mock://avro"

    def serializer(self, *args: Any, **kwargs: Any) -> Callable[..., Any]:
        return self.bound(self.pick(AvroSerializer, AsyncAvroSerializer)(self.client, *args, **kwargs))

    def deserializer(self, *args: Any, **kwargs: Any) -> Callable[..., Any]:
        return self.bound(self.pick(AvroDeserializer, AsyncAvroDeserializer)(self.client, *args, **kwargs))


side = side_fixture(Side)


def test_round_trip_with_prefix_framing(side: Side) -> None:
    data = side.serializer(USER)({"name": "ann", "age": 30})
    assert data[:5] == b"\x00" + struct.pack(">I", 1)
    assert data[5:] == b"\x06ann\x3c"
    assert side.deserializer()(data) == {"name": "ann", "age": 30}
    assert side.call("get_subjects") == ["users-value"]
    assert side.serializer(USER)(None) is None and side.deserializer()(None) is None


def test_primitive_schema_and_key_subject(side: Side) -> None:
    key = SerializationContext("users", MessageField.KEY)
    data = side.serializer('"string"')("k1", key)
    assert side.call("get_subjects") == ["users-key"]
    assert side.call("get_latest_version", "users-key").schema.schema_str == '{"type":"string"}'
    assert side.deserializer()(data, key) == "k1"


def test_subject_name_strategies(side: Side) -> None:
    side.serializer(USER, conf={"subject.name.strategy": record_subject_name_strategy})({"name": "a", "age": 1})
    side.serializer(USER, conf={"subject.name.strategy": topic_record_subject_name_strategy})({"name": "a", "age": 1})
    side.serializer(USER, conf={"subject.name.strategy.type": "TOPIC"})({"name": "a", "age": 1})
    assert side.call("get_subjects") == ["ex.User", "users-ex.User", "users-value"]


def test_no_auto_register_needs_a_registered_schema(side: Side) -> None:
    ser = side.serializer(USER, conf={"auto.register.schemas": False})
    with pytest.raises(SchemaRegistryError):
        ser({"name": "a", "age": 1})
    side.call("register_schema", "users-value", Schema(USER))
    assert ser({"name": "a", "age": 1})[:5] == b"\x00\x00\x00\x00\x01"


def test_use_latest_version_and_use_schema_id(side: Side) -> None:
    side.call("register_schema", "users-value", Schema(USER))
    side.call("register_schema", "users-value", Schema(USER_V2))
    latest = side.serializer(USER, conf={"auto.register.schemas": False, "use.latest.version": True})
    data = latest({"name": "a", "age": 1, "email": "e"})
    assert data[:5] == b"\x00\x00\x00\x00\x02"
    pinned = side.serializer(USER, conf={"auto.register.schemas": False, "use.schema.id": 1})
    assert pinned({"name": "a", "age": 1})[:5] == b"\x00\x00\x00\x00\x01"


def test_schema_evolution_on_read(side: Side) -> None:
    old = side.serializer(USER)({"name": "a", "age": 1})
    assert side.deserializer(USER_V2)(old) == {"name": "a", "age": 1, "email": "none"}
    side.call("register_schema", "users-value", Schema(USER_V2))
    assert side.deserializer(conf={"use.latest.version": True})(old) == {"name": "a", "age": 1, "email": "none"}


def test_to_dict_and_from_dict(side: Side) -> None:
    class User:
        def __init__(self, name: str, age: int) -> None:
            self.name, self.age = name, age

    ser = side.serializer(USER, to_dict=lambda u, ctx: {"name": u.name, "age": u.age})
    de = side.deserializer(from_dict=lambda d, ctx: User(**d))
    back = de(ser(User("bo", 7)))
    assert (back.name, back.age) == ("bo", 7)


def test_header_guid_framing(side: Side) -> None:
    headers: list = []
    ctx = SerializationContext("users", MessageField.VALUE, headers)
    record = {"name": "annabel", "age": 1}
    data = side.serializer(USER, conf={"schema.id.serializer": header_schema_id_serializer})(record, ctx)
    assert data == b"\x0eannabel\x02"  # no prefix: the guid travels in the header
    (key, value), = headers
    assert key == "__value_schema_id" and value[0] == 1 and len(value) == 17
    assert side.deserializer()(data, ctx) == record


def test_references(side: Side) -> None:
    side.call("register_schema", "ex.User", Schema(USER))
    team = Schema('{"type":"record","name":"Team","namespace":"ex","fields":[{"name":"lead","type":"ex.User"}]}',
                  references=[SchemaReference("ex.User", "ex.User", 1)])
    data = side.serializer(team)({"lead": {"name": "a", "age": 2}})
    assert side.deserializer()(data) == {"lead": {"name": "a", "age": 2}}


@pytest.mark.parametrize("record,base,text", [
    ({"name": "a"}, ValueError, "no value and no default for age"),
    ({"name": 1, "age": 2}, TypeError, "must be string on field name"),
    ({"name": "a", "age": "x"}, TypeError, "on field age"),
])
def test_a_record_that_does_not_match_names_the_field(side: Side, record: Any, base: type, text: str) -> None:
    with pytest.raises(base) as info:
        side.serializer(USER)(record)
    # Exactly what upstream raises (fastavro's error), not also a SerializationError: code that
    # catches SerializationError around a serializer (quixstreams) must let it through as upstream's.
    assert type(info.value) is base and not isinstance(info.value, SerializationError)
    assert text in str(info.value) and "topic 'users' value" in str(info.value) and "ex.User" in str(info.value)


def test_bad_payloads_are_named(side: Side) -> None:
    good = side.serializer(USER)({"name": "a", "age": 1})
    de = side.deserializer()
    with pytest.raises(SerializationError, match="Expecting data framing of length 6 bytes"):
        de(b"\x00\x00\x01")
    with pytest.raises(SerializationError, match="cannot read the schema id framing: Invalid magic byte"):
        de(b"\x07" + good[1:])
    with pytest.raises(SchemaRegistryError, match=r"topic 'users' value: the payload's writer schema \(id 9\) is not "
                       r"in the Schema Registry: Schema Not Found") as info:
        de(b"\x00\x00\x00\x00\x09" + good[5:])
    assert not isinstance(info.value, SerializationError)
    assert (info.value.http_status_code, info.value.error_code, info.value.error_message) == \
        (404, 40400, "Schema Not Found")  # the registry's answer, as upstream's error carries it
    copied = pickle.loads(pickle.dumps(info.value))
    assert (type(copied), str(copied), copied.error_code) == (type(info.value), str(info.value), 40400)
    with pytest.raises(EOFError, match="topic 'users' value: decoding with writer schema 'ex.User' \\(id 1\\) "
                       "failed") as eof:
        de(good[:-1])
    assert type(eof.value) is EOFError and isinstance(eof.value.__cause__, EOFError)


def test_framing_errors_keep_the_framing_codes_type() -> None:
    ctx = SerializationContext("users", MessageField.VALUE)
    for raised in (ValueError("bytes is not a 16-char string"), EOFError(), struct.error("unpack requires"),
                   SerializationError("Invalid magic byte")):
        named = framing_error(raised, ctx, b"\x01\x02")
        assert type(named) is type(raised)
        assert str(named).startswith("topic 'users' value: cannot read the schema id framing: "
                                     + (str(raised) or type(raised).__name__) + " (the payload starts with b'\\x01")
    other = KeyError("k")
    assert framing_error(other, ctx, b"") is other


def test_wrapped_codec_errors_keep_type_and_attributes() -> None:
    try:
        b"\xff".decode()
    except UnicodeDecodeError as exc:
        assert wrap_error(exc, None, "decoding") is exc  # its text does not come from args: left as it is
    decode_error = json.JSONDecodeError("Expecting value", "x", 0)
    named = wrap_error(decode_error, None, "decoding JSON")
    assert type(named) is json.JSONDecodeError and (named.msg, named.doc, named.pos) == ("Expecting value", "x", 0)
    assert str(named) == "decoding JSON failed: Expecting value: line 1 column 1 (char 0)"
    rule_error = SerializationError("a rule failed")
    assert wrap_error(rule_error, None, "encoding") is rule_error


@pytest.mark.parametrize("conf,text", [
    ({"auto.register.schemas": "yes"}, "auto.register.schemas must be a boolean value"),
    ({"use.latest.version": True}, "cannot enable both use.latest.version and auto.register.schemas"),
    ({"use.schema.id": "1"}, "use.schema.id must be an int value"),
    ({"subject.name.strategy": 3}, "subject.name.strategy must be callable"),
    ({"subject.name.strategy.type": "NONE"}, "NONE cannot be used"),
    ({"subject.name.strategy.type": "bogus"}, "Invalid subject.name.strategy.type"),
    ({"nope": 1}, "Unrecognized properties: nope"),
])
def test_serializer_configuration_is_checked(side: Side, conf: dict, text: str) -> None:
    with pytest.raises(ValueError, match=text):
        side.serializer(USER, conf=conf)
