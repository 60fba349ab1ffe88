"""confluent_kafka.schema_registry: the mock:// client, the data model, the subject name
strategies, the schema id framing and the Avro serde, compared call by call; bytes made by one
side are read by the other (dump_/crossed_)."""
from __future__ import annotations

import asyncio
import io
from typing import Any

from observe import data, outcome
from _registry_common import error_kinds

USER = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
        '{"name":"age","type":"int"}]}')
USER_V2 = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
           '{"name":"age","type":"int"},{"name":"email","type":"string","default":"none"}]}')


def _sr() -> Any:
    from confluent_kafka.schema_registry import SchemaRegistryClient

    return SchemaRegistryClient.new_client({"url": "mock://compat", "max.retries": 0})


def _ctx(field: str = "value", topic: str = "users", headers: Any = None) -> Any:
    from confluent_kafka.serialization import SerializationContext

    return SerializationContext(topic, field, headers)


def _rs(rs: Any) -> Any:
    """A registered schema without its (random) guid."""
    return {"subject": rs.subject, "version": rs.version, "id": rs.schema_id, "schema": repr(rs.schema)}


def scenario_mock_registration() -> Any:
    from confluent_kafka.schema_registry import Schema

    sr = _sr()
    seen = {
        "first": outcome(sr.register_schema, "t-value", Schema(USER)),
        "again": outcome(sr.register_schema, "t-value", Schema(USER)),
        "v2": outcome(lambda: _rs(sr.register_schema_full_response("t-value", Schema(USER_V2)))),
        "other subject": outcome(sr.register_schema, "u-value", Schema(USER)),
        "subjects": outcome(sr.get_subjects),
        "prefix": outcome(sr.get_subjects, "t-"),
        "paged": outcome(sr.get_subjects, None, False, False, 1, 1),
        "versions": outcome(lambda: sorted(sr.get_versions("t-value"))),
        "versions unknown": outcome(sr.get_versions, "nope"),
        "schema 1": outcome(lambda: repr(sr.get_schema(1))),
        "schema 9": outcome(sr.get_schema, 9),
        "latest": outcome(lambda: _rs(sr.get_latest_version("t-value"))),
        "latest unknown": outcome(sr.get_latest_version, "nope"),
        "version 1": outcome(lambda: _rs(sr.get_version("t-value", 1))),
        "version latest": outcome(lambda: _rs(sr.get_version("t-value"))),
        "version 5": outcome(sr.get_version, "t-value", 5),
        "lookup": outcome(lambda: _rs(sr.lookup_schema("t-value", Schema(USER)))),
        "lookup missing": outcome(sr.lookup_schema, "t-value", Schema('"string"')),
        "by guid missing": outcome(sr.get_schema_by_guid, "00000000-0000-0000-0000-000000000000"),
        "guid round trip": outcome(lambda: repr(sr.get_schema_by_guid(
            sr.register_schema_full_response("t-value", Schema(USER)).guid))),
    }
    seen["delete version"] = outcome(sr.delete_version, "t-value", 2)
    seen["delete version again"] = outcome(sr.delete_version, "t-value", 2)
    seen["versions after"] = outcome(sr.get_versions, "t-value")
    seen["delete subject"] = outcome(sr.delete_subject, "u-value")
    seen["subjects after"] = outcome(sr.get_subjects)
    seen["schema of deleted subject"] = outcome(sr.get_schema, 3)
    seen["clear"] = outcome(sr.clear_caches)
    seen["config()"] = outcome(sr.config)
    return seen


