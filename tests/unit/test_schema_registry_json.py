"""The JSON Schema serializer and deserializer (sync and async) on the ``mock://`` registry:
framing, validation, references, subject name strategies, registration settings, and bad input."""

from __future__ import annotations

import json
import pickle
import struct
from typing import Any, Callable

import pytest

pytest.importorskip("jsonschema", reason="the json extra is not installed")

from serde_sides import SerdeSide, side_fixture  # noqa: E402

from confluent_kafka import SerializingProducer  # noqa: E402
from confluent_kafka.error import ValueSerializationError  # noqa: E402
from confluent_kafka.schema_registry import (  # noqa: E402
    Metadata,
    MetadataProperties,
    Schema,
    SchemaReference,
    SchemaRegistryClient,
    SchemaRegistryError,
    header_schema_id_serializer,
    record_subject_name_strategy,
    topic_record_subject_name_strategy,
)
from confluent_kafka.schema_registry.json_schema import (  # noqa: E402
    AsyncJSONDeserializer,
    AsyncJSONSerializer,
    JSONDeserializer,
    JSONSerializer,
    _resolve_named_schema,
)
from confluent_kafka.serialization import MessageField, SerializationContext, SerializationError  # noqa: E402

USER = json.dumps({"title": "User", "type": "object", "properties": {
    "name": {"type": "string"}, "age": {"type": "integer", "minimum": 0},
    "tags": {"type": "array", "items": {"type": "string"}}}, "required": ["name"]})
USER_V2 = json.dumps({"title": "User", "type": "object", "properties": {
    "name": {"type": "string"}, "age": {"type": "integer"}, "email": {"type": "string"}},
    "required": ["name", "email"]})


class Side(SerdeSide):
    """The JSON Schema serdes, sync or async."""

    url = "mock://json"

    def serializer(self, schema: Any = USER, **kwargs: Any) -> Callable[..., Any]:
        client = kwargs.pop("client", self.client)
        return self.bound(self.pick(JSONSerializer, AsyncJSONSerializer)(schema, client, **kwargs))

    def deserializer(self, schema: Any = None, **kwargs: Any) -> Callable[..., Any]:
        kwargs.setdefault("schema_registry_client", self.client)
        return self.bound(self.pick(JSONDeserializer, AsyncJSONDeserializer)(schema, **kwargs))


side = side_fixture(Side)


def test_round_trip_with_prefix_framing(side: Side) -> None:
    data = side.serializer()({"name": "ann", "age": 30, "tags": ["é"]})
    assert data == b'\x00\x00\x00\x00\x01{"name":"ann","age":30,"tags":["\xc3\xa9"]}'
    assert side.deserializer()(data) == {"name": "ann", "age": 30, "tags": ["é"]}
    assert side.call("get_subjects") == ["users-value"]
    registered = side.call("get_latest_version", "users-value").schema
    assert registered.schema_type == "JSON" and json.loads(registered.schema_str)["title"] == "User"
    assert side.serializer()(None) is None and side.deserializer()(None) is None


def test_subject_name_strategies_use_the_title(side: Side) -> None:
    record = {"name": "a"}
    side.serializer(conf={"subject.name.strategy": record_subject_name_strategy})(record)
    side.serializer(conf={"subject.name.strategy": topic_record_subject_name_strategy})(record)
    side.serializer(conf={"subject.name.strategy.type": "TOPIC"})(record, SerializationContext("t", MessageField.KEY))
    assert sorted(side.call("get_subjects")) == ["User", "t-key", "users-User"]


def test_no_auto_register_needs_a_registered_schema(side: Side) -> None:
    ser = side.serializer(conf={"auto.register.schemas": False})
    with pytest.raises(SchemaRegistryError):
        ser({"name": "a"})
    side.call("register_schema", "users-value", Schema(USER, "JSON"))
    assert ser({"name": "a"})[:5] == b"\x00\x00\x00\x00\x01"


