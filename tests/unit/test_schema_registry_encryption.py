"""Field and payload encryption rules (``ENCRYPT``, ``ENCRYPT_PAYLOAD``) with the local KMS and
the ``mock://`` DEK registry, for each format, sync and async; the DEK registry's REST calls; and
the cloud KMS drivers' registration and configuration checks."""

from __future__ import annotations

import json
import sys
from typing import Any, Dict, List

import pytest

pytest.importorskip("tink", reason="the rules extra is not installed")
pytest.importorskip("hkdf", reason="the rules extra is not installed")
pytest.importorskip("celpy", reason="the rules extra is not installed")

from test_schema_registry_rules import ANN, Side, ctx, registry, rule  # noqa: E402

from confluent_kafka.schema_registry import SchemaRegistryClient, SchemaRegistryError  # noqa: E402
from confluent_kafka.schema_registry.common._httpx_compat import httpx  # noqa: E402
from confluent_kafka.schema_registry.rules.encryption.awskms.aws_driver import AwsKmsDriver  # noqa: E402
from confluent_kafka.schema_registry.rules.encryption.azurekms.azure_driver import AzureKmsDriver  # noqa: E402
from confluent_kafka.schema_registry.rules.encryption.dek_registry.dek_registry_client import (  # noqa: E402
    DekAlgorithm,
    DekRegistryClient,
)
from confluent_kafka.schema_registry.rules.encryption.dek_registry.mock_dek_registry_client import (  # noqa: E402
    MockDekRegistryClient,
)
from confluent_kafka.schema_registry.rules.encryption.encrypt_executor import (  # noqa: E402
    Clock,
    EncryptionExecutor,
    FieldEncryptionExecutor,
)
from confluent_kafka.schema_registry.rules.encryption.gcpkms.gcp_driver import GcpKmsDriver  # noqa: E402
from confluent_kafka.schema_registry.rules.encryption.hcvault.hcvault_driver import HcVaultKmsDriver  # noqa: E402
from confluent_kafka.schema_registry.rules.encryption.kms_driver_registry import (  # noqa: E402
    get_kms_driver,
    register_kms_driver,
    reset_kms_drivers,
)
from confluent_kafka.schema_registry.rules.encryption.localkms.local_driver import LocalKmsDriver  # noqa: E402
from confluent_kafka.serialization import SerializationError  # noqa: E402

PARAMS = {"encrypt.kek.name": "kek", "encrypt.kms.type": "local-kms", "encrypt.kms.key.id": "key"}
CONF = {"secret": "unit-secret"}


@pytest.fixture(autouse=True)
def local_kms() -> Any:
    reset_kms_drivers()
    LocalKmsDriver.register()
    yield
    reset_kms_drivers()