def scenario_mock_metadata_and_associations() -> Any:
    from confluent_kafka.schema_registry import (AssociationCreateOrUpdateInfo, AssociationCreateOrUpdateRequest,
                                                 Metadata, MetadataProperties, Schema)

    sr = _sr()
    sr.register_schema("s", Schema(USER))
    sr.register_schema("s", Schema(USER_V2, metadata=Metadata(None, MetadataProperties({"owner": "a"}), [])))
    request = AssociationCreateOrUpdateRequest(
        resource_name="orders", resource_namespace="lkc", resource_id="r1", resource_type="topic",
        associations=[AssociationCreateOrUpdateInfo(subject="orders-value", association_type="value"),
                      AssociationCreateOrUpdateInfo(subject="orders-key", association_type="key", frozen=True)])
    return {
        "with metadata": outcome(lambda: _rs(sr.get_latest_with_metadata("s", {"owner": "a"}))),
        "without match": outcome(sr.get_latest_with_metadata, "s", {"owner": "b"}),
        "create": outcome(lambda: repr(sr.create_association(request))),
        "by resource": outcome(lambda: repr(sr.get_associations_by_resource_name("orders", "-"))),
        "by type": outcome(lambda: repr(sr.get_associations_by_resource_name("orders", "lkc", "topic", ["key"]))),
        "other namespace": outcome(sr.get_associations_by_resource_name, "orders", "x"),
        "delete": outcome(sr.delete_associations, "r1", None, ["value"]),
        "after delete": outcome(lambda: repr(sr.get_associations_by_resource_name("orders", "-"))),
    }


def scenario_async_mock() -> Any:
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient, Schema

    async def run() -> Any:
        sr = AsyncSchemaRegistryClient.new_client({"url": "mock://compat"})
        out = {"type": type(sr).__name__,
               "register": await sr.register_schema("s", Schema(USER)),
               "latest": _rs(await sr.get_latest_version("s")),
               "subjects": await sr.get_subjects(),
               "versions": await sr.get_versions("s")}
        try:
            await sr.get_schema(5)
        except Exception as exc:  # noqa: BLE001
            out["missing"] = data(exc)
        out["delete"] = await sr.delete_subject("s")
        await sr.aclose()
        return out

    return outcome(lambda: asyncio.run(run()))


def scenario_client_configuration() -> Any:
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient, SchemaRegistryClient

    confs = {
        "no url": {},
        "url not str": {"url": 5},
        "bad scheme": {"url": "ftp://x"},
        "unknown key": {"url": "http://h", "bogus": 1},
        "retries str": {"url": "http://h", "max.retries": "3"},
        "capacity str": {"url": "http://h", "cache.capacity": "x"},
        "ttl str": {"url": "http://h", "cache.latest.ttl.sec": "x"},
        "wait str": {"url": "http://h", "retries.wait.ms": "x"},
        "userinfo twice": {"url": "http://u:p@h", "basic.auth.user.info": "a:b"},
        "userinfo malformed": {"url": "http://h", "basic.auth.user.info": "nocolon"},
        "key without cert": {"url": "http://h", "ssl.key.location": "/k"},
        "bearer unknown": {"url": "http://h", "bearer.auth.credentials.source": "X"},
        "bearer no cluster": {"url": "http://h", "bearer.auth.credentials.source": "STATIC_TOKEN"},
        "bearer no token": {"url": "http://h", "bearer.auth.credentials.source": "STATIC_TOKEN",
                            "bearer.auth.logical.cluster": "c"},
        "bearer token type": {"url": "http://h", "bearer.auth.credentials.source": "STATIC_TOKEN",
                              "bearer.auth.logical.cluster": "c", "bearer.auth.token": 5},
        "bearer pool type": {"url": "http://h", "bearer.auth.credentials.source": "STATIC_TOKEN",
                             "bearer.auth.logical.cluster": "c", "bearer.auth.token": "t",
                             "bearer.auth.identity.pool.id": 5},
        "custom missing": {"url": "http://h", "bearer.auth.credentials.source": "CUSTOM"},
        "custom not callable": {"url": "http://h", "bearer.auth.credentials.source": "CUSTOM",
                                "bearer.auth.custom.provider.function": 1,
                                "bearer.auth.custom.provider.config": {}},
        "oauth missing": {"url": "http://h", "bearer.auth.credentials.source": "OAUTHBEARER",
                          "bearer.auth.logical.cluster": "c"},
        "good": {"url": "http://h, http://i/", "timeout": 3, "cache.capacity": 5, "max.retries": 1},
        "static token": {"url": "http://h", "bearer.auth.credentials.source": "STATIC_TOKEN",
                         "bearer.auth.logical.cluster": "c", "bearer.auth.token": "t"},
    }
    out = {}
    for name, conf in confs.items():
        out[name] = outcome(lambda c=conf: type(SchemaRegistryClient(c)).__name__)
        out[name + " async"] = outcome(lambda c=conf: type(AsyncSchemaRegistryClient(c)).__name__)
    out["closed client"] = outcome(lambda: _closed_call())
    return out


