"""confluent_kafka.avro, the legacy (deprecated) Avro API: its warnings, schema parsing,
registry client configuration and failures against an unreachable registry, the message
serializer over a registry client whose caches are filled in beforehand (no registry needed),
and AvroProducer/AvroConsumer argument handling. Frames made by one side decode on the other,
with the legacy serializer and with the new AvroDeserializer (dump_/crossed_).

Upstream's legacy client refuses ``mock://`` URLs (it needs http), and this tier has no registry,
so nothing here reaches one: tests/registry/test_karapace_legacy_avro.py runs the round trip on Karapace.
"""
from __future__ import annotations

import os
import tempfile
import warnings
from typing import Any, Callable

from observe import data, outcome

USER = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
        '{"name":"age","type":"int"}]}')
USER_V2 = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
           '{"name":"age","type":"int"},{"name":"email","type":"string","default":"none"}]}')
KEY = '"string"'
DOWN = "http://127.0.0.1:1"


def _warned(fn: Callable[[], Any]) -> Any:
    """What ``fn`` returns or raises, and the warnings it emits (category, text, and whether
    they point at the caller's line, i.e. this file)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = outcome(fn)
    return {"result": result,
            "warnings": [[w.category.__name__, str(w.message), os.path.basename(w.filename)] for w in seen]}


def _seeded(ids: dict[int, str], subjects: dict[str, int], url: str = DOWN) -> Any:
    """A legacy client pointing at nothing, whose caches already know these ids and subjects."""
    from confluent_kafka.avro import CachedSchemaRegistryClient, loads

    client = CachedSchemaRegistryClient({"url": url})
    for schema_id, text in ids.items():
        client.id_to_schema[schema_id] = loads(text)
    for subject, schema_id in subjects.items():
        client.subject_to_schema_ids[subject][client.id_to_schema[schema_id]] = schema_id
    return client


def _exc_kind(fn: Callable[[], Any]) -> Any:
    """The exception type (and its text only when it is the package's own error), plus whether
    it is what upstream's transports raise."""
    try:
        return {"ok": data(fn())}
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        seen: dict[str, Any] = {"raises": type(exc).__name__}
        try:
            import requests
            import urllib3

            seen["requests"] = isinstance(exc, requests.exceptions.RequestException)
            seen["requests ConnectionError"] = isinstance(exc, requests.exceptions.ConnectionError)
            seen["urllib3 MaxRetryError"] = isinstance(exc, urllib3.exceptions.MaxRetryError)
        except ImportError:
            pass
        if type(exc).__module__.startswith("confluent_kafka"):
            seen["str"] = str(exc)
        return seen


def scenario_legacy_deprecation_warnings() -> Any:
    from confluent_kafka.avro import AvroConsumer, AvroProducer, CachedSchemaRegistryClient

    def producer() -> Any:
        p = AvroProducer({"bootstrap.servers": "127.0.0.1:1", "schema.registry.url": DOWN})
        p.flush(0)
        return "made"

    def consumer() -> Any:
        c = AvroConsumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g", "schema.registry.url": DOWN})
        c.close()
        return "made"

    return {
        "producer": _warned(producer),
        "consumer": _warned(consumer),
        "client from dict": _warned(lambda: CachedSchemaRegistryClient({"url": DOWN}).url),
        "client from url": _warned(lambda: CachedSchemaRegistryClient(DOWN + "/").url),
        "client from url and tls": _warned(lambda: CachedSchemaRegistryClient(DOWN, 10, "/ca", "/c", None)),
        "producer bad registry": _warned(lambda: AvroProducer({"schema.registry.url": "mock://x"})),
    }


def scenario_legacy_loads() -> Any:
    from confluent_kafka.avro import ClientError, load, loads

    def described(text: str) -> Any:
        schema = loads(text)
        return {"type": type(schema).__name__, "module": type(schema).__module__, "str": str(schema),
                "to_json": schema.to_json(), "hash is text's": hash(schema) == hash(str(schema)),
                "equal to a reparse": schema == loads(text), "one key": len({schema: 1, loads(text): 2})}

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "user.avsc")
        with open(path, "w") as f:
            f.write(USER)
        from_file = outcome(lambda: str(load(path)))
        missing = outcome(lambda: load(os.path.join(d, "missing.avsc")))
    return {
        "record": outcome(described, USER),
        "primitive": outcome(described, KEY),
        "union": outcome(described, '["null","string"]'),
        "enum": outcome(lambda: type(loads('{"type":"enum","name":"E","symbols":["A","B"]}')).__name__),
        "not a type": outcome(loads, '{"type":"nope"}'),
        "no name": outcome(loads, '{"type":"record","fields":[]}'),
        "not json": outcome(loads, "{nope"),
        "is ClientError": isinstance(_catch(lambda: loads('{"type":"nope"}')), ClientError),
        "from file": from_file,
        "missing file": {"raises": missing.get("raises")},
    }


