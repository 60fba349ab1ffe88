"""Schema Registry options of the data source, and the schemas they name.

``valueFormat`` / ``keyFormat`` say how the value and key columns are encoded in Kafka:
``binary`` (the default: bytes as they are), or Confluent's framing (a zero byte and the 4-byte
schema id) before ``avro`` (the Avro binary encoding), ``json`` (JSON text, with a JSON Schema)
or ``protobuf`` (the message indexes, then the Protobuf encoding). The registry is configured with
``schema.registry.url`` and any other ``schema.registry.<key>`` option, handed to
:class:`~confluent_kafka.schema_registry.SchemaRegistryClient` as ``<key>`` (the way
``kafka.<key>`` options reach librdkafka).

Which schema a read decodes into, or a write encodes with, is looked up once where Spark plans
the query (:func:`resolve_read`, :func:`resolve_write`) and travels to the tasks as text, so
every task of a query uses the same one.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple

#: What ``valueFormat`` / ``keyFormat`` accept.
FORMATS = ("binary", "avro", "json", "protobuf")
#: The registry's schema type of each framed format.
SCHEMA_TYPES = {"avro": "AVRO", "json": "JSON", "protobuf": "PROTOBUF"}
#: ``<field>SubjectNameStrategy``: how the subject is named when ``<field>Subject`` is not set
#: (Confluent's TopicNameStrategy, RecordNameStrategy and TopicRecordNameStrategy).
STRATEGIES = {"topic": "topic", "topicnamestrategy": "topic", "record": "record",
              "recordnamestrategy": "record", "topic_record": "topic_record",
              "topicrecordnamestrategy": "topic_record"}
# Options of one format only (``<field><suffix>``), and the format they need.
_FORMAT_OPTIONS = {"AvroSchema": "avro", "JsonSchema": "json", "ProtobufMessage": "protobuf"}

#: ``mode``: what a read does with a record it cannot decode (Spark's ``from_avro`` names).
MODES = ("FAILFAST", "PERMISSIVE", "DROPMALFORMED")

PREFIX = "schema.registry."

# SchemaRegistryClient settings that are numbers (options arrive as strings).
_NUMBERS = ("timeout", "cache.capacity", "cache.latest.ttl.sec", "max.retries", "retries.wait.ms",
            "retries.max.wait.ms")


@dataclass(frozen=True)
class FieldFormat:
    """How one column (``key`` or ``value``) is encoded, with the options that pick its schema."""

    field: str
    format: str
    subject: Optional[str] = None
    schema_id: Optional[int] = None
    version: Optional[int] = None  # None: the latest
    avro_schema: Optional[str] = None  # writes: the schema to register instead of a derived one
    json_schema: Optional[str] = None  # the same for json
    protobuf_message: Optional[str] = None  # protobuf: the message type (full name) of the schema
    strategy: str = "topic"  # the subject name strategy: topic, record or topic_record

    @property
    def option_prefix(self) -> str:
        """``value`` or ``key``: the start of this column's option names."""
        return self.field


@dataclass(frozen=True)
class RegistryOptions:
    """The registry settings of a read or write with an ``avro`` key or value."""

    conf: Tuple[Tuple[str, Any], ...]
    key: Optional[FieldFormat]
    value: Optional[FieldFormat]
    mode: str = "FAILFAST"

    def client_conf(self) -> Dict[str, Any]:
        """The :class:`SchemaRegistryClient` configuration."""
        return dict(self.conf)

    def fields(self) -> List[FieldFormat]:
        """The encoded columns, key first."""
        return [f for f in (self.key, self.value) if f is not None]


def _int_option(o: Mapping[str, str], name: str, minimum: int) -> Optional[int]:
    raw = o.get(name.lower())
    if raw is None:
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        raise ValueError(f"option {name!r} must be an integer, not {raw!r}") from None
    if value < minimum:
        raise ValueError(f"option {name!r} must be at least {minimum}, not {value}")
    return value