def _closed_call() -> Any:
    from confluent_kafka.schema_registry import SchemaRegistryClient

    client = SchemaRegistryClient({"url": "http://127.0.0.1:1", "max.retries": 0})
    client.close()
    client.close()
    return client.get_subjects()


def scenario_mock_argument_checks() -> Any:
    sr = _sr()
    return {
        "set_compatibility without level": outcome(sr.set_compatibility, "s"),
        "set_config without config": outcome(sr.set_config, "s"),
    }


def scenario_data_model() -> Any:
    from confluent_kafka.schema_registry import (ConfigCompatibilityLevel, Metadata, MetadataProperties,
                                                 MetadataTags, RegisteredSchema, Rule, RuleKind, RuleMode,
                                                 RuleParams, RuleSet, Schema, SchemaReference, ServerConfig)

    rule = Rule("r", "doc", RuleKind.CONDITION, RuleMode.WRITE, "CEL", ["PII"], RuleParams({"a": "b"}), "x",
                "NONE", "ERROR", False)
    meta = Metadata(MetadataTags({"f": ["PII"]}), MetadataProperties({"k": "v"}), ["f"])
    schema = Schema(USER, "AVRO", [SchemaReference("r", "s", 1)], meta, RuleSet([], [rule]))
    rs = RegisteredSchema("s", 1, 2, None, schema)
    config = ServerConfig(compatibility=ConfigCompatibilityLevel.FULL, default_metadata=meta)
    bare_rule = Rule(None, None, None, None, None, None, None, None, None, None, None)
    return {
        "schema repr": repr(schema),
        "schema dict": data(schema.to_dict()),
        "schema round trip": Schema.from_dict(schema.to_dict()) == schema,
        "schema defaults": repr(Schema("x")),
        "from empty dict": repr(Schema.from_dict({})),
        "hash equal": hash(Schema(USER)) == hash(Schema(USER, "AVRO", [SchemaReference("a", "b", 1)])),
        "equal refs": Schema(USER) == Schema(USER, "AVRO", [SchemaReference("a", "b", 1)]),
        "registered dict": data(rs.to_dict()),
        "registered repr": repr(RegisteredSchema.from_dict(rs.to_dict())),
        "rule dict": data(rule.to_dict()),
        "bare rule dict": data(bare_rule.to_dict()),
        "rule set dict": data(RuleSet(None, None).to_dict()),
        "rule set from": repr(RuleSet.from_dict({})),
        "metadata from": repr(Metadata.from_dict({})),
        "config dict": data(config.to_dict()),
        "config from": repr(ServerConfig.from_dict({"compatibilityLevel": "NONE", "compatibilityGroup": "g"})),
        "config bad metadata": outcome(ServerConfig.from_dict, {"defaultMetadata": 5}),
        "enum str": [str(ConfigCompatibilityLevel.FULL), str(RuleKind.TRANSFORM), str(RuleMode.UPDOWN)],
        "hashes": [hash(RuleParams({"a": "b"})) == hash(RuleParams({"a": "b"})),
                   hash(MetadataTags({"a": ["x"]})) == hash(MetadataTags({"a": ["x"]})),
                   hash(rs) == hash(RegisteredSchema("s", 1, 2, None, schema))],
        "reference": [repr(SchemaReference.from_dict({"name": "n"})), data(SchemaReference("n", None, 2).to_dict())],
    }


