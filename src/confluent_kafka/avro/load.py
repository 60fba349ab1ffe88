"""Parsing Avro schemas for the legacy API: the schema objects are the ``avro`` library's, as
upstream's are (``str(schema)`` is its JSON, ``schema.to_json()`` the parsed form), so that
code handing them to both APIs keeps working."""

from __future__ import annotations

from typing import Any

from confluent_kafka.avro.error import ClientError

__all__ = ["load", "loads"]

try:
    from avro import schema
    from avro.errors import SchemaParseException
except ImportError:  # pragma: no cover - the avro extra brings it
    schema = None  # type: ignore[assignment]


def _by_text(self: Any) -> int:
    return hash(str(self))


if schema is not None:
    # The legacy client keys its caches by schema object; hashing by the schema's JSON text makes
    # two parses of the same schema one key (what upstream sets up too).
    for _kind in (schema.RecordSchema, schema.PrimitiveSchema, schema.UnionSchema):
        _kind.__hash__ = _by_text  # type: ignore[method-assign]


def loads(schema_str: str) -> Any:
    """Parse an Avro schema from its JSON text.

    :param schema_str: the schema's JSON.
    :returns: the parsed schema (an ``avro.schema.Schema``).
    :raises ClientError: when the text is not a valid Avro schema.
    """
    try:
        return schema.parse(schema_str)
    except SchemaParseException as exc:
        raise ClientError("Schema parse failed: %s" % (exc,))


def load(fp: str) -> Any:
    """Parse an Avro schema from a file.

    :param fp: the file's path.
    :returns: the parsed schema (an ``avro.schema.Schema``).
    :raises ClientError: when the file's text is not a valid Avro schema.
    :raises OSError: when the file cannot be read.
    """
    with open(fp) as f:
        return loads(f.read())