def _catch(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001
        return exc


def scenario_legacy_errors() -> Any:
    from confluent_kafka.avro import ClientError, KeySerializerError, SerializerError, ValueSerializerError
    from confluent_kafka.avro.serializer import SerializerError as FromPackage

    def shown(exc: BaseException) -> Any:
        return {"str": str(exc), "repr": repr(exc), "args": data(exc.args), "message": getattr(exc, "message", None),
                "http_code": getattr(exc, "http_code", "absent"), "mro": [c.__name__ for c in type(exc).__mro__]}

    return {
        "client": shown(ClientError("bad", 404)),
        "client no code": shown(ClientError("bad")),
        "serializer": shown(SerializerError("bad")),
        "key": shown(KeySerializerError("k")),
        "value": shown(ValueSerializerError("v")),
        "same class": SerializerError is FromPackage,
    }


def scenario_legacy_client_config() -> Any:
    from confluent_kafka.avro import CachedSchemaRegistryClient

    def made(conf: Any) -> Any:
        client = CachedSchemaRegistryClient(conf)
        return {"url": client.url, "auto register": client.auto_register_schemas, "conf left": data(conf)}

    cert = {"url": DOWN, "ssl.certificate.location": "/c.pem"}
    return {
        "empty": outcome(made, {}),
        "url int": outcome(made, {"url": 5}),
        "mock url": outcome(made, {"url": "mock://x"}),
        "ftp url": outcome(made, {"url": "ftp://x"}),
        "trailing slash": outcome(made, {"url": "http://h:1///"}),
        "credentials in url": outcome(made, {"url": "http://u%40x:p%3Ay@h:1/base#frag"}),
        "https": outcome(made, {"url": "https://h:1"}),
        "unknown key": outcome(made, {"url": DOWN, "nope": 1}),
        "cert without key": outcome(made, dict(cert)),
        "key without cert": outcome(made, {"url": DOWN, "ssl.key.location": "/k.pem"}),
        "cert files not read yet": outcome(made, dict(cert, **{"ssl.key.location": "/k.pem"})),
        "bad source": outcome(made, {"url": DOWN, "basic.auth.credentials.source": "nope"}),
        "user info": outcome(made, {"url": DOWN, "basic.auth.credentials.source": "user_info",
                                    "basic.auth.user.info": "u:p"}),
        "sasl gssapi": outcome(made, {"url": DOWN, "basic.auth.credentials.source": "SASL_INHERIT",
                                      "sasl.mechanism": "gssapi"}),
        "sasl plain": outcome(made, {"url": DOWN, "basic.auth.credentials.source": "SASL_INHERIT",
                                     "sasl.mechanism": "PLAIN", "sasl.username": "u", "sasl.password": "p"}),
        "no auto register": outcome(made, {"url": DOWN, "auto.register.schemas": False}),
        "caches": outcome(lambda: [type(getattr(CachedSchemaRegistryClient({"url": DOWN}), n)).__name__
                                   for n in ("subject_to_schema_ids", "id_to_schema", "subject_to_schema_versions")]),
        "context manager": outcome(lambda: CachedSchemaRegistryClient({"url": DOWN}).__enter__().url),
        "close twice": outcome(lambda: [CachedSchemaRegistryClient({"url": DOWN}).close() for _ in range(2)]),
    }


def scenario_legacy_client_unreachable() -> Any:
    from confluent_kafka.avro import CachedSchemaRegistryClient, loads

    client = CachedSchemaRegistryClient({"url": DOWN})
    schema = loads(USER)
    tls = CachedSchemaRegistryClient({"url": "https://127.0.0.1:1"})
    return {
        "register": _exc_kind(lambda: client.register("t-value", schema)),
        "check registration": _exc_kind(lambda: client.check_registration("t-value", schema)),
        "delete subject": _exc_kind(lambda: client.delete_subject("t-value")),
        "get by id": _exc_kind(lambda: client.get_by_id(1)),
        "latest": _exc_kind(lambda: client.get_latest_schema("t-value")),
        "by version": _exc_kind(lambda: client.get_by_version("t-value", 1)),
        "version": _exc_kind(lambda: client.get_version("t-value", schema)),
        "test compatibility": _exc_kind(lambda: client.test_compatibility("t-value", schema)),
        "update compatibility bad level": _exc_kind(lambda: client.update_compatibility("SOMETIMES")),
        "update compatibility": _exc_kind(lambda: client.update_compatibility("FULL", "t-value")),
        "get compatibility": _exc_kind(lambda: client.get_compatibility()),
        "bad method": _exc_kind(lambda: client._send_request(DOWN, method="PATCH")),
        "https register": _exc_kind(lambda: tls.register("t-value", schema)),
        "cached register needs no registry": _exc_kind(
            lambda: _seeded({3: USER}, {"t-value": 3}).register("t-value", loads(USER))),
        "cached get by id needs no registry": _exc_kind(lambda: str(_seeded({3: USER}, {}).get_by_id(3))),
    }


def scenario_legacy_message_serializer() -> Any:
    from confluent_kafka.avro import MessageSerializer, loads

    client = _seeded({1: USER, 2: KEY}, {"t-value": 1, "t-key": 2})
    ser = MessageSerializer(client)
    user = {"name": "ann", "age": 3}
    value = ser.encode_record_with_schema("t", loads(USER), user)
    key = ser.encode_record_with_schema("t", loads(KEY), "k1", True)
    evolved = MessageSerializer(client, reader_key_schema=None, reader_value_schema=loads(USER_V2))
    manual = _seeded({1: USER}, {"t-value": 1})
    manual.auto_register_schemas = False
    return {
        "value": data(value),
        "key": data(key),
        "by id": outcome(ser.encode_record_with_schema_id, 1, user),
        "by id as key": outcome(ser.encode_record_with_schema_id, 2, "k", True),
        "decode value": outcome(ser.decode_message, value),
        "decode key": outcome(ser.decode_message, key, True),
        "decode None": outcome(ser.decode_message, None),
        "reader schema": outcome(evolved.decode_message, value),
        "reader schema on key": outcome(evolved.decode_message, key, True),
        "check registration path": outcome(MessageSerializer(manual).encode_record_with_schema, "t", loads(USER), user),
        "too small": outcome(ser.decode_message, b"\x00\x00\x00\x00\x01"),
        "bad magic": outcome(ser.decode_message, b"\x01\x00\x00\x00\x01\x02"),
        "bad record": {"raises": outcome(ser.encode_record_with_schema, "t", loads(USER), {"name": 1}).get("raises")},
        "unknown id decode": _exc_kind(lambda: ser.decode_message(b"\x00\x00\x00\x00\x09\x02")),
        "unknown id encode": _exc_kind(lambda: ser.encode_record_with_schema_id(9, user)),
        "unregistered subject": _exc_kind(lambda: ser.encode_record_with_schema("other", loads(USER), user)),
        "attributes": sorted(k for k in vars(ser)),
    }


def scenario_legacy_producer_arguments() -> Any:
    from confluent_kafka.avro import AvroProducer, CachedSchemaRegistryClient, loads

    def producer(**kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return AvroProducer({"bootstrap.servers": "127.0.0.1:1", "message.timeout.ms": 10},
                                schema_registry=_seeded({1: USER, 2: KEY}, {"t-value": 1, "t-key": 2}), **kwargs)

    def queued(p: Any, **kwargs: Any) -> Any:
        return ["produced", p.produce(**kwargs)]

    p = producer(default_value_schema=loads(USER), default_key_schema=loads(KEY))
    bare = producer()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both = outcome(AvroProducer, {"schema.registry.url": DOWN},
                       schema_registry=CachedSchemaRegistryClient({"url": DOWN}))
        none_conf = outcome(AvroProducer, None)
        bad_kafka = outcome(AvroProducer, {"schema.registry.url": DOWN, "nope.nope": 1})
    seen = {
        "no topic": outcome(p.produce, value={"name": "a", "age": 1}),
        "empty topic": outcome(p.produce, topic="", value={"name": "a", "age": 1}),
        "positional": outcome(p.produce, "t"),
        "value and key": outcome(queued, p, topic="t", value={"name": "a", "age": 1}, key="k"),
        "value only": outcome(queued, p, topic="t", value={"name": "a", "age": 1}),
        "nothing": outcome(queued, p, topic="t"),
        "explicit schemas": outcome(queued, bare, topic="t", value={"name": "a", "age": 1}, value_schema=loads(USER),
                                    key="k", key_schema=loads(KEY)),
        "value without schema": outcome(bare.produce, topic="t", value={"name": "a", "age": 1}),
        "key without schema": outcome(bare.produce, topic="t", key="k"),
        "partition and headers": outcome(queued, p, topic="t", value={"name": "a", "age": 1}, partition=0,
                                         headers={"h": b"1"}),
        "unknown keyword": outcome(p.produce, topic="t", nope=1),
        "bad record": {"raises": outcome(p.produce, topic="t", value={"name": 1}).get("raises")},
        "schema.registry.url with schema_registry": both,
        "None config": none_conf,
        "bad kafka setting": {"raises": bad_kafka.get("raises")},
        "is a Producer": outcome(lambda: [c.__name__ for c in type(p).__mro__][:2]),
    }
    for prod in (p, bare):
        prod.purge()
        prod.flush(0)
    return seen


def scenario_legacy_consumer_arguments() -> Any:
    from confluent_kafka.avro import AvroConsumer, CachedSchemaRegistryClient, loads

    def consumer(conf: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return AvroConsumer(conf, **kwargs)

    base = {"bootstrap.servers": "127.0.0.1:1", "group.id": "g"}
    c = consumer(base, schema_registry=_seeded({1: USER}, {}), reader_value_schema=loads(USER_V2))
    seen = {
        "poll nothing": outcome(c.poll, 0.05),
        "consume nothing": outcome(c.consume, 1, 0.05),
        "is a Consumer": [k.__name__ for k in type(c).__mro__][:2],
        "both registries": outcome(consumer, dict(base, **{"schema.registry.url": DOWN}),
                                   schema_registry=CachedSchemaRegistryClient({"url": DOWN})),
        "no group": {"raises": outcome(consumer, {"schema.registry.url": DOWN}).get("raises")},
        "no registry url": outcome(consumer, base),
        "registry settings kept out": outcome(lambda: consumer(dict(base, **{
            "schema.registry.url": DOWN, "schema.registry.auto.register.schemas": False})).close()),
    }
    c.close()
    seen["poll closed"] = outcome(c.poll, 0)
    return seen


# -- frames made on one side, read on the other ------------------------------------------------

def dump_legacy_frames() -> Any:
    from confluent_kafka.avro import MessageSerializer, loads

    ser = MessageSerializer(_seeded({1: USER, 2: KEY}, {"t-value": 1, "t-key": 2}))
    return {"value": data(ser.encode_record_with_schema("t", loads(USER), {"name": "zoë", "age": -7})),
            "key": data(ser.encode_record_with_schema("t", loads(KEY), "k\u00e9y", True))}


def _bytes(tagged: Any) -> bytes:
    import base64

    return base64.b64decode(tagged["bytes"])


def crossed_legacy_frames(given: Any) -> Any:
    """Each side's frames decoded here: by the legacy serializer, and by the new
    AvroDeserializer (on a mock:// registry where the same schema has id 1)."""
    from confluent_kafka.avro import MessageSerializer
    from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroDeserializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    legacy = MessageSerializer(_seeded({1: USER, 2: KEY}, {}))
    registry = SchemaRegistryClient.new_client({"url": "mock://legacy-frames"})
    registry.register_schema("t-value", Schema(USER, "AVRO"))
    new = AvroDeserializer(registry)
    seen = {}
    for side, frames in sorted(given.items()):
        seen[side] = {
            "legacy value": outcome(legacy.decode_message, _bytes(frames["value"])),
            "legacy key": outcome(legacy.decode_message, _bytes(frames["key"]), True),
            "new value": outcome(new, _bytes(frames["value"]), SerializationContext("t", MessageField.VALUE)),
        }
    return seen


def dump_new_api_frames() -> Any:
    """A frame written by the new AvroSerializer (mock:// registry: id 1)."""
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    registry = SchemaRegistryClient.new_client({"url": "mock://legacy-new-frames"})
    ser = AvroSerializer(registry, USER)
    return data(ser({"name": "bo", "age": 41}, SerializationContext("t", MessageField.VALUE)))


def crossed_new_api_frames(given: Any) -> Any:
    """Each side's new-API frame decoded here by the legacy serializer (id 1 is the schema)."""
    from confluent_kafka.avro import MessageSerializer

    legacy = MessageSerializer(_seeded({1: USER}, {}))
    return {side: outcome(legacy.decode_message, _bytes(frame)) for side, frame in sorted(given.items())}



# -- a scripted registry: what the client sends, and what it makes of each answer --------------

class _Scripted:
    """An HTTP server on a free loopback port answering from a script
    ``{(method, path): (status, body bytes)}`` (404 ``{}`` otherwise) and recording each request:
    method, path, the headers a registry reads, and the JSON body."""

    def __init__(self, script: dict[tuple[str, str], tuple[int, bytes]]) -> None:
        import http.server
        import json
        import threading

        seen: list[Any] = []
        self.seen = seen

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                seen.append({"method": self.command, "path": self.path,
                             "accept": self.headers.get("Accept"), "content type": self.headers.get("Content-Type"),
                             "authorization": self.headers.get("Authorization"),
                             "body": json.loads(body) if body else None})
                status, payload = script.get((self.command, self.path), (404, b"{}"))
                self.send_response(status)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_DELETE = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _json(value: Any) -> tuple[int, bytes]:
    import json

    return 200, json.dumps(value).encode()


def scenario_legacy_client_scripted_registry() -> Any:
    from confluent_kafka.avro import CachedSchemaRegistryClient, loads

    user, v2 = loads(USER), loads(USER_V2)
    script = {
        ("POST", "/subjects/ok-value/versions"): _json({"id": 11}),
        ("POST", "/subjects/ok-value"): _json({"id": 11, "version": 4, "subject": "ok-value", "schema": USER}),
        ("POST", "/subjects/auth-value/versions"): (401, b'{"error_code":40101,"message":"no"}'),
        ("POST", "/subjects/forbidden-value/versions"): (403, b"forbidden, not json"),
        ("POST", "/subjects/clash-value/versions"): (409, b'{"error_code":409,"message":"incompatible"}'),
        ("POST", "/subjects/invalid-value/versions"): (422, b'{"error_code":42201,"message":"invalid"}'),
        ("POST", "/subjects/broken-value/versions"): (500, b'{"error_code":50001,"message":"boom"}'),
        ("POST", "/subjects/auth-value"): (403, b"{}"),
        ("POST", "/subjects/broken-value"): (500, b"{}"),
        ("GET", "/schemas/ids/5"): _json({"schema": USER_V2}),
        ("GET", "/schemas/ids/6"): _json({"schema": '{"type":"nope"}'}),
        ("GET", "/schemas/ids/7"): (500, b"{}"),
        ("GET", "/subjects/ok-value/versions/latest"): _json({"id": 5, "version": 2, "schema": USER_V2}),
        ("GET", "/subjects/ok-value/versions/1"): _json({"id": 12, "version": 1, "schema": USER}),
        ("GET", "/subjects/ok-value/versions/x"): (422, b"{}"),
        ("GET", "/subjects/broken-value/versions/1"): (500, b"{}"),
        ("POST", "/compatibility/subjects/ok-value/versions/latest"): _json({"is_compatible": True}),
        ("POST", "/compatibility/subjects/ok-value/versions/1"): _json({"is_compatible": False}),
        ("POST", "/compatibility/subjects/invalid-value/versions/latest"): (422, b"{}"),
        ("POST", "/compatibility/subjects/broken-value/versions/latest"): (500, b"{}"),
        ("PUT", "/config"): _json({"compatibility": "FULL"}),
        ("PUT", "/config/ok-value"): _json({"compatibility": "NONE"}),
        ("PUT", "/config/broken-value"): (500, b"{}"),
        ("GET", "/config"): _json({"compatibilityLevel": "BACKWARD"}),
        ("GET", "/config/ok-value"): _json({"compatibilityLevel": "FULL_TRANSITIVE"}),
        ("GET", "/config/empty-value"): _json({}),
        ("GET", "/config/broken-value"): (500, b"{}"),
        ("DELETE", "/subjects/ok-value"): _json([1, 2]),
        ("DELETE", "/subjects/broken-value"): (500, b'{"message":"boom"}'),
    }
    server = _Scripted(script)
    try:
        client = CachedSchemaRegistryClient({"url": server.url, "basic.auth.credentials.source": "USER_INFO",
                                             "basic.auth.user.info": "ann:secret"})
        seen = {
            "register": outcome(client.register, "ok-value", user),
            "register again (cached)": outcome(client.register, "ok-value", loads(USER)),
            "register 401": outcome(client.register, "auth-value", user),
            "register 403 not json": outcome(client.register, "forbidden-value", user),
            "register 409": outcome(client.register, "clash-value", user),
            "register 422": outcome(client.register, "invalid-value", user),
            "register 500": outcome(client.register, "broken-value", user),
            "check registration": outcome(client.check_registration, "ok-value", v2),
            "check registration 403": outcome(client.check_registration, "auth-value", user),
            "check registration 404": outcome(client.check_registration, "none-value", user),
            "check registration 500": outcome(client.check_registration, "broken-value", user),
            "get version": outcome(client.get_version, "ok-value", loads(USER_V2)),
            "get version 404": outcome(client.get_version, "none-value", user),
            "get version 500": outcome(client.get_version, "broken-value", user),
            "by id": outcome(lambda: str(client.get_by_id(5))),
            "by id is cached": outcome(lambda: client.get_by_id(5) is client.get_by_id(5)),
            "by id bad schema": outcome(client.get_by_id, 6),
            "by id 500": outcome(client.get_by_id, 7),
            "by id 404": outcome(client.get_by_id, 8),
            "latest": outcome(lambda: [str(x) for x in client.get_latest_schema("ok-value")]),
            "by version": outcome(lambda: [str(x) for x in client.get_by_version("ok-value", 1)]),
            "by version 404": outcome(client.get_by_version, "none-value", 1),
            "by version 422": outcome(client.get_by_version, "ok-value", "x"),
            "by version 500": outcome(client.get_by_version, "broken-value", 1),
            "compatible": outcome(client.test_compatibility, "ok-value", user),
            "compatible with 1": outcome(client.test_compatibility, "ok-value", user, 1),
            "compatible 404": outcome(client.test_compatibility, "none-value", user),
            "compatible 422": outcome(client.test_compatibility, "invalid-value", user),
            "compatible 500": outcome(client.test_compatibility, "broken-value", user),
            "update global": outcome(client.update_compatibility, "FULL"),
            "update subject": outcome(client.update_compatibility, "NONE", "ok-value"),
            "update 500": outcome(client.update_compatibility, "FULL", "broken-value"),
            "get global": outcome(client.get_compatibility),
            "get unknown level": outcome(client.get_compatibility, "ok-value"),
            "get no level": outcome(client.get_compatibility, "empty-value"),
            "get 500": outcome(client.get_compatibility, "broken-value"),
            "delete": outcome(client.delete_subject, "ok-value"),
            "delete 500": outcome(client.delete_subject, "broken-value"),
            "raw GET": outcome(client._send_request, server.url + "/schemas/ids/7"),
            "raw not json": outcome(client._send_request, server.url + "/subjects/forbidden-value/versions", "POST",
                                    {"schema": "x"}),
            "caches": {"ids": sorted(client.subject_to_schema_ids["ok-value"].values()),
                       "versions": sorted(client.subject_to_schema_versions["ok-value"].values()),
                       "schemas": sorted(client.id_to_schema)},
        }
        in_url = CachedSchemaRegistryClient({"url": server.url.replace("http://", "http://u%3Ax:p%40y@") + "/"})
        in_url.get_compatibility()
        sasl = CachedSchemaRegistryClient({"url": server.url, "basic.auth.credentials.source": "SASL_INHERIT",
                                           "sasl.username": "su", "sasl.password": "sp"})
        sasl.get_compatibility()
        CachedSchemaRegistryClient({"url": server.url}).get_compatibility()
        CachedSchemaRegistryClient({"url": server.url.replace("http://", "http://only-user@")}).get_compatibility()
        seen["requests"] = server.seen
        return seen
    finally:
        server.close()


def scenario_legacy_odd_inputs() -> Any:
    from confluent_kafka.avro import CachedSchemaRegistryClient, MessageSerializer, loads

    ser = MessageSerializer(_seeded({1: USER}, {"t-value": 1}))
    frame = ser.encode_record_with_schema("t", loads(USER), {"name": "a", "age": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "loads None": {"raises": outcome(loads, None).get("raises")},
            "loads int": {"raises": outcome(loads, 5).get("raises")},
            "loads empty": outcome(loads, ""),
            "client None": outcome(CachedSchemaRegistryClient, None),
            "client list": {"raises": outcome(CachedSchemaRegistryClient, []).get("raises")},
            "client bytes url": outcome(CachedSchemaRegistryClient, {"url": b"http://h"}),
            "decode str": {"raises": outcome(ser.decode_message, "\x00\x00\x00\x00\x01\x02a\x02").get("raises")},
            "decode bytearray": outcome(ser.decode_message, bytearray(frame)),
            "decode memoryview": outcome(ser.decode_message, memoryview(frame)),
            "decode long tail": outcome(ser.decode_message, frame + b"\x00\x00"),
            "encode None record": {"raises": outcome(ser.encode_record_with_schema_id, 1, None).get("raises")},
            "encode extra field": outcome(ser.encode_record_with_schema_id, 1, {"name": "a", "age": 1, "x": 2}),
            "encode as key id": outcome(ser.encode_record_with_schema_id, 1, {"name": "a", "age": 1}, True),
            "unseeded key subject": _exc_kind(lambda: ser.encode_record_with_schema(
                "t", loads(USER), {"name": "a", "age": 1}, True)),
        }