def scenario_strategies_and_framing() -> Any:
    from confluent_kafka.schema_registry import (
        SchemaReference, dual_schema_id_deserializer, header_schema_id_serializer, prefix_schema_id_deserializer,
        prefix_schema_id_serializer, record_subject_name_strategy, reference_subject_name_strategy,
        topic_record_subject_name_strategy, topic_subject_name_strategy)
    from confluent_kafka.schema_registry.serde import SchemaId

    sid = SchemaId("AVRO", 258, "12345678-1234-5678-1234-567812345678")
    headers_list: list = []
    headers_dict: dict = {}

    def read(fn: Any, payload: bytes, ctx: Any) -> Any:
        target = SchemaId("AVRO")
        rest = fn(payload, ctx, target)
        return [target.id, str(target.guid), rest.read()]

    return {
        "topic": outcome(topic_subject_name_strategy, _ctx(), "ex.User"),
        "topic key": outcome(topic_subject_name_strategy, _ctx("key"), None),
        "topic no ctx": outcome(topic_subject_name_strategy, None, "x"),
        "topic record": outcome(topic_record_subject_name_strategy, _ctx(), "ex.User"),
        "topic record no name": outcome(topic_record_subject_name_strategy, _ctx(), None),
        "topic record no ctx": outcome(topic_record_subject_name_strategy, None, "x"),
        "record": outcome(record_subject_name_strategy, None, "ex.User"),
        "reference": outcome(reference_subject_name_strategy, None, SchemaReference("n", "s", 1)),
        "reference none": outcome(reference_subject_name_strategy, None, None),
        "prefix": outcome(prefix_schema_id_serializer, b"abc", None, sid),
        "id bytes": outcome(sid.id_to_bytes),
        "guid bytes": outcome(sid.guid_to_bytes),
        "no id": outcome(SchemaId("AVRO").id_to_bytes),
        "no guid": outcome(SchemaId("AVRO").guid_to_bytes),
        "header list": [outcome(header_schema_id_serializer, b"p", _ctx("key", headers=headers_list), sid),
                        data(headers_list)],
        "header dict": [outcome(header_schema_id_serializer, b"p", _ctx(headers=headers_dict), sid),
                        data(headers_dict)],
        "header none": outcome(header_schema_id_serializer, b"p", _ctx(), sid),
        "header no ctx": outcome(header_schema_id_serializer, b"p", None, sid),
        "header tuple": outcome(header_schema_id_serializer, b"p", _ctx(headers=()), sid),
        "read prefix": outcome(read, prefix_schema_id_deserializer, b"\x00\x00\x00\x01\x02rest", None),
        "read guid prefix": outcome(read, dual_schema_id_deserializer, sid.guid_to_bytes() + b"r", None),
        "read header": outcome(read, dual_schema_id_deserializer, b"whole",
                               _ctx(headers=[("__value_schema_id", sid.guid_to_bytes())])),
        "read bad magic": outcome(read, prefix_schema_id_deserializer, b"\x05\x00\x00\x00\x01", None),
        "protobuf indexes": outcome(SchemaId("PROTOBUF", 1, None, [1, 2]).id_to_bytes),
        "protobuf zero": outcome(SchemaId("PROTOBUF", 1, None, [0]).id_to_bytes),
        "read protobuf": outcome(lambda: _read_protobuf()),
    }


def _read_protobuf() -> Any:
    from confluent_kafka.schema_registry.serde import SchemaId

    target = SchemaId("PROTOBUF")
    rest = target.from_bytes(io.BytesIO(SchemaId("PROTOBUF", 3, None, [1, 2]).id_to_bytes() + b"m"))
    return [target.id, target.message_indexes, rest.read()]


def _serializer(sr: Any, schema: Any = USER, **kwargs: Any) -> Any:
    from confluent_kafka.schema_registry.avro import AvroSerializer

    return AvroSerializer(sr, schema, **kwargs)