def test_use_latest_version_schema_id_and_metadata(side: Side) -> None:
    side.call("register_schema", "users-value", Schema(USER, "JSON"))
    side.call("register_schema", "users-value", Schema(USER_V2, "JSON", metadata=Metadata(
        None, MetadataProperties({"owner": "b"}), None)))
    latest = side.serializer(conf={"auto.register.schemas": False, "use.latest.version": True})
    assert latest({"name": "a", "email": "e"})[:5] == b"\x00\x00\x00\x00\x02"
    with pytest.raises(SerializationError, match="'email' is a required property"):
        latest({"name": "a"})  # validated against the latest version, not the serializer's schema
    pinned = side.serializer(conf={"auto.register.schemas": False, "use.schema.id": 1})
    assert pinned({"name": "a"})[:5] == b"\x00\x00\x00\x00\x01"
    tagged = side.serializer(conf={"auto.register.schemas": False, "use.latest.with.metadata": {"owner": "b"}})
    assert tagged({"name": "a", "email": "e"})[:5] == b"\x00\x00\x00\x00\x02"
    reader = side.deserializer(conf={"use.latest.version": True})
    with pytest.raises(SerializationError, match=r"failed at \$: 'email' is a required property"):
        reader(pinned({"name": "a"}))


def test_validate_flag(side: Side) -> None:
    data = side.serializer(conf={"validate": False})({"name": 5})
    assert data.endswith(b'{"name":5}')
    with pytest.raises(SerializationError, match="5 is not of type 'string'"):
        side.deserializer()(data)
    assert side.deserializer(conf={"validate": False})(data) == {"name": 5}


def test_header_guid_framing(side: Side) -> None:
    headers: list = []
    ctx = SerializationContext("users", MessageField.VALUE, headers)
    data = side.serializer(conf={"schema.id.serializer": header_schema_id_serializer})({"name": "a"}, ctx)
    assert data == b'{"name":"a"}'
    (key, value), = headers
    assert key == "__value_schema_id" and value[0] == 1 and len(value) == 17
    assert side.deserializer()(data, ctx) == {"name": "a"}


