"""``repair_registry_file`` and ``serialized_form_op``: a registry's ``serialized`` form of a
Protobuf schema as Karapace makes it (see tests/registry/test_karapace_protobuf_forms.py for
the real registry) built back into the file its ``.proto`` text declares."""

from __future__ import annotations

import base64
from typing import Any, List, Tuple

import pytest

pytest.importorskip("google.protobuf", reason="the protobuf extra is not installed")

from google.protobuf import descriptor_pb2, descriptor_pool  # noqa: E402
from google.protobuf.internal import api_implementation  # noqa: E402

from confluent_kafka.schema_registry import RegisteredSchema, Schema  # noqa: E402
from confluent_kafka.schema_registry.common.protobuf import (  # noqa: E402
    is_map_field,
    repair_registry_file,
    serialized_form_op,
)
from confluent_kafka.schema_registry.common.serde import run_sync  # noqa: E402

F = descriptor_pb2.FieldDescriptorProto


def _protoc_file() -> descriptor_pb2.FileDescriptorProto:
    """A file as protoc writes it: a real oneof, then a synthetic one per proto3 optional, map
    entry types marked ``map_entry``."""
    file = descriptor_pb2.FileDescriptorProto(name="default", package="ex", syntax="proto3")
    msg = file.message_type.add(name="Order")
    msg.oneof_decl.add(name="pay")
    msg.field.add(name="card", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL, oneof_index=0)
    entry = msg.nested_type.add(name="PriceByIdEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    entry.field.add(name="value", number=2, type=F.TYPE_DOUBLE, label=F.LABEL_OPTIONAL)
    msg.field.add(name="price_by_id", number=2, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                  type_name=".ex.Order.PriceByIdEntry")
    line = msg.nested_type.add(name="Line")
    line.field.add(name="qty", number=1, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL, proto3_optional=True,
                   oneof_index=0)
    line.oneof_decl.add(name="_qty")
    msg.field.add(name="note", number=3, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL, proto3_optional=True,
                  oneof_index=1)
    msg.oneof_decl.add(name="_note")
    return file


def _karapace_form(file: descriptor_pb2.FileDescriptorProto) -> descriptor_pb2.FileDescriptorProto:
    """``file`` without what Karapace's ``serialized`` form leaves out."""
    stripped = descriptor_pb2.FileDescriptorProto()
    stripped.CopyFrom(file)

    def strip(msg: Any) -> None:
        for nested in msg.nested_type:
            nested.ClearField("options")
            strip(nested)
        synthetic = {i for i, d in enumerate(msg.oneof_decl) if d.name.startswith("_")}
        for fd in msg.field:
            if fd.HasField("oneof_index") and fd.oneof_index in synthetic:
                fd.ClearField("oneof_index")
        kept = [d for i, d in enumerate(msg.oneof_decl) if i not in synthetic]
        del msg.oneof_decl[:]
        msg.oneof_decl.extend(kept)

    for msg in stripped.message_type:
        strip(msg)
    return stripped


def _build(file: descriptor_pb2.FileDescriptorProto) -> Any:
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(file.SerializeToString())
    return pool.FindMessageTypeByName("ex.Order")


# protobuf's pure-Python implementation (the fallback where no upb wheel exists, as for
# free-threaded 3.13) checks less when it builds a descriptor: it accepts the Karapace form.
PURE_PYTHON_PROTOBUF = api_implementation.Type() == "python"


@pytest.mark.skipif(PURE_PYTHON_PROTOBUF, reason="protobuf runs its pure-Python implementation, which does "
                    "not check that a proto3_optional field is in a oneof")
def test_the_karapace_form_does_not_build() -> None:
    with pytest.raises(TypeError, match="proto3_optional was not in a oneof"):
        _build(_karapace_form(_protoc_file()))


def test_the_karapace_form_is_repaired_to_protocs() -> None:
    original = _protoc_file()
    stripped = _karapace_form(original)
    assert stripped != original
    assert repair_registry_file(stripped) is stripped
    assert stripped == original
    order = _build(stripped)
    assert is_map_field(order.fields_by_name["price_by_id"])
    assert order.fields_by_name["note"].has_presence and order.oneofs_by_name["pay"].fields[0].name == "card"


def test_a_form_with_nothing_missing_is_unchanged() -> None:
    original = _protoc_file()
    repaired = descriptor_pb2.FileDescriptorProto()
    repaired.CopyFrom(original)
    assert repair_registry_file(repaired) == original


def test_map_fields_named_as_in_proto_text_get_entry_types_after_the_declared_ones() -> None:
    file = descriptor_pb2.FileDescriptorProto(name="default", package="ex", syntax="proto3")
    msg = file.message_type.add(name="Order")
    msg.nested_type.add(name="Line").field.add(name="sku", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    msg.enum_type.add(name="Color").value.add(name="RED", number=0)
    msg.field.add(name="counts", number=1, label=F.LABEL_OPTIONAL, type_name="map<string, int64>")
    msg.field.add(name="by_id", number=2, label=F.LABEL_OPTIONAL, type_name="map<int32, Line>")
    msg.field.add(name="colors", number=3, label=F.LABEL_OPTIONAL, type_name="map<string,.ex.Order.Color>")
    order = _build(repair_registry_file(file))
    assert [n.name for n in order.nested_types] == ["Line", "CountsEntry", "ByIdEntry", "ColorsEntry"]
    counts, by_id, colors = (order.fields_by_name[n] for n in ("counts", "by_id", "colors"))
    assert all(is_map_field(f) for f in (counts, by_id, colors))
    assert counts.message_type.fields_by_name["value"].type == F.TYPE_INT64
    assert by_id.message_type.fields_by_name["key"].type == F.TYPE_INT32
    assert by_id.message_type.fields_by_name["value"].message_type.full_name == "ex.Order.Line"
    assert colors.message_type.fields_by_name["value"].enum_type.full_name == "ex.Order.Color"


def test_a_repeated_field_of_an_entry_lookalike_with_more_fields_stays_a_list() -> None:
    file = descriptor_pb2.FileDescriptorProto(name="default", package="ex", syntax="proto3")
    msg = file.message_type.add(name="Order")
    entry = msg.nested_type.add(name="ItemsEntry")
    for number, name in enumerate(("key", "value", "extra"), 1):
        entry.field.add(name=name, number=number, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    msg.field.add(name="items", number=1, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED, type_name="ItemsEntry")
    assert not is_map_field(_build(repair_registry_file(file)).fields_by_name["items"])


def test_proto2_optional_labels_are_not_proto3_optionals() -> None:
    file = descriptor_pb2.FileDescriptorProto(name="default", package="ex", syntax="proto2")
    file.message_type.add(name="Order").field.add(name="a", number=1, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL,
                                                   proto3_optional=True)
    order = _build(repair_registry_file(file))
    assert not order.oneofs and order.fields_by_name["a"].has_presence


class _Client:
    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.calls: List[Tuple[Any, ...]] = []

    def get_schema(self, schema_id: int, subject: Any = None, fmt: Any = None) -> Schema:
        self.calls.append((schema_id, subject, fmt))
        return Schema(self.answer, "PROTOBUF")


def test_a_version_answered_in_text_is_fetched_again_by_id_in_the_serialized_form() -> None:
    encoded = base64.b64encode(_protoc_file().SerializeToString()).decode()
    client = _Client(encoded)
    text = RegisteredSchema(schema_id=7, guid=None, subject="s", version=2,
                            schema=Schema('syntax = "proto3";\nmessage A {}\n', "PROTOBUF", []))
    got = run_sync(serialized_form_op(text), client)
    assert client.calls == [(7, "s", "serialized")]
    assert (got.schema.schema_str, got.schema_id, got.subject, got.version) == (encoded, 7, "s", 2)
    serialized = RegisteredSchema(schema_id=8, guid=None, subject="s", version=3, schema=Schema(encoded, "PROTOBUF"))
    assert run_sync(serialized_form_op(serialized), client) is serialized and len(client.calls) == 1
