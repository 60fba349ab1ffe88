"""The legacy (deprecated) Avro message serializer, :class:`MessageSerializer`.

It writes and reads the Confluent wire format (magic byte 0, the schema id as a big-endian
uint32, then the Avro binary encoding), the same bytes
:class:`confluent_kafka.schema_registry.avro.AvroSerializer` writes, so either side decodes the
other's messages. Records are encoded and decoded with fastavro; a writer schema fastavro cannot
read falls back to the ``avro`` library, as upstream does.

New code should use :class:`confluent_kafka.schema_registry.avro.AvroSerializer` and
:class:`~confluent_kafka.schema_registry.avro.AvroDeserializer`.
"""

from __future__ import annotations

import io
import json
import logging
import struct
import traceback
from typing import Any, Callable, Dict, Literal, Optional

import avro
import avro.io

from confluent_kafka.avro.error import ClientError
from confluent_kafka.avro.serializer import KeySerializerError, SerializerError, ValueSerializerError

__all__ = ["MessageSerializer", "MAGIC_BYTE"]

log = logging.getLogger(__name__)

#: The first byte of every message in the Confluent wire format.
MAGIC_BYTE = 0

_HEADER = struct.Struct(">bI")

try:
    from fastavro import parse_schema, schemaless_reader, schemaless_writer

    HAS_FAST = True
except ImportError:  # pragma: no cover - the avro extra brings fastavro
    HAS_FAST = False


class ContextStringIO(io.BytesIO):
    """A :class:`io.BytesIO` usable in a ``with`` statement (closed on exit)."""

    def __enter__(self) -> "ContextStringIO":
        return self

    def __exit__(self, *args: Any) -> Literal[False]:  # type: ignore[override]
        self.close()
        return False


def _fast(parsed: Any) -> Any:
    """fastavro's parsed form of an ``avro`` library schema."""
    return parse_schema(json.loads(str(parsed)))