@pytest.fixture(params=[(f, k) for f in ("avro", "json", "protobuf") for k in ("sync", "async")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def side(request: Any) -> Side:
    made = Side(*request.param)
    yield made
    made.loop.close()


def enc(params: Dict[str, str] = {}, type_: str = "ENCRYPT", tags: List[str] = ["PII"]) -> Any:
    return rule("enc", "TRANSFORM", "WRITEREAD", type_, None, tags=tags, params=dict(PARAMS, **params))


@pytest.mark.parametrize("algorithm", ["AES256_GCM", "AES128_GCM", "AES256_SIV"])
def test_field_encryption_round_trip(side: Side, algorithm: str) -> None:
    side.register("t-value", [enc({"encrypt.dek.algorithm": algorithm})])
    field = FieldEncryptionExecutor()
    reg = registry(field)
    data = side.serializer(reg, rule_conf=CONF)(dict(ANN, name="secret-name"))
    assert b"secret-name" not in data and b"ann@example.com" in data
    assert side.deserializer(reg, rule_conf=CONF)(data) == dict(ANN, name="secret-name")
    assert isinstance(field.executor.client, MockDekRegistryClient)
    kek = field.executor.client.get_kek("kek")
    assert (kek.kms_type, kek.kms_key_id) == ("local-kms", "key")
    dek = field.executor.client.get_dek("kek", "t-value", DekAlgorithm[algorithm])
    assert dek.encrypted_key_material and dek.version == 1


def test_deterministic_encryption_repeats_itself() -> None:
    side = Side("avro", "sync")
    side.register("t-value", [enc({"encrypt.dek.algorithm": "AES256_SIV"})])
    ser = side.serializer(registry(FieldEncryptionExecutor()), rule_conf=CONF)
    assert ser(ANN) == ser(ANN)
    side.register("u-value", [enc()])
    ser = side.serializer(registry(FieldEncryptionExecutor()), rule_conf=CONF)
    assert ser(ANN, ctx("u")) != ser(ANN, ctx("u"))  # AES-GCM: a fresh nonce each time


def test_payload_encryption(side: Side) -> None:
    side.register("t-value", encoding=[enc(type_="ENCRYPT_PAYLOAD", tags=[])])
    reg = registry(EncryptionExecutor())
    data = side.serializer(reg, rule_conf=CONF)(ANN)
    assert b"ann" not in data
    assert side.deserializer(reg, rule_conf=CONF)(data) == ANN


def test_reading_needs_the_secret_and_the_dek() -> None:
    side = Side("avro", "sync")
    side.register("t-value", [enc()])
    field = FieldEncryptionExecutor()
    data = side.serializer(registry(field), rule_conf=CONF)(ANN)
    with pytest.raises(SerializationError) as info:  # another executor: another (empty) DEK registry
        side.deserializer(registry(FieldEncryptionExecutor()), rule_conf=CONF)(data)
    assert str(info.value.__cause__) == "no kek found for kek during consume"


class FakeClock(Clock):
    def __init__(self) -> None:
        self.ms = super().now()

    def now(self) -> int:
        return self.ms


def test_dek_rotation_prefixes_the_version() -> None:
    clock = FakeClock()
    side = Side("avro", "sync")
    side.register("t-value", [enc({"encrypt.dek.expiry.days": "1"})])
    field = FieldEncryptionExecutor(clock)
    reg = registry(field)
    ser, de = side.serializer(reg, rule_conf=CONF), side.deserializer(reg, rule_conf=CONF)
    first = ser(ANN)
    clock.ms += 2 * 86_400_000
    second = ser(dict(ANN, name="bo"))
    assert field.executor.client.get_dek("kek", "t-value", version=-1).version == 2
    assert de(first) == ANN and de(second)["name"] == "bo"


@pytest.mark.parametrize("params, cause", [
    ({"encrypt.kek.name": ""}, "empty kek name"),
    ({"encrypt.dek.expiry.days": "x"}, "invalid expiry days"),
    ({"encrypt.dek.expiry.days": "-2"}, "negative expiry days"),
    ({"encrypt.kms.type": "aws-kms"}, "found kek with kms type local-kms which differs from rule kms type aws-kms"),
])
def test_rule_errors(params: Dict[str, str], cause: str) -> None:
    side = Side("avro", "sync")
    side.register("ok-value", [enc()])
    reg = registry(FieldEncryptionExecutor())
    side.serializer(reg, rule_conf=CONF)(ANN, ctx("ok"))  # the KEK exists now
    side.register("t-value", [enc(params)])
    with pytest.raises(SerializationError) as info:
        side.serializer(reg, rule_conf=CONF)(ANN)
    assert str(info.value.__cause__) == cause


def test_a_kek_of_an_unregistered_kms_fails() -> None:
    reset_kms_drivers()
    side = Side("avro", "sync")
    side.register("t-value", [enc({"encrypt.kek.name": "third"})])
    with pytest.raises(SerializationError) as info:
        side.serializer(registry(FieldEncryptionExecutor()), rule_conf=CONF)(ANN)
    assert str(info.value.__cause__) == "failed to encrypt with all KEKs for third"
    assert "no KMS driver found for key URL: local-kms://key" in str(info.value.__cause__.__cause__)


def test_configure_refuses_conflicts() -> None:
    executor = EncryptionExecutor()
    executor.configure({"url": "mock://a"}, {"k": "v"})
    executor.configure({"url": "mock://a"}, {"k": "v", "j": "w"})
    assert executor.config == {"k": "v", "j": "w"}
    with pytest.raises(Exception, match="rule config key already set: k"):
        executor.configure({"url": "mock://a"}, {"k": "other"})
    with pytest.raises(Exception, match="executor already configured"):
        executor.configure({"url": "mock://b"}, {})


class Recorder:
    """Stands in for the HTTP session: records requests, answers from a script."""

    def __init__(self, answers: List[Any]) -> None:
        self.calls: List[Any] = []
        self.answers = answers

    def __call__(self, call: Any) -> Any:
        self.calls.append((call.method, call.url, json.loads(call.content) if call.content else None, call.params))
        status, body = self.answers.pop(0)
        return httpx.Response(status, json=body)


def test_dek_registry_rest_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    client = DekRegistryClient.new_client({"url": "http://registry.invalid:8081", "max.retries": 0})
    assert type(client) is DekRegistryClient
    kek = {"name": "k", "kmsType": "local-kms", "kmsKeyId": "id", "shared": False, "ts": 1}
    dek = {"kekName": "k", "subject": "s:1", "version": 1, "algorithm": "AES256_GCM", "encryptedKeyMaterial": "eA=="}
    recorder = Recorder([(200, kek), (200, dek), (200, dek), (405, {"error_code": 405, "message": "no"}), (200, dek),
                         (404, {"error_code": 40470, "message": "Key Not Found"})])
    monkeypatch.setattr(SchemaRegistryClient, "_send", lambda self, call: recorder(call))
    assert client.register_kek("k", "local-kms", "id", context=".ctx").kms_key_id == "id"
    assert client.get_kek("k", context=".ctx").name == "k"  # cached by the registration
    assert client.register_dek("k", "s:1", "eA==").get_encrypted_key_material_bytes() == b"x"
    assert client.get_dek("k", "s:1", version=2).version == 1
    client._dek_cache.clear()
    assert client.register_dek("k", "s:1", "eA==", DekAlgorithm.AES128_GCM, 3).subject == "s:1"
    with pytest.raises(SchemaRegistryError) as info:
        client.get_kek("missing")
    assert info.value.http_status_code == 404
    methods = [(m, u.split("8081")[1], p) for m, u, _, p in recorder.calls]
    assert methods == [
        ("POST", "/dek-registry/v1/keks", {"context": ".ctx"}),
        ("POST", "/dek-registry/v1/keks/k/deks/s%3A1", None),
        ("GET", "/dek-registry/v1/keks/k/deks/s%3A1/versions/2", {"algorithm": "AES256_GCM", "deleted": False}),
        ("POST", "/dek-registry/v1/keks/k/deks/s%3A1", None),
        ("POST", "/dek-registry/v1/keks/k/deks", None),
        ("GET", "/dek-registry/v1/keks/missing", {"deleted": False}),
    ]
    assert recorder.calls[0][2] == {"name": "k", "kmsType": "local-kms", "kmsKeyId": "id", "shared": False}
    assert recorder.calls[1][2] == {"subject": "s:1", "version": 1, "algorithm": "AES256_GCM",
                                    "encryptedKeyMaterial": "eA=="}


def test_drivers_register_by_prefix() -> None:
    for driver in (AwsKmsDriver, AzureKmsDriver, GcpKmsDriver, HcVaultKmsDriver):
        driver.register()
    for prefix, kind in [("aws-kms://", AwsKmsDriver), ("azure-kms://", AzureKmsDriver), ("gcp-kms://", GcpKmsDriver),
                         ("hcvault://", HcVaultKmsDriver), ("local-kms://", LocalKmsDriver)]:
        assert isinstance(get_kms_driver(prefix + "key"), kind)
    with pytest.raises(Exception, match="no KMS driver found for key URL: x://"):
        get_kms_driver("x://")


def test_driver_configuration_is_checked() -> None:
    import tink

    with pytest.raises(tink.TinkError, match="invalid key id"):
        AwsKmsDriver().new_kms_client({}, "aws-kms://arn:aws:kms")
    with pytest.raises(tink.TinkError, match="account.type must be 'service_account'"):
        GcpKmsDriver().new_kms_client({"account.type": "user"}, "gcp-kms://k")
    with pytest.raises(ValueError, match="ssl.certificate.location required"):
        HcVaultKmsDriver().new_kms_client({"ssl.key.location": "k"}, "hcvault://h/transit/keys/k")
    assert HcVaultKmsDriver._get_verify({"ssl.ca.location": ""}) is True  # empty never turns TLS checks off
    with pytest.raises(tink.TinkError, match="cannot load secret"):
        LocalKmsDriver().new_kms_client({}, "local-kms://k")


@pytest.mark.parametrize("driver, conf, url, module", [
    (AwsKmsDriver, {}, "aws-kms://arn:aws:kms:us-east-1:1:key/k", "boto3"),
    (GcpKmsDriver, {}, "gcp-kms://projects/p/locations/l/keyRings/r/cryptoKeys/k", "google.cloud.kms_v1"),
    (HcVaultKmsDriver, {"token.id": "t"}, "hcvault://127.0.0.1:1/transit/keys/k", "hvac"),
    (AzureKmsDriver, {}, "azure-kms://https://v.vault.azure.net/keys/k", "azure.identity"),
])
def test_a_missing_sdk_says_what_to_install(monkeypatch: pytest.MonkeyPatch, driver: Any, conf: Dict[str, str],
                                             url: str, module: str) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ImportError, match=r"pip install 'confluent-kafka\[rules\]'"):
        driver().new_kms_client(conf, url)


def test_register_kms_driver_keeps_order() -> None:
    class Mine(LocalKmsDriver):
        pass

    register_kms_driver(Mine())
    assert type(get_kms_driver("local-kms://k")) is LocalKmsDriver  # registered first