def scenario_avro_serialize() -> Any:
    from confluent_kafka.schema_registry import Schema, header_schema_id_serializer, record_subject_name_strategy

    sr = _sr()
    ser = _serializer(sr)
    out = {
        "record": outcome(ser, {"name": "ann", "age": 30}, _ctx()),
        "none": outcome(ser, None, _ctx()),
        "key": outcome(_serializer(sr, '"string"'), "k", _ctx("key")),
        "subjects": outcome(sr.get_subjects),
        "record strategy": outcome(_serializer(sr, conf={"subject.name.strategy": record_subject_name_strategy}),
                                   {"name": "a", "age": 1}, None),
        "topic strategy no ctx": outcome(_serializer(sr, conf={"subject.name.strategy.type": "TOPIC"}),
                                         {"name": "a", "age": 1}, None),
        "associated no ctx": outcome(_serializer(sr), {"name": "a", "age": 1}, None),
        "to_dict": outcome(_serializer(sr, to_dict=lambda o, c: {"name": o, "age": 2}), "bo", _ctx()),
        "to_dict no ctx": outcome(_serializer(sr, to_dict=lambda o, c: {"name": o, "age": 2}), "bo", None),
        "bytes schema": outcome(_serializer(sr, '"bytes"'), b"\x01\x02", _ctx("key", "raw")),
    }
    sr.register_schema("users-value", Schema(USER_V2))
    out["latest"] = outcome(_serializer(sr, conf={"auto.register.schemas": False, "use.latest.version": True}),
                            {"name": "a", "age": 1, "email": "e"}, _ctx())
    out["by id"] = outcome(_serializer(sr, conf={"auto.register.schemas": False, "use.schema.id": 1}),
                           {"name": "a", "age": 1}, _ctx())
    out["lookup only, missing"] = outcome(_serializer(sr, '"int"', conf={"auto.register.schemas": False}), 5, _ctx())
    headers: list = []
    out["header framing"] = [outcome(_serializer(sr, conf={"schema.id.serializer": header_schema_id_serializer}),
                                     {"name": "a", "age": 1}, _ctx(headers=headers)),
                             [h[0] for h in headers], [len(h[1]) for h in headers]]
    out["subjects after"] = outcome(sr.get_subjects)
    return out


def scenario_avro_configuration() -> Any:
    from confluent_kafka.schema_registry.avro import AvroDeserializer

    sr = _sr()
    confs = {
        "auto register str": {"auto.register.schemas": "yes"},
        "normalize str": {"normalize.schemas": 1},
        "latest and auto": {"use.latest.version": True},
        "schema id str": {"use.schema.id": "1"},
        "metadata list": {"use.latest.with.metadata": []},
        "strategy not callable": {"subject.name.strategy": 3},
        "strategy type none": {"subject.name.strategy.type": "NONE"},
        "strategy type bogus": {"subject.name.strategy.type": "bogus"},
        "id serializer": {"schema.id.serializer": 1},
        "strict str": {"validate.strict": "x"},
        "unknown": {"nope": 1},
    }
    out = {name: outcome(lambda c=conf: type(_serializer(sr, conf=c)).__name__) for name, conf in confs.items()}
    out["to_dict not callable"] = outcome(lambda: _serializer(sr, to_dict=5))
    out["bad schema"] = outcome(lambda: _serializer(sr, '{"type":"nope"}'))
    out["deserializer unknown"] = outcome(AvroDeserializer, sr, None, None, False, {"auto.register.schemas": True})
    out["deserializer schema type"] = outcome(AvroDeserializer, sr, 5)
    out["deserializer from_dict"] = outcome(AvroDeserializer, sr, None, 5)
    out["deserializer record name"] = outcome(AvroDeserializer, sr, None, None, "yes")
    return out


