"""The Protobuf serializer and deserializer (sync and async) on the ``mock://`` registry: the
message indexes, the schema and its imports registered as references, subject name strategies,
registration settings, Confluent's own Protobuf types, and bad input. The message types are
built from descriptors at run time (tests/protobuf_types.py)."""

from __future__ import annotations

import base64
import io
import struct
from decimal import Decimal
from typing import Any, Callable

import pytest

pytest.importorskip("google.protobuf", reason="the protobuf extra is not installed")

from protobuf_types import types  # noqa: E402
from serde_sides import SerdeSide, side_fixture  # noqa: E402

from confluent_kafka.schema_registry import (  # noqa: E402
    SchemaRegistryError,
    header_schema_id_serializer,
    record_subject_name_strategy,
)
from confluent_kafka.schema_registry.protobuf import (  # noqa: E402
    AsyncProtobufDeserializer,
    AsyncProtobufSerializer,
    ProtobufDeserializer,
    ProtobufSerializer,
    _create_index_array,
    _schema_to_str,
    _str_to_proto,
    decimal_to_protobuf,
    protobuf_to_decimal,
)
from confluent_kafka.schema_registry.serde import SchemaId  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext, SerializationError  # noqa: E402

T = types()
User, Other, Nick, Address, UserV2 = T["User"], T["Other"], T["Nick"], T["Address"], T["UserV2"]


def _user() -> Any:
    user = User(name="ann", age=3)
    user.address.city = "Oslo"
    user.born.seconds = 5
    return user


class Side(SerdeSide):
    """The Protobuf serdes, sync or async."""

    url = "mock://protobuf"

    def serializer(self, msg_type: Any = User, conf: Any = None) -> Callable[..., Any]:
        return self.bound(self.pick(ProtobufSerializer, AsyncProtobufSerializer)(msg_type, self.client, conf))

    def deserializer(self, msg_type: Any = User, conf: Any = None, client: Any = True) -> Callable[..., Any]:
        return self.bound(self.pick(ProtobufDeserializer, AsyncProtobufDeserializer)(
            msg_type, conf, self.client if client is True else client))


side = side_fixture(Side)


def test_round_trip_registers_the_file_and_its_imports(side: Side) -> None:
    data = side.serializer()(_user())
    # id 2 (ex/common.proto took id 1), message indexes [1] (User is the file's second message)
    assert data == bytes.fromhex("0000000002" "0202") + _user().SerializeToString()
    assert side.deserializer()(data) == _user()
    assert sorted(side.call("get_subjects")) == ["ex/common.proto", "users-value"]
    latest = side.call("get_latest_version", "users-value")
    assert latest.schema.schema_type == "PROTOBUF"
    assert latest.schema.schema_str == _schema_to_str(User.DESCRIPTOR.file)
    assert [(r.name, r.subject, r.version) for r in latest.schema.references] == [
        ("ex/common.proto", "ex/common.proto", 1)]  # google/protobuf/timestamp.proto is well known
    imported = side.call("get_latest_version", "ex/common.proto").schema
    assert _str_to_proto("x", imported.schema_str).message_type[0].name == "Address"
    assert side.serializer()(None) is None and side.deserializer()(None) is None


def test_message_indexes(side: Side) -> None:
    assert side.serializer(Other)(Other(x=1))[5:7] == b"\x00\x08"  # the first message: a single 0
    assert side.serializer(Nick)(Nick(nick="z"))[5:8] == b"\x04\x02\x00"  # [1, 0], zig-zag varints
    assert _create_index_array(Nick.DESCRIPTOR) == [1, 0] and _create_index_array(Other.DESCRIPTOR) == [0]
    assert side.deserializer(Nick)(side.serializer(Nick)(Nick(nick="z"))) == Nick(nick="z")


@pytest.mark.parametrize("indexes", [[0], [1], [1, 0], [3, 200, 70000], list(range(130))])
def test_index_arrays_round_trip(indexes: list) -> None:
    framed = SchemaId("PROTOBUF", 7, None, indexes).id_to_bytes()
    read = SchemaId("PROTOBUF")
    rest = read.from_bytes(io.BytesIO(framed + b"tail"))
    assert (read.id, read.message_indexes, rest.read()) == (7, indexes, b"tail")


def test_well_known_imports_are_registered_without_skip_known_types(side: Side) -> None:
    side.serializer(conf={"skip.known.types": False})(_user())
    assert sorted(side.call("get_subjects")) == ["ex/common.proto", "google/protobuf/timestamp.proto",
                                                 "users-value"]