class MessageSerializer:
    """Encodes records into, and decodes them from, Schema Registry framed Avro.

    :param registry_client: the :class:`~confluent_kafka.avro.CachedSchemaRegistryClient` to
        register and look schemas up with.
    :param reader_key_schema: the schema keys are decoded into (default: the writer's).
    :param reader_value_schema: the schema values are decoded into (default: the writer's).
    """

    def __init__(self, registry_client: Any, reader_key_schema: Any = None, reader_value_schema: Any = None) -> None:
        self.registry_client = registry_client
        self.id_to_decoder_func: Dict[int, Callable[[Any], Any]] = {}
        self.id_to_writers: Dict[int, Callable[[Any, Any], None]] = {}
        self.reader_key_schema = reader_key_schema
        self.reader_value_schema = reader_value_schema

    def _get_encoder_func(self, writer_schema: Any) -> Callable[[Any, Any], None]:
        if HAS_FAST:
            fast = _fast(writer_schema)
            return lambda record, out: schemaless_writer(out, fast, record)
        writer = avro.io.DatumWriter(writer_schema)
        return lambda record, out: writer.write(record, avro.io.BinaryEncoder(out))

    def encode_record_with_schema(self, topic: str, schema: Any, record: Any, is_key: bool = False) -> bytes:
        """Encode a record for a topic: the schema is registered (or, with
        ``auto.register.schemas`` off, looked up) under ``<topic>-key`` or ``<topic>-value``.

        :param topic: the topic.
        :param schema: the writer schema, as :func:`confluent_kafka.avro.loads` returns it.
        :param record: the record (a dict for a record schema).
        :param is_key: whether it is the message key.
        :returns: the framed bytes.
        :raises KeySerializerError: for a key when the registry returns no id.
        :raises ValueSerializerError: for a value when the registry returns no id.
        :raises ClientError: when the registry refuses the schema.
        """
        error = KeySerializerError if is_key else ValueSerializerError
        subject = topic + ("-key" if is_key else "-value")
        if self.registry_client.auto_register_schemas:
            schema_id = self.registry_client.register(subject, schema)
        else:
            schema_id = self.registry_client.check_registration(subject, schema)
        if not schema_id:
            raise error("Unable to retrieve schema id for subject %s" % (subject,))
        if schema_id not in self.id_to_writers:
            self.id_to_writers[schema_id] = self._get_encoder_func(schema)
        return self.encode_record_with_schema_id(schema_id, record, is_key=is_key)

    def encode_record_with_schema_id(self, schema_id: int, record: Any, is_key: bool = False) -> bytes:
        """Encode a record with the schema of an id (fetched from the registry once).

        :param schema_id: the schema id.
        :param record: the record.
        :param is_key: whether it is the message key.
        :returns: the framed bytes.
        :raises KeySerializerError: for a key whose schema does not exist or cannot be fetched.
        :raises ValueSerializerError: for a value whose schema does not exist or cannot be fetched.
        """
        error = KeySerializerError if is_key else ValueSerializerError
        if schema_id not in self.id_to_writers:
            try:
                schema = self.registry_client.get_by_id(schema_id)
                if not schema:
                    raise error("Schema does not exist")
                self.id_to_writers[schema_id] = self._get_encoder_func(schema)
            except ClientError as exc:
                raise error(repr(traceback.format_exception(type(exc), exc, exc.__traceback__)))
        writer = self.id_to_writers[schema_id]
        with ContextStringIO() as out:
            out.write(_HEADER.pack(MAGIC_BYTE, schema_id))
            writer(record, out)
            return out.getvalue()

    def _get_decoder_func(self, schema_id: int, payload: Any, is_key: bool = False) -> Callable[[Any], Any]:
        if schema_id in self.id_to_decoder_func:
            return self.id_to_decoder_func[schema_id]
        try:
            writer_schema = self.registry_client.get_by_id(schema_id)
        except ClientError as exc:
            raise SerializerError("unable to fetch schema with id %d: %s" % (schema_id, exc))
        if writer_schema is None:
            raise SerializerError("unable to fetch schema with id %d" % (schema_id,))
        reader_schema = self.reader_key_schema if is_key else self.reader_value_schema
        start = payload.tell()
        if HAS_FAST:
            # fastavro when it can read this payload (tried once, then rewound); otherwise the
            # avro library, whose errors then say what is wrong with the payload.
            try:
                fast_writer = _fast(writer_schema)
                fast_reader = _fast(reader_schema) if reader_schema is not None else None
                schemaless_reader(payload, fast_writer)
                payload.seek(start)

                def fast_decoder(p: Any) -> Any:
                    return schemaless_reader(p, fast_writer, fast_reader)

                self.id_to_decoder_func[schema_id] = fast_decoder
                return fast_decoder
            except Exception:  # noqa: BLE001 - any failure falls back to the avro library
                log.warning("Fast avro failed for schema with id %d, falling thru to standard avro" % (schema_id,))
        payload.seek(start)
        reader = avro.io.DatumReader(writer_schema, reader_schema)

        def decoder(p: Any) -> Any:
            return reader.read(avro.io.BinaryDecoder(p))

        self.id_to_decoder_func[schema_id] = decoder
        return decoder

    def decode_message(self, message: Optional[bytes], is_key: bool = False) -> Any:
        """Decode a framed message key or value.

        :param message: the bytes (None decodes to None).
        :param is_key: whether it is the message key (selects the reader schema).
        :returns: the decoded record.
        :raises SerializerError: when the bytes are too short, do not start with the magic
            byte, or name a schema the registry does not have.
        """
        if message is None:
            return None
        if len(message) <= 5:
            raise SerializerError("message is too small to decode")
        with ContextStringIO(message) as payload:
            magic, schema_id = _HEADER.unpack(payload.read(5))
            if magic != MAGIC_BYTE:
                raise SerializerError("message does not start with magic byte")
            return self._get_decoder_func(schema_id, payload, is_key)(payload)