def test_references_resolve_through_the_registry(side: Side) -> None:
    address = json.dumps({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
    side.call("register_schema", "address", Schema(address, "JSON"))
    person = Schema(json.dumps({"title": "Person", "type": "object", "properties": {
        "home": {"$ref": "address.json"}}}), "JSON", [SchemaReference("address.json", "address", 1)])
    ser = side.serializer(person)
    data = ser({"home": {"city": "Oslo"}})
    assert side.deserializer()(data) == {"home": {"city": "Oslo"}}
    with pytest.raises(SerializationError, match=r"at \$\.home: 'city' is a required property"):
        ser({"home": {}})
    registry = side.run(_resolve_named_schema(person, side.client) if side.kind == "sync" else
                        __import__("confluent_kafka.schema_registry._async.json_schema",
                                   fromlist=["x"])._resolve_named_schema(person, side.client))
    assert registry.contents("address.json")["required"] == ["city"]


def test_to_dict_from_dict_and_codecs(side: Side) -> None:
    class User:
        def __init__(self, name: str) -> None:
            self.name = name

    ser = side.serializer(to_dict=lambda u, ctx: {"name": u.name}, json_encode=lambda v: json.dumps(v, indent=1))
    data = ser(User("bo"))
    assert data[5:] == b'{\n "name": "bo"\n}'
    seen: list = []
    de = side.deserializer(from_dict=lambda d, ctx: User(**d), json_decode=lambda b: seen.append(b) or json.loads(b))
    assert de(data).name == "bo" and seen == [data[5:]]


def test_deserializer_without_a_client_uses_its_schema(side: Side) -> None:
    data = side.serializer()({"name": "a"})
    de = side.deserializer(USER, schema_registry_client=None)
    assert de(data) == {"name": "a"}
    with pytest.raises(SerializationError, match=r"failed at \$\.age: -1 is less than the minimum of 0"):
        de(data[:5] + b'{"name":"a","age":-1}')


def test_deserializer_arguments_are_checked(side: Side) -> None:
    with pytest.raises(ValueError, match='schema_registry_client must be provided if "schema_str" is not provided'):
        side.deserializer(None, schema_registry_client=None)
    with pytest.raises(ValueError, match="is a Schema instance with references"):
        side.deserializer(Schema(USER, "JSON", [SchemaReference("a", "a", 1)]), schema_registry_client=None)
    with pytest.raises(TypeError, match="You must pass either str or Schema"):
        side.deserializer(5)
    with pytest.raises(ValueError, match="validate must be a boolean value"):
        side.deserializer(conf={"validate": "yes"})
    with pytest.raises(ValueError, match="Unrecognized properties: use.schema.id"):
        side.deserializer(conf={"use.schema.id": 1})


@pytest.mark.parametrize("conf,text", [
    ({"auto.register.schemas": "yes"}, "auto.register.schemas must be a boolean value"),
    ({"validate": 1}, "validate must be a boolean value"),
    ({"use.latest.version": True}, "cannot enable both use.latest.version and auto.register.schemas"),
    ({"use.latest.with.metadata": "x"}, "use.latest.with.metadata must be a dict value"),
    ({"validate.strict": True}, "Unrecognized properties: validate.strict"),
    ({"schema.id.serializer": 1}, "schema.id.serializer must be callable"),
])
def test_serializer_configuration_is_checked(side: Side, conf: dict, text: str) -> None:
    with pytest.raises(ValueError, match=text):
        side.serializer(conf=conf)


def test_a_record_that_fails_validation_names_what_failed(side: Side) -> None:
    with pytest.raises(SerializationError) as info:
        side.serializer()({"name": "a", "tags": ["x", 3]})
    assert str(info.value) == ("topic 'users' value: validating with JSON schema 'User' (id 1) failed at "
                               "$.tags[1]: 3 is not of type 'string'")
    assert info.value.path == "$.tags[1]" and info.value.reason == "3 is not of type 'string'"
    assert pickle.loads(pickle.dumps(info.value)).args == info.value.args
    with pytest.raises(TypeError, match="encoding as JSON for JSON schema 'User' .* failed: .*set") as enc:
        side.serializer(conf={"validate": False})({"name": {1}})
    assert not isinstance(enc.value, SerializationError)  # upstream's TypeError, which quixstreams lets through


def test_bad_payloads_are_named(side: Side) -> None:
    good = side.serializer()({"name": "a"})
    de = side.deserializer()
    with pytest.raises(SerializationError, match="cannot read the schema id framing: Invalid magic byte") as magic:
        de(b"\x07" + good[1:])
    assert "b'\\x07\\x00\\x00\\x00\\x01'" in str(magic.value)
    with pytest.raises(struct.error, match="cannot read the schema id framing") as short:
        de(b"\x00\x00")
    assert type(short.value) is struct.error  # what upstream raises there
    with pytest.raises(SchemaRegistryError, match=r"writer schema \(id 9\) is not in the Schema Registry") as unknown:
        de(b"\x00\x00\x00\x00\x09" + good[5:])
    assert not isinstance(unknown.value, SerializationError) and unknown.value.http_status_code == 404
    with pytest.raises(json.JSONDecodeError, match="decoding JSON written with JSON schema 'User' \\(id 1\\) failed") \
            as truncated:
        de(good[:-1])
    assert not isinstance(truncated.value, SerializationError) and truncated.value.pos == len(good) - 6
    assert (truncated.value.msg, truncated.value.lineno) == ("Expecting ',' delimiter", 1)  # upstream's attributes
    copied = pickle.loads(pickle.dumps(truncated.value))
    assert (type(copied), str(copied), copied.pos) == (type(truncated.value), str(truncated.value), len(good) - 6)
    assert str(pickle.loads(pickle.dumps(short.value))) == str(short.value)


def test_a_failing_record_produces_nothing() -> None:
    client = SchemaRegistryClient.new_client({"url": "mock://json-produce"})
    # The TOPIC strategy: the default (associated) one would wait for the cluster id of a broker
    # that is not there.
    serializer = JSONSerializer(USER, client, conf={"subject.name.strategy.type": "TOPIC"})
    producer = SerializingProducer({"bootstrap.servers": "127.0.0.1:1", "log_level": 0,
                                    "value.serializer": serializer})
    reports: list = []
    with pytest.raises(ValueSerializationError, match=r"\$\.age: 'x' is not of type 'integer'"):
        producer.produce("users", value={"name": "a", "age": "x"}, on_delivery=lambda e, m: reports.append(m))
    producer.purge()
    producer.flush(2)
    assert reports == []
    producer.produce("users", value={"name": "a", "age": 1}, on_delivery=lambda e, m: reports.append(m))
    producer.purge()
    producer.flush(2)
    assert [m.value() for m in reports] == [b'\x00\x00\x00\x00\x01{"name":"a","age":1}']


def test_context_is_needed_by_the_default_strategy(side: Side) -> None:
    with pytest.raises(ValueError, match="SerializationContext is required"):
        side.serializer()({"name": "a"}, None)
    assert side.serializer(conf={"subject.name.strategy": record_subject_name_strategy})({"name": "a"}, None)
