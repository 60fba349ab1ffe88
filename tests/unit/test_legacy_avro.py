"""Our side of the legacy confluent_kafka.avro package: what its registry client raises for a
registry it cannot reach, when it reads TLS files, its session's lifetime, the warnings and where
they point, the fastavro -> avro library fallback, and that its frames are the new
AvroSerializer's bytes. (tests/compat/scenarios/legacy_avro.py compares the rest with upstream.)"""

from __future__ import annotations

import gc
import logging
import os
import warnings
from typing import Any

import pytest

pytest.importorskip("fastavro", reason="the avro extra is not installed")
pytest.importorskip("avro", reason="the avro extra is not installed")
requests = pytest.importorskip("requests", reason="the avro extra is not installed")

import urllib3  # noqa: E402

from confluent_kafka.avro import (  # noqa: E402
    AvroConsumer,
    AvroProducer,
    CachedSchemaRegistryClient,
    ClientError,
    MessageSerializer,
    SerializerError,
    loads,
)
from confluent_kafka.schema_registry.common._httpx_compat import httpx  # noqa: E402

USER = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
        '{"name":"age","type":"int"}]}')
DOWN = "http://127.0.0.1:1"


def seeded(**ids: str) -> CachedSchemaRegistryClient:
    client = CachedSchemaRegistryClient({"url": DOWN})
    for schema_id, text in ids.items():
        client.id_to_schema[int(schema_id[1:])] = loads(text)
    return client


def test_unreachable_http_registry_raises_requests_connection_error() -> None:
    client = CachedSchemaRegistryClient({"url": DOWN})
    with pytest.raises(requests.exceptions.ConnectionError) as caught:
        client.register("t-value", loads(USER))
    assert isinstance(caught.value.__cause__, httpx.TransportError)


def test_unreachable_https_registry_raises_max_retry_error() -> None:
    client = CachedSchemaRegistryClient({"url": "https://127.0.0.1:1"})
    with pytest.raises(urllib3.exceptions.MaxRetryError) as caught:
        client.get_by_id(1)
    assert caught.value.url == "https://127.0.0.1:1/schemas/ids/1"


def test_https_with_a_key_password_goes_the_requests_way(tmp_path: Any) -> None:
    # Upstream sends https requests with a key password through requests: its error follows.
    client = CachedSchemaRegistryClient({"url": "https://127.0.0.1:1", "ssl.key.password": "pw"})
    with pytest.raises(requests.exceptions.ConnectionError):
        client._send_request("https://127.0.0.1:1/config")


def test_certificate_files_are_read_at_the_first_request(tmp_path: Any) -> None:
    missing_cert, missing_key = str(tmp_path / "c.pem"), str(tmp_path / "k.pem")
    client = CachedSchemaRegistryClient({"url": "https://127.0.0.1:1", "ssl.certificate.location": missing_cert,
                                         "ssl.key.location": missing_key})
    assert client._session is None
    with pytest.raises(OSError):
        client.get_compatibility()


def test_session_is_made_on_use_and_reopened_after_close() -> None:
    client = CachedSchemaRegistryClient({"url": DOWN})
    assert client._session is None
    first = client._http()
    assert client._http() is first
    client.close()
    client.close()
    assert client._session is None
    assert client._http() is not first
    with client as same:
        assert same is client
    assert client._session is None


def test_failed_constructor_leaves_nothing_for_del() -> None:
    with pytest.raises(TypeError):
        CachedSchemaRegistryClient({"url": 5})
    gc.collect()  # __del__ of the half-made client must not raise (unraisable warnings are errors)


def test_credentials_kept_out_of_the_url() -> None:
    client = CachedSchemaRegistryClient({"url": "http://a%3Ab:c%40d@h:1/x/#frag"})
    assert client.url == "http://h:1/x/"
    assert client._auth == ("a:b", "c@d")
    assert CachedSchemaRegistryClient({"url": "http://a@h:1/x"})._auth == ("", "")


def test_conf_dict_is_consumed_like_upstream() -> None:
    conf = {"url": DOWN, "auto.register.schemas": False}
    client = CachedSchemaRegistryClient(conf)
    assert conf == {} and client.auto_register_schemas is False


def test_warnings_point_at_the_caller() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        producer = AvroProducer({"bootstrap.servers": "127.0.0.1:1", "schema.registry.url": DOWN})
        consumer = AvroConsumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g", "schema.registry.url": DOWN})
        CachedSchemaRegistryClient(DOWN)
    consumer.close()
    producer.flush(0)
    assert [(w.category, os.path.basename(w.filename)) for w in seen] == [(DeprecationWarning, "test_legacy_avro.py")] * 3
    assert "Use AvroSerializer" in str(seen[0].message) and "Use AvroDeserializer" in str(seen[1].message)


def test_sasl_inherit_takes_the_kafka_credentials() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        producer = AvroProducer({"bootstrap.servers": "127.0.0.1:1", "schema.registry.url": DOWN,
                                 "schema.registry.basic.auth.credentials.source": "SASL_INHERIT",
                                 "security.protocol": "SASL_PLAINTEXT", "sasl.mechanisms": "PLAIN",
                                 "sasl.username": "u", "sasl.password": "p"})
    registry = producer._serializer.registry_client
    assert registry._auth == ("u", "p") and registry.auto_register_schemas is True
    producer.flush(0)


def test_frames_are_the_new_serializers_bytes() -> None:
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    record = {"name": "zoë", "age": -40}
    registry = SchemaRegistryClient.new_client({"url": "mock://legacy-unit"})
    new = AvroSerializer(registry, USER)(record, SerializationContext("t", MessageField.VALUE))
    client = seeded(i1=USER)
    client.subject_to_schema_ids["t-value"][client.id_to_schema[1]] = 1
    legacy = MessageSerializer(client).encode_record_with_schema("t", loads(USER), record)
    assert legacy == new
    assert MessageSerializer(client).decode_message(new) == record


def test_fastavro_failure_falls_back_to_the_avro_library(caplog: pytest.LogCaptureFixture) -> None:
    ser = MessageSerializer(seeded(i1=USER))
    caplog.set_level(logging.WARNING, "confluent_kafka.avro.serializer.message_serializer")
    # A name whose length runs past the payload: fastavro's trial read fails, avro's read too.
    with pytest.raises(Exception) as caught:
        ser.decode_message(b"\x00\x00\x00\x00\x01\x40ab")
    assert not isinstance(caught.value, SerializerError)
    assert "Fast avro failed for schema with id 1, falling thru to standard avro" in caplog.text
    assert ser.id_to_decoder_func[1].__name__ == "decoder"  # the avro library's, kept for id 1


def test_registry_schema_that_does_not_parse_is_a_client_error() -> None:
    ser = MessageSerializer(CachedSchemaRegistryClient({"url": DOWN}))

    class Refusing:
        auto_register_schemas = True

        def get_by_id(self, schema_id: int) -> Any:
            raise ClientError("Received bad schema")

    ser.registry_client = Refusing()
    with pytest.raises(SerializerError, match="unable to fetch schema with id 4: Received bad schema"):
        ser.decode_message(b"\x00\x00\x00\x00\x04\x02")
    with pytest.raises(SerializerError) as caught:
        ser.encode_record_with_schema_id(4, {"name": "x", "age": 1}, is_key=True)
    assert type(caught.value).__name__ == "KeySerializerError" and "Received bad schema" in str(caught.value)
