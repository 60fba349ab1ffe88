"""``confluent/meta.proto``: the ``confluent.Meta`` annotation (documentation, parameters, tags
and inline rules) that a schema attaches to files, messages, fields, enums and enum values
through the ``(confluent.file_meta)`` ... ``(confluent.enum_value_meta)`` options, and
``confluent.Rule``."""

from __future__ import annotations

from google.protobuf import descriptor_pb2 as google_dot_protobuf_dot_descriptor__pb2  # type: ignore[import-untyped,unused-ignore]  # noqa: F401,E501

from ._descriptors import add_to_default_pool, field, message, message_classes

_META_NUMBER = 1088

_file = google_dot_protobuf_dot_descriptor__pb2.FileDescriptorProto(
    name="confluent/meta.proto",
    package="confluent",
    dependency=["google/protobuf/descriptor.proto"],
    syntax="proto3",
    message_type=[
        message("Meta", [
            field("doc", 1, "string"),
            field("params", 2, "message", repeated=True, type_name=".confluent.Meta.ParamsEntry"),
            field("tags", 3, "string", repeated=True),
            field("rules", 4, "message", repeated=True, type_name=".confluent.Rule"),
        ], nested=[message("ParamsEntry", [field("key", 1, "string"), field("value", 2, "string")],
                           map_entry=True)]),
        message("Rule", [field("name", 1, "string"), field("doc", 2, "string"), field("expr", 3, "string"),
                         field("sql", 4, "string")]),
    ],
    extension=[
        field(name, _META_NUMBER, "message", type_name=".confluent.Meta", extendee=".google.protobuf." + options)
        for name, options in (("file_meta", "FileOptions"), ("message_meta", "MessageOptions"),
                              ("field_meta", "FieldOptions"), ("enum_meta", "EnumOptions"),
                              ("enum_value_meta", "EnumValueOptions"))
    ],
)
_file.options.go_package = "../confluent"

#: The file's descriptor, in the default pool.
DESCRIPTOR = add_to_default_pool(_file)
Meta, Rule = message_classes(DESCRIPTOR, "Meta", "Rule")

FILE_META_FIELD_NUMBER = _META_NUMBER
MESSAGE_META_FIELD_NUMBER = _META_NUMBER
FIELD_META_FIELD_NUMBER = _META_NUMBER
ENUM_META_FIELD_NUMBER = _META_NUMBER
ENUM_VALUE_META_FIELD_NUMBER = _META_NUMBER
file_meta = DESCRIPTOR.extensions_by_name["file_meta"]
message_meta = DESCRIPTOR.extensions_by_name["message_meta"]
field_meta = DESCRIPTOR.extensions_by_name["field_meta"]
enum_meta = DESCRIPTOR.extensions_by_name["enum_meta"]
enum_value_meta = DESCRIPTOR.extensions_by_name["enum_value_meta"]

del _file