def _field_format(o: Mapping[str, str], field: str, read: bool) -> Optional[FieldFormat]:
    name = f"{field}Format"
    raw = o.get(name.lower())
    fmt = "binary" if raw is None else raw.strip().lower()
    if fmt not in FORMATS:
        raise ValueError(f"option {name!r} must be one of {', '.join(FORMATS)}, not {raw!r}")
    opts = {k: f"{field}{k}" for k in ("Subject", "SchemaId", "SchemaVersion", "SubjectNameStrategy",
                                       *_FORMAT_OPTIONS)}
    if fmt == "binary":
        given = [v for v in opts.values() if v.lower() in o]
        if given:
            suffix = given[0][len(field):]
            needs = _FORMAT_OPTIONS.get(suffix)
            raise ValueError(f"option {given[0]!r} needs {name}=" + (needs or "avro, json or protobuf"))
        return None
    for suffix, needs in _FORMAT_OPTIONS.items():
        if needs != fmt and opts[suffix].lower() in o:
            raise ValueError(f"option {opts[suffix]!r} is for {name}={needs}, not {fmt}")
    schema_id = _int_option(o, opts["SchemaId"], 1)
    version_raw = o.get(opts["SchemaVersion"].lower())
    version = None if version_raw is None or version_raw.strip().lower() == "latest" else \
        _int_option(o, opts["SchemaVersion"], 1)
    if schema_id is not None and version_raw is not None:
        raise ValueError(f"options {opts['SchemaId']!r} and {opts['SchemaVersion']!r} both pick the schema: "
                         f"set one")
    given_schema = {"avro": "AvroSchema", "json": "JsonSchema"}.get(fmt)
    text = o.get(opts[given_schema].lower()) if given_schema else None
    if text is not None:
        option = opts[str(given_schema)]
        if read:
            raise ValueError(f"option {option!r} is for writes; a read decodes into a schema of "
                             f"the registry ({opts['SchemaId']} or {opts['Subject']} and {opts['SchemaVersion']})")
        if schema_id is not None or version_raw is not None:
            raise ValueError(f"option {option!r} registers a schema; it cannot be combined with "
                             f"{opts['SchemaId']} or {opts['SchemaVersion']}")
        try:
            json.loads(text)
        except ValueError as exc:
            raise ValueError(f"option {option!r} is not JSON: {exc}") from None
    message = o.get(opts["ProtobufMessage"].lower()) or None
    subject = o.get(opts["Subject"].lower()) or None
    raw_strategy = o.get(opts["SubjectNameStrategy"].lower())
    strategy = "topic" if raw_strategy is None else STRATEGIES.get(raw_strategy.strip().lower().replace("-", "_"))
    if strategy is None:
        raise ValueError(f"option {opts['SubjectNameStrategy']!r} must be topic, record or topic_record "
                         f"(TopicNameStrategy, RecordNameStrategy, TopicRecordNameStrategy), not {raw_strategy!r}")
    return FieldFormat(field, fmt, subject=subject, schema_id=schema_id, version=version,
                       avro_schema=text if fmt == "avro" else None, json_schema=text if fmt == "json" else None,
                       protobuf_message=message, strategy=strategy)


def _client_conf(o: Mapping[str, str]) -> Tuple[Tuple[str, Any], ...]:
    conf: Dict[str, Any] = {}
    for key, value in o.items():
        if not key.startswith(PREFIX):
            continue
        name = key[len(PREFIX):]
        if name in _NUMBERS:
            try:
                conf[name] = float(value) if "." in value else int(value)
            except ValueError:
                raise ValueError(f"option {key!r} must be a number, not {value!r}") from None
        else:
            conf[name] = value
    return tuple(sorted(conf.items()))


