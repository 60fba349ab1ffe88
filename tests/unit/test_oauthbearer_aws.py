"""AWS IAM OAUTHBEARER, piece by piece: the list syntax, the settings, the extensions, reading
the JWT, the STS call (botocore's Stubber), and how the client configuration is rewritten."""

from __future__ import annotations

import datetime
import importlib
import sys
from typing import Any, Dict, Iterator

import pytest

boto3 = pytest.importorskip("boto3")
from botocore.exceptions import ClientError  # noqa: E402
from botocore.stub import Stubber  # noqa: E402

from confluent_kafka import _oauthbearer  # noqa: E402
from confluent_kafka._oauthbearer._kv import key_values, split_fields  # noqa: E402
from confluent_kafka._oauthbearer.aws import jwt_extractor, sasl_extensions_parser  # noqa: E402
from confluent_kafka._oauthbearer.aws.aws_autowire import create_handler  # noqa: E402
from confluent_kafka._oauthbearer.aws.aws_iam_marker import (  # noqa: E402
    AWS_IAM_MARKER_KEY, AWS_IAM_MARKER_VALUE)
from confluent_kafka._oauthbearer.aws.aws_oauthbearer_config import AwsOAuthBearerConfig  # noqa: E402
from confluent_kafka._oauthbearer.aws.aws_sts_token_provider import AwsStsTokenProvider  # noqa: E402

from fake_sts import AWS_ENV, make_jwt  # noqa: E402

SUB = "arn:aws:iam::123456789012:role/payments"


@pytest.fixture(autouse=True)
def aws_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for k, v in AWS_ENV.items():
        monkeypatch.setenv(k, v)


# ---- librdkafka's list syntax ----------------------------------------------------------------

@pytest.mark.parametrize("raw,fields", [
    ("a,b,c", ["a", "b", "c"]),
    ("  a , b ,c  ", ["a", "b", "c"]),
    ("a,,b,", ["a", "b"]),
    (",,,", []),
    ("", []),
    (r"a\,b,c", ["a,b", "c"]),
    (r"x\\y", ["x\\y"]),
    (r"\ lead,trail\ ", [" lead", "trail"]),  # escaped leading space kept, trailing one not
    (r"a\tb,c\nd,e\0f,g\rh", ["a\tb", "c\nd", "e\0f", "g\rh"]),
    (r"tab\t,nul\0", ["tab", "nul\0"]),  # trailing whitespace goes even when escaped
    ("dangling\\", ["dangling"]),
    ("\u00a0a", ["\u00a0a"]),  # only ASCII whitespace is trimmed, as C's isspace()
])
def test_split_fields(raw: str, fields: list) -> None:
    assert split_fields(raw, ",") == fields


def test_key_values_split_at_first_equals() -> None:
    assert key_values("a=1, b=x=y ,c=", ",") == [("a", "1"), ("b", "x=y"), ("c", "")]


@pytest.mark.parametrize("raw,bad", [("a=1,novalue", "novalue"), ("=v", "=v")])
def test_key_values_malformed(raw: str, bad: str) -> None:
    with pytest.raises(ValueError, match=f"Malformed entry '{bad}' in prop"):
        key_values(raw, ",", "prop")


def test_split_needs_str() -> None:
    with pytest.raises(TypeError):
        split_fields(None, ",")  # type: ignore[arg-type]


# ---- sasl.oauthbearer.extensions ------------------------------------------------------------

@pytest.mark.parametrize("raw,parsed", [
    (None, None), ("", None), (",, ,", None),
    ("logicalCluster=lkc-1,identityPoolId=pool-1",
     {"logicalCluster": "lkc-1", "identityPoolId": "pool-1"}),
    ("k=1,k=2", {"k": "2"}),
    (r"pools=a\,b", {"pools": "a,b"}),
])
def test_extensions_parse(raw: Any, parsed: Any) -> None:
    assert sasl_extensions_parser.parse(raw) == parsed


def test_extensions_malformed() -> None:
    with pytest.raises(ValueError, match="sasl.oauthbearer.extensions"):
        sasl_extensions_parser.parse("logicalCluster")


# ---- sasl.oauthbearer.config ----------------------------------------------------------------