def scenario_avro_deserialize() -> Any:
    from confluent_kafka.schema_registry.avro import AvroDeserializer

    sr = _sr()
    good = _serializer(sr)({"name": "ann", "age": 30}, _ctx())
    de = AvroDeserializer(sr)
    return {
        "writer schema": outcome(de, good, _ctx()),
        "none": outcome(de, None, _ctx()),
        "reader schema": outcome(AvroDeserializer(sr, USER_V2), good, _ctx()),
        "from_dict": outcome(AvroDeserializer(sr, from_dict=lambda d, c: sorted(d)), good, _ctx()),
        "from_dict no ctx": outcome(AvroDeserializer(sr, from_dict=lambda d, c: d), good, None),
        "no ctx": outcome(de, good, None),
        "short": outcome(de, b"\x00\x00", _ctx()),
        "record name": outcome(AvroDeserializer(sr, return_record_name=True), good, _ctx()),
    }


def _avro_bad_input() -> Any:
    """The bad input both Avro bad-input scenarios feed: name -> (serde, its arguments)."""
    from confluent_kafka.schema_registry.avro import AvroDeserializer

    sr = _sr()
    ser = _serializer(sr)
    good = ser({"name": "ann", "age": 30}, _ctx())
    de = AvroDeserializer(sr)
    return {
        "missing field": (ser, {"name": "a"}, _ctx()),
        "wrong type": (ser, {"name": 1, "age": 2}, _ctx()),
        "not a record": (ser, 5, _ctx()),
        "bad magic": (de, b"\x07" + good[1:], _ctx()),
        "unknown id": (de, b"\x00\x00\x00\x00\x09" + good[5:], _ctx()),
        "truncated": (de, good[:-1], _ctx()),
    }


def scenario_avro_bad_input() -> Any:
    """Where our errors name what failed (deliberate: the text, see deliberate.py)."""
    return {name: outcome(*case) for name, case in _avro_bad_input().items()}


def scenario_avro_bad_input_types() -> Any:
    """The same bad input as scenario_avro_bad_input, and a payload cut to 3 bytes: caught by the
    same handlers as upstream's."""
    cases = _avro_bad_input()
    de, truncated, ctx = cases["truncated"]
    cases["short"] = (de, truncated[:3], ctx)
    return {name: error_kinds(*case) for name, case in cases.items()}


def scenario_mock_calls_upstream_leaves_to_http() -> Any:
    """Our mock answers these like a registry; upstream's mock sends them to a mock:// URL that
    httpx cannot reach (deliberate, see deliberate.py)."""
    sr = _sr()
    return {
        "get_compatibility": outcome(sr.get_compatibility),
        "get_global_mode": outcome(sr.get_global_mode),
        "get_schema_types": outcome(sr.get_schema_types),
        "get_contexts": outcome(sr.get_contexts),
        "get_config": outcome(lambda: repr(sr.get_config())),
    }


def scenario_async_avro() -> Any:
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AsyncAvroDeserializer, AsyncAvroSerializer

    async def run() -> Any:
        sr = AsyncSchemaRegistryClient.new_client({"url": "mock://compat"})
        ser = await AsyncAvroSerializer(sr, USER)
        de = await AsyncAvroDeserializer(sr, USER_V2)
        framed = await ser({"name": "a", "age": 1}, _ctx())
        return {"bytes": data(framed), "back": await de(framed, _ctx()), "subjects": await sr.get_subjects(),
                "type": type(ser).__name__}

    return outcome(lambda: asyncio.run(run()))


# -- bytes made by one side, read by the other ---------------------------------------------------

RECORDS = [{"name": "ann", "age": 30}, {"name": "", "age": -1}, {"name": "ünï", "age": 2 ** 31 - 1}]


def dump_avro_bytes() -> Any:
    sr = _sr()
    ser = _serializer(sr)
    return [data(ser(r, _ctx())) for r in RECORDS]


def crossed_avro_bytes(given: Any) -> Any:
    import base64

    from confluent_kafka.schema_registry.avro import AvroDeserializer

    sr = _sr()
    _serializer(sr)(RECORDS[0], _ctx())  # the same registry state: USER is id 1
    de = AvroDeserializer(sr, USER_V2)
    return {side: [outcome(de, base64.b64decode(d["bytes"]), _ctx()) for d in dumped]
            for side, dumped in given.items()}