def test_reference_subject_name_strategy(side: Side) -> None:
    seen: list = []

    def name(ctx: Any, dep: Any) -> str:
        seen.append((ctx.topic, dep.name))
        return "refs-" + dep.name

    side.serializer(conf={"reference.subject.name.strategy": name})(_user())
    assert seen == [("users", "ex/common.proto")]
    refs = side.call("get_latest_version", "users-value").schema.references
    assert [(r.name, r.subject) for r in refs] == [("ex/common.proto", "refs-ex/common.proto")]


def test_record_strategy_uses_the_full_name(side: Side) -> None:
    side.serializer(conf={"subject.name.strategy": record_subject_name_strategy})(_user())
    assert "ex.User" in side.call("get_subjects")


def test_no_auto_register_latest_version_and_schema_id(side: Side) -> None:
    with pytest.raises(SchemaRegistryError):
        side.serializer(conf={"auto.register.schemas": False})(_user())
    side.serializer()(_user())
    assert side.serializer(conf={"auto.register.schemas": False})(_user())[:5] == b"\x00\x00\x00\x00\x02"
    side.serializer(UserV2)(UserV2(name="b"))  # users-value version 2, id 3
    latest = side.serializer(conf={"auto.register.schemas": False, "use.latest.version": True})(_user())
    assert latest[:7] == b"\x00\x00\x00\x00\x03\x02\x02"
    pinned = side.serializer(conf={"auto.register.schemas": False, "use.schema.id": 2})(_user())
    assert pinned[:5] == b"\x00\x00\x00\x00\x02"


def test_header_guid_framing_carries_the_indexes(side: Side) -> None:
    headers: list = []
    ctx = SerializationContext("users", MessageField.VALUE, headers)
    data = side.serializer(Nick, conf={"schema.id.serializer": header_schema_id_serializer})(Nick(nick="z"), ctx)
    assert data == Nick(nick="z").SerializeToString()
    (key, value), = headers
    assert key == "__value_schema_id" and value[0] == 1 and len(value) == 17 + 3 and value[17:] == b"\x04\x02\x00"
    assert side.deserializer(Nick)(data, ctx) == Nick(nick="z")


def test_reading_into_a_later_version_and_without_a_client(side: Side) -> None:
    data = side.serializer()(_user())
    newer = side.deserializer(UserV2)(data)
    assert (newer.name, newer.email, newer.address.city) == ("ann", "", "Oslo")
    assert side.deserializer(client=None)(data) == _user()
    assert side.deserializer(conf={"use.latest.version": True})(data) == _user()


def test_configuration_is_checked(side: Side) -> None:
    with pytest.raises(ValueError, match="use.deprecated.format is no longer supported"):
        side.serializer(conf={"use.deprecated.format": True})
    with pytest.raises(ValueError, match="use.deprecated.format is no longer supported"):
        side.deserializer(conf={"use.deprecated.format": True})
    with pytest.raises(ValueError, match="use.deprecated.format must be a boolean value"):
        side.deserializer(conf={"use.deprecated.format": 1})
    with pytest.raises(ValueError, match="skip.known.types must be a boolean value"):
        side.serializer(conf={"skip.known.types": "no"})
    with pytest.raises(ValueError, match="reference.subject.name.strategy must be callable"):
        side.serializer(conf={"reference.subject.name.strategy": "x"})
    with pytest.raises(ValueError, match="Unrecognized properties: validate"):
        side.serializer(conf={"validate": True})
    side.deserializer(conf={"validate": True})  # upstream's Protobuf deserializer ignores unknown keys
    with pytest.raises(AttributeError, match="needs a Protobuf message class"):
        side.serializer(dict)


def test_a_message_of_another_type_is_refused(side: Side) -> None:
    with pytest.raises(ValueError, match="topic 'users' value: message must be of type") as info:
        side.serializer()(Other(x=1))
    assert type(info.value) is ValueError  # what upstream raises, not also a SerializationError
    assert side.call("get_subjects") == []  # nothing registered, nothing framed
    with pytest.raises(SerializationError, match="no schema id to frame ex.User with"):
        side.serializer()(_user(), None)