def parse_registry_options(o: Mapping[str, str], read: bool) -> Optional[RegistryOptions]:
    """The registry options among the lower-cased options ``o``, checked; None when neither the
    key nor the value is ``avro``, ``json`` or ``protobuf`` (then no registry option may be set, apart from ``mode``
    which is checked anyway).

    :param o: the options, keys lower-cased.
    :param read: a read (``mode`` allowed) or a write.
    :returns: the options, or None.
    :raises ValueError: naming the option that is wrong.
    """
    raw_mode = o.get("mode")
    mode = "FAILFAST"
    if raw_mode is not None:
        if not read:
            raise ValueError("option 'mode' is for reads (what to do with records that do not decode)")
        mode = raw_mode.strip().upper()
        if mode not in MODES:
            raise ValueError(f"option 'mode' must be one of {', '.join(MODES)}, not {raw_mode!r}")
    key, value = _field_format(o, "key", read), _field_format(o, "value", read)
    conf = _client_conf(o)
    if key is None and value is None:
        if conf:
            raise ValueError(f"option {PREFIX + conf[0][0]!r} needs valueFormat=avro or keyFormat=avro "
                             f"(or json, or protobuf)")
        return None
    if "url" not in dict(conf):
        which = value if value is not None else key
        assert which is not None
        raise ValueError(f"{which.field}Format={which.format} needs the option 'schema.registry.url'")
    return RegistryOptions(conf=conf, key=key, value=value, mode=mode)


# -- clients --------------------------------------------------------------------------------------

_clients: Dict[Tuple[int, Tuple[Tuple[str, Any], ...]], Any] = {}


def client(options: RegistryOptions) -> Any:
    """This process's :class:`SchemaRegistryClient` for ``options`` (made on first use, and
    again in a forked child). Its caches keep what tasks look up (schemas by id)."""
    from ..schema_registry import SchemaRegistryClient

    key = (os.getpid(), options.conf)
    found = _clients.get(key)
    if found is None:
        found = SchemaRegistryClient.new_client(options.client_conf())  # mock:// too (one per process)
        _clients[key] = found
    return found


# -- schemas --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ResolvedSchema:
    """The schema a column is read into or written with: its registry id, and its text with any
    references inlined (so it parses alone; Avro), or with the texts of the schemas it
    references (JSON Schema, Protobuf).

    For Protobuf, ``schema`` is the file's ``FileDescriptorProto`` in base64 (the registry's
    ``serialized`` form), ``references`` its imported files (dependencies first) and ``message``
    the full name of the message type the column holds.
    """

    field: str
    schema_id: int
    schema: str
    subject: Optional[str] = None
    version: Optional[int] = None
    format: str = "avro"
    references: Tuple[Tuple[str, str], ...] = ()
    message: Optional[str] = None

    def describe(self) -> str:
        """``schema id 7 (subject 'users-value' version 2)`` for messages."""
        where = f" (subject {self.subject!r} version {self.version})" if self.subject and self.version else ""
        return f"schema id {self.schema_id}{where}"


def _clean(parsed: Any) -> Any:
    """fastavro's parsed form without its private keys: valid Avro JSON data, every named type
    defined at its first use and named afterwards."""
    if isinstance(parsed, list):
        return [_clean(p) for p in parsed]
    if isinstance(parsed, dict):
        return {k: _clean(v) for k, v in parsed.items() if not k.startswith("__")}
    return parsed


def self_contained(schema: Any, registry: Any, what: str) -> str:
    """The text of the Avro :class:`~confluent_kafka.schema_registry.Schema` ``schema`` with
    its references (fetched from ``registry``) inlined.

    :raises ValueError: when the schema is not Avro.
    """
    from ..schema_registry.common.avro import _schema_loads, parse_schema_with_repo, resolve_named_schemas_op
    from ..schema_registry.common.serde import run_sync

    kind = (schema.schema_type or "AVRO").upper()
    if kind != "AVRO":
        raise ValueError(f"{what} is a {kind} schema, not Avro")
    if schema.schema_str is None:
        raise ValueError(f"{what} has no schema text")
    named = run_sync(resolve_named_schemas_op(schema), registry)
    prepared = _schema_loads(schema.schema_str).schema_str or ""
    return json.dumps(_clean(parse_schema_with_repo(prepared, named)), separators=(",", ":"))


