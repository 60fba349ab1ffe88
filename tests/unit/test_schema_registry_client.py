"""The Schema Registry clients (sync and async) against the in-process ``mock://`` registry:
every call, its answers and its errors."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import pytest

pytest.importorskip("httpx2", reason="the schemaregistry extra is not installed")

from confluent_kafka.schema_registry import (  # noqa: E402
    AssociationCreateOrUpdateInfo,
    AssociationCreateOrUpdateRequest,
    AsyncSchemaRegistryClient,
    ConfigCompatibilityLevel,
    Metadata,
    MetadataProperties,
    RegisteredSchema,
    Schema,
    SchemaReference,
    SchemaRegistryClient,
    SchemaRegistryError,
    ServerConfig,
)
from confluent_kafka.schema_registry._async.mock_schema_registry_client import AsyncMockSchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry._sync.mock_schema_registry_client import MockSchemaRegistryClient  # noqa: E402

USER = '{"type":"record","name":"User","fields":[{"name":"name","type":"string"}]}'
USER2 = ('{"type":"record","name":"User","fields":[{"name":"name","type":"string"},'
         '{"name":"age","type":"int","default":0}]}')


class Sync:
    """Calls a sync client."""

    def __init__(self) -> None:
        self.client = SchemaRegistryClient.new_client({"url": "mock://unit"})

    def __getattr__(self, name: str) -> Callable[..., Any]:
        return getattr(self.client, name)


class Async:
    """Calls an async client, each call run to completion on its own loop."""

    def __init__(self) -> None:
        self.client = AsyncSchemaRegistryClient.new_client({"url": "mock://unit"})
        self.loop = asyncio.new_event_loop()

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.client, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            return self.loop.run_until_complete(result) if asyncio.iscoroutine(result) else result

        return call


@pytest.fixture(params=["sync", "async"])
def sr(request: pytest.FixtureRequest) -> Any:
    side = Sync() if request.param == "sync" else Async()
    yield side
    if isinstance(side, Async):
        side.loop.close()


def test_new_client_picks_the_mock_for_mock_urls() -> None:
    assert type(SchemaRegistryClient.new_client({"url": "mock://a"})) is MockSchemaRegistryClient
    assert type(AsyncSchemaRegistryClient.new_client({"url": "mock://a"})) is AsyncMockSchemaRegistryClient
    assert type(SchemaRegistryClient.new_client({"url": "http://127.0.0.1:1"})) is SchemaRegistryClient


def test_each_mock_client_has_its_own_registry() -> None:
    a = SchemaRegistryClient.new_client({"url": "mock://same"})
    b = SchemaRegistryClient.new_client({"url": "mock://same"})
    assert a.register_schema("s", Schema(USER)) == 1
    with pytest.raises(SchemaRegistryError):
        b.get_schema(1)


def test_register_is_idempotent_per_subject_and_versions_count_up(sr: Any) -> None:
    assert sr.register_schema("t-value", Schema(USER)) == 1
    assert sr.register_schema("t-value", Schema(USER)) == 1
    full = sr.register_schema_full_response("t-value", Schema(USER2))
    assert (full.schema_id, full.subject, full.version) == (2, "t-value", 2)
    # Like upstream's mock: the same schema under another subject gets a new id.
    assert sr.register_schema("other", Schema(USER)) == 3
    assert sr.get_versions("t-value") == [1, 2]
    assert sr.get_subjects() == ["t-value", "other"]
    assert sr.get_subjects(subject_prefix="t-") == ["t-value"]
    assert sr.get_subjects(offset=1, limit=1) == ["other"]


def test_get_schema_by_id_and_guid(sr: Any) -> None:
    full = sr.register_schema_full_response("s", Schema(USER))
    assert sr.get_schema(full.schema_id) == Schema(USER)
    assert sr.get_schema_by_guid(full.guid) == Schema(USER)
    with pytest.raises(SchemaRegistryError) as info:
        sr.get_schema(99)
    assert (info.value.http_status_code, info.value.error_code) == (404, 40400)
    assert str(info.value) == "Schema Not Found (HTTP status code 404, SR code 40400)"


def test_lookup_latest_and_versions(sr: Any) -> None:
    sr.register_schema("s", Schema(USER))
    sr.register_schema("s", Schema(USER2))
    found = sr.lookup_schema("s", Schema(USER))
    assert (found.schema_id, found.version, found.schema) == (1, 1, Schema(USER))
    latest = sr.get_latest_version("s")
    assert isinstance(latest, RegisteredSchema) and latest.version == 2 and latest.schema == Schema(USER2)
    assert sr.get_version("s", 1).schema == Schema(USER)
    assert sr.get_version("s").version == 2
    for call in (lambda: sr.lookup_schema("s", Schema('"string"')), lambda: sr.get_version("s", 7),
                 lambda: sr.get_latest_version("nope")):
        with pytest.raises(SchemaRegistryError):
            call()
    assert sr.get_versions("nope") == []


def test_latest_with_metadata(sr: Any) -> None:
    tagged = Schema(USER2, metadata=Metadata(tags=None, properties=MetadataProperties({"owner": "a"}),
                                             sensitive=[]))
    sr.register_schema("s", Schema(USER))
    sr.register_schema("s", tagged)
    assert sr.get_latest_with_metadata("s", {"owner": "a"}).version == 2
    with pytest.raises(SchemaRegistryError):
        sr.get_latest_with_metadata("s", {"owner": "b"})


def test_deletes(sr: Any) -> None:
    sr.register_schema("s", Schema(USER))
    sr.register_schema("s", Schema(USER2))
    # Like upstream's mock, delete_version answers the schema id of the version deleted.
    assert sr.delete_version("s", 2) == 2
    assert sr.get_versions("s") == [1]
    with pytest.raises(SchemaRegistryError):
        sr.delete_version("s", 2)
    assert sr.delete_subject("s") == [1]
    assert sr.get_subjects() == []
    with pytest.raises(SchemaRegistryError):
        sr.get_schema(1)


def test_schema_id_lookups_and_references(sr: Any) -> None:
    sr.register_schema("base", Schema(USER))
    ref = Schema('{"type":"record","name":"Box","fields":[{"name":"u","type":"User"}]}',
                 references=[SchemaReference("User", "base", 1)])
    box_id = sr.register_schema("box", ref)
    assert sr.get_subjects_by_schema_id(1) == ["base"]
    assert [(v.subject, v.version) for v in sr.get_schema_versions(1)] == [("base", 1)]
    assert sr.get_referenced_by("base", 1) == [box_id]
    assert sr.get_schema(box_id).references == [SchemaReference("User", "base", 1)]
    with pytest.raises(SchemaRegistryError) as info:
        sr.get_subjects_by_schema_id(42)
    assert info.value.error_code == 40403


def test_config_compatibility_and_modes(sr: Any) -> None:
    assert sr.get_compatibility() == "BACKWARD"
    assert sr.set_compatibility(level="full") == {"compatibility": "FULL"}
    assert sr.get_compatibility() == "FULL"
    with pytest.raises(ValueError, match="level must be set"):
        sr.set_compatibility("s")
    with pytest.raises(SchemaRegistryError) as info:
        sr.get_compatibility("s")
    assert info.value.error_code == 40408
    sr.set_config("s", ServerConfig(compatibility=ConfigCompatibilityLevel.NONE))
    assert sr.get_config("s").compatibility_level == ConfigCompatibilityLevel.NONE
    assert sr.delete_config("s").compatibility_level == ConfigCompatibilityLevel.NONE
    assert sr.set_config("s") is None  # upstream's mock accepts no config and answers None
    assert sr.get_global_mode() == "READWRITE"
    assert sr.update_global_mode("READONLY") == "READONLY"
    assert sr.update_mode("s", "IMPORT", force=True) == "IMPORT"
    assert sr.get_mode("s") == "IMPORT"
    assert sr.delete_mode("s") == "IMPORT"
    assert sr.get_schema_types() == ["JSON", "PROTOBUF", "AVRO"]
    assert sr.get_contexts() == ["."]


def test_compatibility_checks_are_not_implemented_by_the_mock(sr: Any) -> None:
    with pytest.raises(NotImplementedError, match="compatibility"):
        sr.test_compatibility("s", Schema(USER))
    with pytest.raises(NotImplementedError, match="compatibility"):
        sr.test_compatibility_all_versions("s", Schema(USER))


def test_associations(sr: Any) -> None:
    request = AssociationCreateOrUpdateRequest(
        resource_name="orders", resource_namespace="lkc-1", resource_id="r1", resource_type="topic",
        associations=[AssociationCreateOrUpdateInfo(subject="orders-value", association_type="value"),
                      AssociationCreateOrUpdateInfo(subject="orders-key", association_type="key")])
    made = sr.create_association(request)
    assert [a.subject for a in made.associations] == ["orders-value", "orders-key"]
    found = sr.get_associations_by_resource_name("orders", "-", association_types=["value"])
    assert [(a.subject, a.resource_id) for a in found] == [("orders-value", "r1")]
    assert sr.get_associations_by_resource_name("orders", "other-ns") == []
    assert sr.delete_associations("r1", association_types=["value"]) is None
    assert [a.subject for a in sr.get_associations_by_resource_name("orders", "lkc-1")] == ["orders-key"]


def test_caches_can_be_cleared(sr: Any) -> None:
    assert sr.clear_caches() is None
    assert sr.clear_latest_caches() is None
    assert sr.config() == {"url": "mock://unit"}


def test_context_managers() -> None:
    with SchemaRegistryClient({"url": "http://127.0.0.1:1"}) as client:
        assert client.config()["url"] == "http://127.0.0.1:1"
    client.close()  # twice is fine

    async def run() -> None:
        async with AsyncSchemaRegistryClient({"url": "http://127.0.0.1:1"}) as client:
            assert client.config()["url"] == "http://127.0.0.1:1"
        await client.aclose()

    asyncio.run(run())


@pytest.mark.parametrize("conf,error,text", [
    ({}, ValueError, "Missing required configuration property url"),
    ({"url": 5}, TypeError, "url must be a str"),
    ({"url": "ftp://x"}, ValueError, "Invalid url ftp://x"),
    ({"url": "mock://x", "bogus": 1}, ValueError, "Unrecognized properties: bogus"),
    ({"url": "mock://x", "max.retries": "3"}, TypeError, "max.retries must be a number"),
    ({"url": "mock://x", "cache.capacity": None, "timeout": 5}, None, None),
    ({"url": "http://u:p@h", "basic.auth.user.info": "a:b"}, ValueError, "userinfo credentials in the URL"),
    ({"url": "http://h", "basic.auth.user.info": "nocolon"}, ValueError, "must be in the form"),
    ({"url": "http://h", "ssl.key.location": "/k"}, ValueError, "ssl.certificate.location required"),
    ({"url": "http://h", "bearer.auth.credentials.source": "NOPE"}, ValueError, "Unrecognized bearer"),
    ({"url": "http://h", "bearer.auth.credentials.source": "STATIC_TOKEN"}, ValueError, "bearer.auth.logical.cluster"),
    ({"url": "http://h", "bearer.auth.credentials.source": "STATIC_TOKEN", "bearer.auth.logical.cluster": "c"},
     ValueError, "Missing bearer.auth.token"),
    ({"url": "http://h", "bearer.auth.credentials.source": "OAUTHBEARER", "bearer.auth.logical.cluster": "c",
      "bearer.auth.client.id": "i", "bearer.auth.client.secret": "s", "bearer.auth.scope": "x"},
     ValueError, "Missing required OAuth configuration properties: bearer.auth.issuer.endpoint.url"),
    ({"url": "http://h", "bearer.auth.credentials.source": "OAUTHBEARER_AZURE_IMDS", "bearer.auth.logical.cluster": "c"},
     ValueError, "bearer.auth.issuer.endpoint.query must be provided"),
])
def test_configuration_is_checked(conf: dict, error: Any, text: Any) -> None:
    for make in (SchemaRegistryClient, AsyncSchemaRegistryClient):
        if error is None:
            make(conf)
            continue
        with pytest.raises(error, match=text):
            make(conf)


def test_data_model_round_trips() -> None:
    schema = Schema(USER, "AVRO", [SchemaReference("r", "s", 1)],
                    Metadata(tags=None, properties=MetadataProperties({"k": "v"}), sensitive=["x"]))
    assert Schema.from_dict(schema.to_dict()) == schema
    assert hash(Schema.from_dict(schema.to_dict())) == hash(schema)
    registered = RegisteredSchema(subject="s", version=1, schema_id=3, guid="g", schema=schema)
    assert RegisteredSchema.from_dict(registered.to_dict()) == registered
    assert ServerConfig.from_dict({"compatibilityLevel": "FULL"}).to_dict() == {"compatibilityLevel": "FULL"}
    assert str(ConfigCompatibilityLevel.FULL) == "FULL"