def test_bad_payloads_are_named(side: Side) -> None:
    good = side.serializer()(_user())
    de = side.deserializer()
    with pytest.raises(SerializationError, match="cannot read the schema id framing: Invalid magic byte"):
        de(b"\x07" + good[1:])
    with pytest.raises(struct.error, match="cannot read the schema id framing") as short:
        de(b"\x00\x00\x01")
    assert type(short.value) is struct.error
    with pytest.raises(EOFError, match="cannot read the schema id framing: Unexpected EOF while reading index") as eof:
        de(good[:5] + b"\x04\x02")
    assert type(eof.value) is EOFError
    with pytest.raises(SchemaRegistryError, match=r"writer schema \(id 9\) is not in the Schema Registry") as unknown:
        de(b"\x00\x00\x00\x00\x09" + good[5:])
    assert not isinstance(unknown.value, SerializationError)
    with pytest.raises(SerializationError, match="message index 5 out of range, schema has 2 top-level message"):
        de(good[:5] + b"\x02\x0a" + good[7:])
    with pytest.raises(SerializationError, match=r"decoding ex.User written as ex.User \(schema id 2\) failed"):
        de(good[:-3])


def test_schema_text_that_is_not_serialized_is_named() -> None:
    with pytest.raises(SerializationError, match="not a base64-encoded FileDescriptorProto"):
        _str_to_proto("default", 'syntax = "proto3"; message A {}')
    assert _str_to_proto("n", _schema_to_str(User.DESCRIPTOR.file)).name == "n"


def test_confluent_types_import_from_upstream_paths() -> None:
    from confluent_kafka.schema_registry.confluent import meta_pb2
    from confluent_kafka.schema_registry.confluent.type import decimal_pb2, decimal_utils
    from confluent_kafka.schema_registry.confluent.types import decimal_pb2 as legacy

    assert meta_pb2.DESCRIPTOR.name == "confluent/meta.proto" and meta_pb2.field_meta.number == 1088
    meta = meta_pb2.Meta(doc="d", tags=["PII"], params={"k": "v"})
    assert meta_pb2.Meta.FromString(meta.SerializeToString()).params["k"] == "v"
    assert legacy.Decimal is decimal_pb2.Decimal
    exact = decimal_utils.to_proto_decimal(Decimal("-1.50"))
    assert (exact.value, exact.precision, exact.scale) == (b"\xff\x6a", 3, 2)
    assert decimal_utils.from_proto_decimal(exact) == Decimal("-1.50")
    assert decimal_utils.unscaled_to_bytes(-128) == b"\x80" and decimal_utils.unscaled_to_bytes(128) == b"\x00\x80"
    scaled = decimal_to_protobuf(Decimal("1.5"), 3)
    assert (scaled.value, scaled.precision, scaled.scale) == (b"\x05\xdc", 4, 3)
    assert protobuf_to_decimal(scaled) == Decimal("1.500")
    assert decimal_to_protobuf(Decimal("1.50"), 1).value == b"\x0f"
    with pytest.raises(ValueError, match="Scale provided does not match the decimal"):
        decimal_to_protobuf(Decimal("1.55"), 1)


def test_a_schema_importing_confluent_types_resolves(side: Side) -> None:
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    from confluent_kafka.schema_registry.confluent import meta_pb2
    from confluent_kafka.schema_registry.confluent.type import decimal_pb2

    pool = descriptor_pool.DescriptorPool()
    for module in (descriptor_pb2, meta_pb2, decimal_pb2):
        pool.AddSerializedFile(module.DESCRIPTOR.serialized_pb)
    f = descriptor_pb2.FileDescriptorProto(name="ex/price.proto", package="ex", syntax="proto3",
                                           dependency=["confluent/meta.proto", "confluent/type/decimal.proto"])
    price = f.message_type.add(name="Price")
    amount = price.field.add(name="amount", number=1, type=descriptor_pb2.FieldDescriptorProto.TYPE_MESSAGE,
                             type_name=".confluent.type.Decimal",
                             label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    amount.options.Extensions[meta_pb2.field_meta].tags.append("PII")
    pool.AddSerializedFile(f.SerializeToString())
    Price = message_factory.GetMessageClass(pool.FindMessageTypeByName("ex.Price"))
    value = Price()
    value.amount.value = b"\x05"
    data = side.serializer(Price)(value)
    assert side.call("get_subjects") == ["users-value"]  # confluent/* files are never references
    assert side.deserializer(Price)(data).amount.value == b"\x05"


def test_schema_id_text_matches_the_wire() -> None:
    assert base64.b64decode(_schema_to_str(User.DESCRIPTOR.file)) == User.DESCRIPTOR.file.serialized_pb