def test_config_defaults() -> None:
    cfg = AwsOAuthBearerConfig.parse("region=us-east-1,audience=https://kafka.example")
    assert cfg == AwsOAuthBearerConfig(region="us-east-1", audience="https://kafka.example",
                                       signing_algorithm="ES384", duration_seconds=300,
                                       sts_endpoint=None, aws_debug="none", tags=None,
                                       sasl_extensions=None)


def test_config_every_key() -> None:
    ext = {"logicalCluster": "lkc-1"}
    cfg = AwsOAuthBearerConfig.parse(
        r"region=eu-west-1, audience=aud\,2, duration_seconds=900, signing_algorithm=RS256,"
        "sts_endpoint=https://sts-fips.us-east-1.amazonaws.com,aws_debug=NONE,tag_team=pay,"
        "tag_env=prod,tag_team=payments,region=eu-central-1", ext)
    assert (cfg.region, cfg.audience, cfg.duration_seconds, cfg.signing_algorithm) == (
        "eu-central-1", "aud,2", 900, "RS256")
    assert cfg.sts_endpoint == "https://sts-fips.us-east-1.amazonaws.com"
    assert cfg.aws_debug == "none"
    assert cfg.tags == {"team": "payments", "env": "prod"}
    assert cfg.sasl_extensions is ext