def default_subject(field: FieldFormat, topics: Optional[List[str]], option_for_topics: str,
                    record_name: Optional[str] = None) -> str:
    """The subject of ``field``: its ``<field>Subject`` option, else the one its subject name
    strategy names: ``<topic>-<field>`` (topic, the default), ``<record name>`` (record) or
    ``<topic>-<record name>`` (topic_record), the topic being the one the query names.

    :param record_name: the full name of the record (Avro), the title (JSON Schema) or the
        message type (Protobuf) of the schema, where it is known.
    :raises ValueError: when the strategy needs a topic or a record name that is not known.
    """
    if field.subject:
        return field.subject
    option = f"{field.field}SubjectNameStrategy"
    if field.strategy != "topic" and not record_name:
        raise ValueError(f"set the option '{field.field}Subject' (or '{field.field}SchemaId'): with "
                         f"{option}={field.strategy} the subject names the record, which is only known here "
                         f"from a schema that a write registers")
    if field.strategy == "record":
        return str(record_name)
    if topics is not None and len(topics) == 1:
        return f"{topics[0]}-{field.field if field.strategy == 'topic' else record_name}"
    which = field.field if field.strategy == "topic" else "<record name>"
    raise ValueError(f"set the option '{field.field}Subject' (or '{field.field}SchemaId'): the subject "
                     f"'<topic>-{which}' is only taken by default when {option_for_topics} names one topic")


def record_name(field: FieldFormat, schema: Any) -> Optional[str]:
    """The name the record strategies give the schema ``schema`` (a registry
    :class:`~confluent_kafka.schema_registry.Schema`) of ``field``: the Avro record's full name,
    the JSON Schema's ``title``, the Protobuf message type's full name; None without one."""
    if field.format == "protobuf":
        from ._protobuf_codec import registered_protobuf

        return registered_protobuf(schema, None, "the schema", field.protobuf_message)[2]
    try:
        parsed = json.loads(schema.schema_str or "null")
    except ValueError:
        return None
    if not isinstance(parsed, dict):
        return None
    if field.format == "json":
        title = parsed.get("title")
        return title if isinstance(title, str) and title else None
    name = parsed.get("name")
    if not isinstance(name, str) or parsed.get("type") not in ("record", "enum", "fixed"):
        return None
    namespace = parsed.get("namespace")
    return name if "." in name or not namespace else f"{namespace}.{name}"


def resolve_read(options: RegistryOptions, topics: Optional[List[str]]) -> Dict[str, ResolvedSchema]:
    """The reader schema of each encoded column, from the registry: ``<field>SchemaId``, else
    version ``<field>SchemaVersion`` (default the latest) of the subject.

    :param options: the registry options.
    :param topics: the topics the read names (subscribe / assign), None for a pattern.
    :returns: ``{"key": ..., "value": ...}`` for the columns that are ``avro``.
    """
    registry = client(options)
    return {f.field: _resolve_registered(registry, f, topics, "the read") for f in options.fields()}


def _resolve_registered(registry: Any, field: FieldFormat, topics: Optional[List[str]],
                        what: str) -> ResolvedSchema:
    from ..schema_registry import SchemaRegistryError

    try:
        return _lookup_registered(registry, field, topics, what)
    except SchemaRegistryError as exc:
        if exc.http_status_code != 404:
            raise
        which = (f"schema id {field.schema_id}" if field.schema_id is not None else
                 f"subject {default_subject(field, topics, '')!r}"
                 + (f" version {field.version}" if field.version is not None else ""))
        raise ValueError(f"{field.field}Format={field.format}: the Schema Registry has no {which} ({exc}); "
                         f"{what} takes its {field.field} schema from there") from None


def _fetch_format(field: FieldFormat) -> Optional[str]:
    """The ``format`` a schema is fetched in: Protobuf as a base64 ``FileDescriptorProto``."""
    return "serialized" if field.format == "protobuf" else None


