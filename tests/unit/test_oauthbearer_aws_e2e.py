"""AWS IAM OAUTHBEARER end to end: the client configuration alone makes each client fetch a
JWT from STS (a loopback stand-in answered through a real boto3 client) and authenticate with it
(a loopback broker that speaks the SASL part of the protocol; librdkafka's mock cluster has no
SASL)."""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, Iterator, List

import pytest

pytest.importorskip("boto3")

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer  # noqa: E402
from confluent_kafka.admin import AdminClient  # noqa: E402

from fake_sasl_broker import METADATA, FakeSaslBroker  # noqa: E402
from fake_sts import AWS_ENV, FakeSts, error_answer, jwt_claims_of, make_jwt, token_answer  # noqa: E402

ROLE = "arn:aws:iam::123456789012:role/app"


@pytest.fixture
def sts(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSts]:
    for k, v in AWS_ENV.items():
        monkeypatch.setenv(k, v)
    with FakeSts() as fake:
        yield fake


@pytest.fixture
def broker() -> Iterator[FakeSaslBroker]:
    with FakeSaslBroker() as fake:
        yield fake


def aws_conf(bootstrap: str, sts_url: str, **extra: Any) -> Dict[str, Any]:
    conf = {
        "bootstrap.servers": bootstrap,
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanisms": "OAUTHBEARER",
        "sasl.oauthbearer.method": "oidc",
        "sasl.oauthbearer.metadata.authentication.type": "aws_iam",
        "sasl.oauthbearer.config": (f"region=eu-west-1,audience=https://kafka.example,duration_seconds=900,"
                                    f"tag_team=payments,sts_endpoint={sts_url}"),
        "sasl.oauthbearer.extensions": "logicalCluster=lkc-1,identityPoolId=pool-1",
        "log_level": 0,
    }
    conf.update(extra)
    return conf


CLIENTS: Dict[str, Callable[[Dict[str, Any]], Any]] = {
    "Producer": Producer,
    "Consumer": lambda conf: Consumer(dict(conf, **{"group.id": "g"})),
    "AdminClient": AdminClient,
}


@pytest.mark.parametrize("kind", sorted(CLIENTS))
def test_client_authenticates_with_the_sts_token(kind: str, sts: FakeSts, broker: FakeSaslBroker) -> None:
    client = CLIENTS[kind](aws_conf(broker.bootstrap, sts.url))
    try:
        # The constructor waited for the first token: STS was asked exactly what was configured.
        assert len(sts.requests) == 1
        req = sts.requests[0]
        assert req["Audience.member.1"] == ["https://kafka.example"]
        assert req["SigningAlgorithm"] == ["ES384"] and req["DurationSeconds"] == ["900"]
        assert (req["Tags.member.1.Key"], req["Tags.member.1.Value"]) == (["team"], ["payments"])
        # The broker got that JWT with the configured extensions, accepted it, and the client
        # went on to its next request: it is authenticated.
        assert broker.wait_for(lambda r: METADATA in r.after_auth, 15), broker.record
        auth = broker.record.auths[0]
        assert broker.record.handshakes[0] == "OAUTHBEARER"
        assert jwt_claims_of(auth.token)["sub"] == ROLE
        assert jwt_claims_of(auth.token)["aud"] == ["https://kafka.example"]
        assert auth.extensions == {"logicalCluster": "lkc-1", "identityPoolId": "pool-1"}
        assert auth.accepted
    finally:
        client.close()


def test_sts_refusal_fails_the_constructor_with_its_cause(sts: FakeSts, broker: FakeSaslBroker) -> None:
    sts.answer = lambda fields: error_answer("AccessDenied", "not allowed to call GetWebIdentityToken")
    t0 = time.monotonic()
    with pytest.raises(KafkaException) as info:
        Producer(aws_conf(broker.bootstrap, sts.url))
    assert time.monotonic() - t0 < 5
    assert info.value.args[0].code() == KafkaError.SASL_AUTHENTICATION_FAILED
    assert "AccessDenied" in info.value.args[0].str()
    assert type(info.value.__cause__).__name__ == "ClientError"
    assert broker.record.auths == []


def test_token_refused_by_the_broker_is_an_authentication_error(sts: FakeSts) -> None:
    errors: List[KafkaError] = []
    with FakeSaslBroker(accept=lambda token: False) as refusing:
        p = Producer(aws_conf(refusing.bootstrap, sts.url, error_cb=errors.append))
        try:
            deadline = time.monotonic() + 15
            while not any(e.code() == KafkaError._AUTHENTICATION for e in errors):
                assert time.monotonic() < deadline, errors
                p.poll(0.2)
        finally:
            p.close(0)
    assert refusing.record.auths and not refusing.record.auths[0].accepted


def test_expiry_comes_from_sts(sts: FakeSts, broker: FakeSaslBroker) -> None:
    # librdkafka refreshes at 80% of the token's lifetime (48 s for STS's shortest, 60 s): too
    # slow to wait for here. What it is given is STS's Expiration: an expired one is refused.
    now = time.time()
    sts.answer = lambda fields: token_answer(make_jwt({"sub": ROLE}), now - 5)
    with pytest.raises(KafkaException, match="unexpired"):
        Producer(aws_conf(broker.bootstrap, sts.url))


def test_applications_own_oauth_cb_is_used(sts: FakeSts, broker: FakeSaslBroker) -> None:
    calls: List[str] = []

    def mine(config: str) -> Any:
        calls.append(config)
        return make_jwt({"sub": "mine"}), time.time() + 60, "mine", {"x": "y"}

    p = Producer(aws_conf(broker.bootstrap, sts.url, oauth_cb=mine))
    try:
        assert broker.wait_for(lambda r: METADATA in r.after_auth, 15)
        assert calls and sts.requests == []
        assert jwt_claims_of(broker.record.auths[0].token)["sub"] == "mine"
    finally:
        p.close(0)