@pytest.mark.parametrize("raw,message", [
    ("audience=a", "'region' is required in sasl.oauthbearer.config."),
    ("region=r", "'audience' is required in sasl.oauthbearer.config."),
    ("region=,audience=a", "sasl.oauthbearer.config 'region' must not be empty."),
    ("region=r,audience=a,sts_endpoint=", "sasl.oauthbearer.config 'sts_endpoint' must not be empty."),
    ("region=r,audience=a,foo=1", "Unknown key 'foo' in sasl.oauthbearer.config."),
    ("region=r,audience=a,extension_x=1", "Unknown key 'extension_x' in sasl.oauthbearer.config."),
    ("region=r,audience=a,duration_seconds=5m",
     "sasl.oauthbearer.config 'duration_seconds' must be an integer; got '5m'."),
    ("region=r,audience=a,duration_seconds=59",
     "sasl.oauthbearer.config 'duration_seconds' must be between 60 and 3600 inclusive; got 59."),
    ("region=r,audience=a,duration_seconds=3601",
     "sasl.oauthbearer.config 'duration_seconds' must be between 60 and 3600 inclusive; got 3601."),
    ("region=r,audience=a,signing_algorithm=HS256",
     "sasl.oauthbearer.config 'signing_algorithm' must be 'ES384' or 'RS256'; got 'HS256'."),
    ("region=r,audience=a,aws_debug=verbose",
     "sasl.oauthbearer.config 'aws_debug' must be one of: none, console. Got 'verbose'."),
    ("region=r,audience=a,tag_=x", "sasl.oauthbearer.config tag key 'tag_' has empty name."),
    ("region=r,audience=a," + ",".join(f"tag_t{i}=v" for i in range(51)),
     "sasl.oauthbearer.config has 51 tags; AWS allows at most 50."),
    ("region=r,audience", "Malformed entry 'audience' in sasl.oauthbearer.config"),
])
def test_config_errors(raw: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        AwsOAuthBearerConfig.parse(raw)
    assert str(info.value).startswith(message)


def test_config_bounds_accepted() -> None:
    for seconds in (60, 3600):
        assert AwsOAuthBearerConfig.parse(f"region=r,audience=a,duration_seconds={seconds}").duration_seconds == seconds
    assert len(AwsOAuthBearerConfig.parse("region=r,audience=a," + ",".join(
        f"tag_t{i}=v" for i in range(50))).tags or {}) == 50


def test_config_direct_construction_checks_types() -> None:
    with pytest.raises(ValueError, match="must be an integer"):
        AwsOAuthBearerConfig(region="r", audience="a", duration_seconds=True)
    with pytest.raises(TypeError):
        AwsOAuthBearerConfig.parse(None)  # type: ignore[arg-type]


# ---- reading the JWT ----------------------------------------------------------------------

@pytest.mark.parametrize("sub", ["a", "ab", "abc", "arn:aws:iam::1:role/x", "ünï"])
def test_sub_and_exp_any_payload_length(sub: str) -> None:
    # base64url without padding: payload lengths of every remainder mod 4 that can occur.
    jwt = make_jwt({"sub": sub, "exp": 1700000000})
    assert jwt_extractor.extract_sub(jwt) == sub
    assert jwt_extractor.extract_exp(jwt) == 1700000000.0


def test_exp_fractional_and_missing() -> None:
    assert jwt_extractor.extract_exp(make_jwt({"sub": "s", "exp": 1700000000.5})) == 1700000000.5
    assert jwt_extractor.extract_exp(make_jwt({"sub": "s"})) is None


def test_claims_url_safe_alphabet() -> None:
    # A payload whose base64 has '+' and '/' in the standard alphabet: '-' and '_' in a JWT.
    claims = {"sub": "s", "k": "??"}
    jwt = make_jwt(claims)
    assert "-" in jwt.split(".")[1] or "_" in jwt.split(".")[1]
    assert jwt_extractor.claims(jwt) == claims


@pytest.mark.parametrize("jwt,needle", [
    ("", "empty"),
    (None, "must be a str"),
    ("a.b", "3 dot-separated segments"),
    ("a.b.c.d", "3 dot-separated segments"),
    ("h..s", "not base64url"),
    ("h.abcde.s", "not base64url"),
    ("h.!!!!.s", "not base64url"),
    ("h." + "eyJzdWIiOiAieCJ9"[:-1] + "*.s", "not base64url"),
    ("h.bm90IGpzb24.s", "not base64url-encoded UTF-8 JSON"),  # "not json"
    ("h.WzEsMl0.s", "not a JSON object"),  # [1,2]
    ("h._w.s", "not base64url-encoded UTF-8 JSON"),  # invalid UTF-8
    ("x" * 8193, "8193 characters"),
])
def test_claims_errors(jwt: Any, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        jwt_extractor.claims(jwt)


@pytest.mark.parametrize("claims", [{"exp": 1}, {"sub": ""}, {"sub": 5}])
def test_sub_missing_or_empty(claims: Dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="'sub'"):
        jwt_extractor.extract_sub(make_jwt(claims))


@pytest.mark.parametrize("exp", ["soon", True, [1]])
def test_exp_not_a_number(exp: Any) -> None:
    with pytest.raises(ValueError, match="'exp'"):
        jwt_extractor.extract_exp(make_jwt({"sub": "s", "exp": exp}))


# ---- the STS call --------------------------------------------------------------------------

def _stubbed(cfg: str, ext: Any = None) -> "tuple[AwsStsTokenProvider, Stubber]":
    client = boto3.client("sts", region_name="eu-west-1")
    stub = Stubber(client)
    stub.activate()
    return AwsStsTokenProvider(AwsOAuthBearerConfig.parse(cfg, ext), sts_client=client), stub


def _at(seconds: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


def test_provider_asks_sts_and_returns_the_oauth_cb_tuple() -> None:
    provider, stub = _stubbed("region=eu-west-1,audience=https://kafka.example,duration_seconds=900,"
                              "signing_algorithm=RS256,tag_team=payments,tag_env=prod",
                              {"logicalCluster": "lkc-1"})
    jwt = make_jwt({"sub": SUB, "exp": 2_000_000_900})
    stub.add_response("get_web_identity_token",
                      {"WebIdentityToken": jwt, "Expiration": _at(2_000_000_900)},
                      {"Audience": ["https://kafka.example"], "SigningAlgorithm": "RS256",
                       "DurationSeconds": 900,
                       "Tags": [{"Key": "team", "Value": "payments"}, {"Key": "env", "Value": "prod"}]})
    token, expiry, principal, extensions = provider.token("ignored")
    stub.assert_no_pending_responses()
    assert (token, expiry, principal, extensions) == (jwt, 2_000_000_900.0, SUB, {"logicalCluster": "lkc-1"})
    # Each call is a new STS request (librdkafka calls it on every refresh).
    stub.add_response("get_web_identity_token", {"WebIdentityToken": jwt, "Expiration": _at(2_000_001_000)})
    assert provider.token()[1] == 2_000_000_900.0  # the token's own exp is earlier: it wins
    stub.assert_no_pending_responses()


def test_provider_without_tags_or_extensions() -> None:
    provider, stub = _stubbed("region=eu-west-1,audience=a")
    jwt = make_jwt({"sub": SUB})
    stub.add_response("get_web_identity_token", {"WebIdentityToken": jwt, "Expiration": _at(2_000_000_000)},
                      {"Audience": ["a"], "SigningAlgorithm": "ES384", "DurationSeconds": 300})
    result = provider.token()
    assert result == (jwt, 2_000_000_000.0, SUB, {})
    assert type(result[3]) is dict


def test_provider_expiry_from_token_when_sts_gives_none() -> None:
    provider, _ = _stubbed("region=r,audience=a")
    provider._sts = type("Sts", (), {"get_web_identity_token": staticmethod(
        lambda **kw: {"WebIdentityToken": make_jwt({"sub": SUB, "exp": 2_000_000_123})})})()
    assert provider.token()[1] == 2_000_000_123.0


@pytest.mark.parametrize("answer,needle", [
    ({}, "without a WebIdentityToken"),
    ({"WebIdentityToken": ""}, "without a WebIdentityToken"),
    ({"WebIdentityToken": make_jwt({"sub": SUB})}, "without an Expiration"),
    ({"WebIdentityToken": make_jwt({"aud": "a"}), "Expiration": _at(2e9)}, "'sub'"),
])
def test_provider_bad_answers(answer: Dict[str, Any], needle: str) -> None:
    provider, _ = _stubbed("region=r,audience=a")
    provider._sts = type("Sts", (), {"get_web_identity_token": staticmethod(lambda **kw: answer)})()
    with pytest.raises(ValueError, match=needle):
        provider.token()


def test_provider_sts_error_propagates() -> None:
    provider, stub = _stubbed("region=r,audience=a")
    stub.add_client_error("get_web_identity_token", "AccessDenied", "not allowed", 403)
    with pytest.raises(ClientError, match="AccessDenied"):
        provider.token()


def test_provider_real_client_uses_region_and_endpoint() -> None:
    provider = AwsStsTokenProvider(AwsOAuthBearerConfig.parse(
        "region=ap-south-1,audience=a,sts_endpoint=http://127.0.0.1:9"))
    assert provider._sts.meta.region_name == "ap-south-1"
    assert provider._sts.meta.endpoint_url == "http://127.0.0.1:9"


def test_provider_boto3_without_operation(monkeypatch: pytest.MonkeyPatch) -> None:
    class OldSession:
        def __init__(self, **kw: Any) -> None:
            pass

        def client(self, name: str, **kw: Any) -> object:
            return object()

    monkeypatch.setattr(boto3, "Session", OldSession)
    with pytest.raises(ImportError, match=r"boto3>=1\.42\.25.*pip install -U 'confluent-kafka\[oauthbearer-aws\]'"):
        AwsStsTokenProvider(AwsOAuthBearerConfig.parse("region=r,audience=a"))


def test_create_handler_contract() -> None:
    handler = create_handler("region=r,audience=a", "k=v")
    assert callable(handler)
    for empty in ("", None):
        with pytest.raises(ValueError, match="missing or empty"):
            create_handler(empty, None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sasl.oauthbearer.extensions"):
        create_handler("region=r,audience=a", "broken")


# ---- rewriting the client configuration -------------------------------------------------

def _aws_conf(**extra: Any) -> Dict[str, Any]:
    conf = {"sasl.mechanisms": "OAUTHBEARER", "sasl.oauthbearer.method": "oidc",
            AWS_IAM_MARKER_KEY: AWS_IAM_MARKER_VALUE, "sasl.oauthbearer.config": "region=r,audience=a",
            "sasl.oauthbearer.extensions": "k=v"}
    conf.update(extra)
    return conf


def test_prepare_config_swaps_marker_for_oauth_cb() -> None:
    conf = _aws_conf()
    _oauthbearer.prepare_config(conf)
    assert AWS_IAM_MARKER_KEY not in conf and "sasl.oauthbearer.method" not in conf
    assert conf["oauth_cb"].__self__.__class__ is AwsStsTokenProvider
    assert conf["sasl.oauthbearer.config"] == "region=r,audience=a"  # still passed to oauth_cb


def test_prepare_config_keeps_the_applications_oauth_cb() -> None:
    def mine(config: str) -> Any:
        return "t", 0.0

    conf = _aws_conf(**{"sasl.oauthbearer.method": "default", "oauth_cb": mine})
    del conf["sasl.oauthbearer.config"]
    _oauthbearer.prepare_config(conf)
    assert conf["oauth_cb"] is mine
    assert AWS_IAM_MARKER_KEY not in conf and "sasl.oauthbearer.method" not in conf


def test_prepare_config_leaves_other_configs_alone() -> None:
    for conf in ({"a": 1}, {AWS_IAM_MARKER_KEY: "azure_imds"}, {AWS_IAM_MARKER_KEY: "AWS_IAM"},
                 {AWS_IAM_MARKER_KEY: 5}):
        before = dict(conf)
        _oauthbearer.prepare_config(conf)
        assert conf == before


def test_prepare_config_marker_in_default_topic_config_does_not_touch_callers_dict() -> None:
    nested = {AWS_IAM_MARKER_KEY: AWS_IAM_MARKER_VALUE, "acks": "all"}
    conf = _aws_conf(**{"default.topic.config": nested})
    del conf[AWS_IAM_MARKER_KEY]
    _oauthbearer.prepare_config(conf)
    assert conf["default.topic.config"] == {"acks": "all"}
    assert nested == {AWS_IAM_MARKER_KEY: AWS_IAM_MARKER_VALUE, "acks": "all"}
    assert callable(conf["oauth_cb"])


@pytest.mark.parametrize("change,message", [
    ({"sasl.oauthbearer.method": None}, "Current value: <unset>."),
    ({"sasl.oauthbearer.method": "OIDC"}, "Current value: 'OIDC'."),
    ({"sasl.oauthbearer.method": 1}, "Current value: <non-string>."),
    ({"sasl.oauthbearer.config": None}, "'sasl.oauthbearer.config' is missing or empty"),
    ({"sasl.oauthbearer.config": ""}, "'sasl.oauthbearer.config' is missing or empty"),
    ({"sasl.oauthbearer.config": 7}, "'sasl.oauthbearer.config' is missing or empty"),
])
def test_prepare_config_errors(change: Dict[str, Any], message: str) -> None:
    conf = _aws_conf()
    for k, v in change.items():
        if v is None:
            del conf[k]
        else:
            conf[k] = v
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("'", "'")):
        _oauthbearer.prepare_config(conf)


@pytest.fixture
def without_boto3(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """boto3 not importable, and the provider modules forgotten so they import it afresh."""
    saved = {k: m for k, m in sys.modules.items() if k.startswith("confluent_kafka._oauthbearer.aws.")}
    for k in saved:
        monkeypatch.delitem(sys.modules, k)
    monkeypatch.setitem(sys.modules, "boto3", None)
    yield
    for k in list(sys.modules):
        if k.startswith("confluent_kafka._oauthbearer.aws."):
            del sys.modules[k]
    sys.modules.update(saved)


EXTRA_MESSAGE = ("Config 'sasl.oauthbearer.metadata.authentication.type=aws_iam' requires the optional "
                 "'oauthbearer-aws' extra. Install with:\n    pip install 'confluent-kafka[oauthbearer-aws]'")


def test_missing_boto3_names_the_extra(without_boto3: None) -> None:
    from confluent_kafka import Producer

    with pytest.raises(ImportError) as info:
        Producer(_aws_conf(**{"bootstrap.servers": "127.0.0.1:1"}))
    assert str(info.value) == EXTRA_MESSAGE
    with pytest.raises(ImportError) as info:
        importlib.import_module("confluent_kafka._oauthbearer.aws.aws_autowire")
    assert str(info.value) == EXTRA_MESSAGE
    # Checked before boto3 is needed: the configuration errors still come first.
    with pytest.raises(ValueError, match="requires 'sasl.oauthbearer.method=oidc'"):
        Producer(_aws_conf(**{"sasl.oauthbearer.method": "default"}))