def _materialize(field: FieldFormat, schema: Any, registry: Any, what: str, schema_id: int,
                 subject: Optional[str] = None, version: Optional[int] = None) -> ResolvedSchema:
    """The :class:`ResolvedSchema` of the registry's ``schema`` for ``field``'s format.

    :raises ValueError: when the schema is of another type than the format.
    """
    kind = (schema.schema_type or "AVRO").upper()
    if kind != SCHEMA_TYPES[field.format]:
        raise ValueError(f"{field.field}Format={field.format}: {what} is a {kind} schema, "
                         f"not {SCHEMA_TYPES[field.format]}")
    if field.format == "avro":
        return ResolvedSchema(field.field, schema_id, self_contained(schema, registry, what), subject, version)
    if field.format == "json":
        from ._json_codec import registered_json

        text, refs = registered_json(schema, registry, what)
        return ResolvedSchema(field.field, schema_id, text, subject, version, "json", refs)
    from ._protobuf_codec import registered_protobuf

    text, refs, message = registered_protobuf(schema, registry, what, field.protobuf_message)
    return ResolvedSchema(field.field, schema_id, text, subject, version, "protobuf", refs, message)


def _lookup_registered(registry: Any, field: FieldFormat, topics: Optional[List[str]],
                       what: str) -> ResolvedSchema:
    fmt = _fetch_format(field)
    if field.schema_id is not None:
        schema = registry.get_schema(field.schema_id, fmt=fmt)
        return _materialize(field, schema, registry, f"schema id {field.schema_id}", field.schema_id)
    subject = default_subject(field, topics, "subscribe or assign" if what == "the read" else "the 'topic' option")
    registered = (registry.get_latest_version(subject, fmt=fmt) if field.version is None
                  else registry.get_version(subject, field.version, fmt=fmt))
    schema = registered.schema
    if fmt is not None:  # (Karapace honours the format only when a schema is fetched by id)
        schema = registry.get_schema(int(registered.schema_id), fmt=fmt)
    return _materialize(field, schema, registry, f"subject {subject!r} version {registered.version}",
                        int(registered.schema_id), subject, registered.version)


def resolve_write(options: RegistryOptions, topic: Optional[str], column_types: Dict[str, Any]) -> Dict[str, ResolvedSchema]:
    """The writer schema of each encoded column: ``<field>SchemaId``, or a version
    (``<field>SchemaVersion``) of the subject, or else the schema registered now under the
    subject: ``<field>AvroSchema`` / ``<field>JsonSchema`` if given, else the one derived from
    the column's Spark type (registering an identical schema again returns its id).

    :param options: the registry options.
    :param topic: the ``topic`` option, for the default subject ``<topic>-<field>``.
    :param column_types: the Spark type of the ``key`` / ``value`` columns.
    """
    registry = client(options)
    out: Dict[str, ResolvedSchema] = {}
    topics = [topic] if topic else None
    for f in options.fields():
        if f.field not in column_types:
            raise ValueError(f"{f.field}Format={f.format} needs a {f.field!r} column")
        if f.schema_id is not None or f.version is not None:
            out[f.field] = _resolve_registered(registry, f, topics, "the write")
            continue
        schema = _derived_schema(f, column_types[f.field])
        subject = default_subject(f, topics, "the 'topic' option", record_name(f, schema))
        registered = registry.register_schema_full_response(subject, schema)
        out[f.field] = _materialize(f, schema, registry, f"the schema of {f.field}", int(registered.schema_id),
                                    subject)
    return out


def _derived_schema(f: FieldFormat, spark_type: Any) -> Any:
    """The schema a write registers for column ``f``: the one given, else derived from its type."""
    from ..schema_registry import Schema

    if f.format == "avro":
        from ._avro_types import spark_to_avro

        text = f.avro_schema or json.dumps(spark_to_avro(spark_type), separators=(",", ":"))
        return Schema(text, "AVRO")
    if f.format == "json":
        from ._json_codec import spark_to_json_schema

        if f.json_schema:
            return Schema(f.json_schema, "JSON")
        derived = spark_to_json_schema(spark_type)
        if derived.get("type") == "object":  # the record name, as topLevelRecord for Avro
            derived = {"title": "topLevelRecord", **derived}
        return Schema(json.dumps(derived, separators=(",", ":")), "JSON")
    from ._protobuf_codec import spark_to_protobuf

    return spark_to_protobuf(spark_type, f.protobuf_message)
