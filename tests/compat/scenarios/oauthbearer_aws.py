"""sasl.oauthbearer.metadata.authentication.type=aws_iam: checks, the missing extra, and a token
from STS reaching the broker, for each client kind.

The upstream venv has no boto3, so both sides get the same stand-in ``boto3`` module (its STS
client answers ``get_web_identity_token`` with a fixed JWT and records the calls), and a loopback
broker that speaks the SASL part of the protocol (tests/fake_sasl_broker.py) records the token.
"""
from __future__ import annotations

import datetime
import pathlib
import sys
import time
import types
from contextlib import contextmanager
from typing import Any, Callable, Dict, Iterator, List

from observe import data, outcome

from confluent_kafka import Consumer, KafkaException, Producer
from confluent_kafka.admin import AdminClient

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
from fake_sasl_broker import METADATA, FakeSaslBroker  # noqa: E402
from fake_sts import make_jwt  # noqa: E402

MARKER = "sasl.oauthbearer.metadata.authentication.type"
JWT = make_jwt({"sub": "arn:aws:iam::123456789012:role/app", "aud": "https://kafka.example"})
EXPIRES = 4_000_000_000  # 2096


def _conf(bootstrap: str = "127.0.0.1:1", **extra: Any) -> Dict[str, Any]:
    conf = {"bootstrap.servers": bootstrap, "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanisms": "OAUTHBEARER", "sasl.oauthbearer.method": "oidc", MARKER: "aws_iam",
            "sasl.oauthbearer.config": "region=eu-west-1,audience=https://kafka.example",
            "log_level": 0}
    conf.update(extra)
    return {k: v for k, v in conf.items() if v is not None}


@contextmanager
def fake_boto3(answer: Callable[[Dict[str, Any]], Any] = lambda kw: {
        "WebIdentityToken": JWT,
        "Expiration": datetime.datetime.fromtimestamp(EXPIRES, datetime.timezone.utc)},
        present: bool = True) -> Iterator[List[Any]]:
    """A ``boto3`` stand-in (or, with present=False, none at all) for the duration; the calls
    made to it are collected in the yielded list."""
    calls: List[Any] = []

    class Sts:
        def get_web_identity_token(self, **kw: Any) -> Any:
            calls.append(["get_web_identity_token", kw])
            return answer(kw)

    class Session:
        def __init__(self, **kw: Any) -> None:
            calls.append(["Session", kw])

        def client(self, name: str, **kw: Any) -> Sts:
            calls.append(["client", name, kw])
            return Sts()

    module = types.ModuleType("boto3")
    module.__version__ = "1.44.8"  # type: ignore[attr-defined]
    module.Session = Session  # type: ignore[attr-defined]
    module.set_stream_logger = lambda *a, **kw: calls.append(["set_stream_logger", list(a), kw])  # type: ignore[attr-defined]
    saved = {k: v for k, v in sys.modules.items() if k == "boto3" or k.startswith("confluent_kafka._oauthbearer.aws.")}
    for k in saved:
        del sys.modules[k]
    sys.modules["boto3"] = module if present else None  # type: ignore[assignment]
    try:
        yield calls
    finally:
        for k in [k for k in sys.modules if k == "boto3" or k.startswith("confluent_kafka._oauthbearer.aws.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def _close(client: Any) -> None:
    # Upstream's AdminClient has no close(): it goes with its last reference.
    close = getattr(client, "close", None)
    if close is not None:
        close()


def _attempt(make: Callable[[], Any]) -> Any:
    def run() -> str:
        _close(make())
        return "constructed"
    return outcome(run)


def scenario_configuration_checks() -> Any:
    cases = {
        "no method": _conf(**{"sasl.oauthbearer.method": None}),
        "method default": _conf(**{"sasl.oauthbearer.method": "default"}),
        "method OIDC": _conf(**{"sasl.oauthbearer.method": "OIDC"}),
        "method int": _conf(**{"sasl.oauthbearer.method": 1}),
        "no config": _conf(**{"sasl.oauthbearer.config": None}),
        "empty config": _conf(**{"sasl.oauthbearer.config": ""}),
        "config int": _conf(**{"sasl.oauthbearer.config": 5}),
        "no method, no config": _conf(**{"sasl.oauthbearer.method": None, "sasl.oauthbearer.config": None}),
        "no region": _conf(**{"sasl.oauthbearer.config": "audience=a"}),
        "no audience": _conf(**{"sasl.oauthbearer.config": "region=r"}),
        "empty region": _conf(**{"sasl.oauthbearer.config": "region=,audience=a"}),
        "unknown key": _conf(**{"sasl.oauthbearer.config": "region=r,audience=a,scope=x"}),
        "extension in config": _conf(**{"sasl.oauthbearer.config": "region=r,audience=a,extension_k=v"}),
        "malformed entry": _conf(**{"sasl.oauthbearer.config": "region=r,audience"}),
        "duration text": _conf(**{"sasl.oauthbearer.config": "region=r,audience=a,duration_seconds=5m"}),
        "duration low": _conf(**{"sasl.oauthbearer.config": "region=r,audience=a,duration_seconds=59"}),
        "duration high": _conf(**{"sasl.oauthbearer.config": "region=r,audience=a,duration_seconds=3601"}),
        "algorithm": _conf(**{"sasl.oauthbearer.config": "region=r,audience=a,signing_algorithm=HS256"}),
        "aws_debug": _conf(**{"sasl.oauthbearer.config": "region=r,audience=a,aws_debug=loud"}),
        "empty tag name": _conf(**{"sasl.oauthbearer.config": "region=r,audience=a,tag_=x"}),
        "51 tags": _conf(**{"sasl.oauthbearer.config": "region=r,audience=a," + ",".join(
            f"tag_t{i}=v" for i in range(51))}),
        "empty sts_endpoint": _conf(**{"sasl.oauthbearer.config": "region=r,audience=a,sts_endpoint="}),
        "malformed extension": _conf(**{"sasl.oauthbearer.extensions": "lkc"}),
        "extension empty key": _conf(**{"sasl.oauthbearer.extensions": "=v"}),
        "marker in default.topic.config": dict(_conf(**{MARKER: None, "sasl.oauthbearer.method": None}),
                                               **{"default.topic.config": {MARKER: "aws_iam"}}),
    }
    seen = {}
    with fake_boto3() as calls:
        for name, conf in cases.items():
            seen[name] = _attempt(lambda: Producer(conf))
    return {"outcomes": seen, "sts calls": len([c for c in calls if c[0] == "get_web_identity_token"])}


def scenario_missing_boto3_names_the_extra() -> Any:
    with fake_boto3(present=False):
        return {
            "Producer": _attempt(lambda: Producer(_conf())),
            "Consumer": _attempt(lambda: Consumer(_conf(**{"group.id": "g"}))),
            "AdminClient": _attempt(lambda: AdminClient(_conf())),
            # The configuration is checked before the import.
            "bad method": _attempt(lambda: Producer(_conf(**{"sasl.oauthbearer.method": None}))),
        }


def _authenticate(make: Callable[[str], Any], **extra: Any) -> Any:
    with FakeSaslBroker() as broker, fake_boto3() as calls:
        client = make(broker.bootstrap)
        try:
            done = broker.wait_for(lambda r: METADATA in r.after_auth, 15)
        finally:
            _close(client)
        auths = [{"token is the STS one": a.token == JWT, "extensions": a.extensions, "accepted": a.accepted}
                 for a in broker.record.auths[:1]]
        return {"authenticated": done, "handshake": broker.record.handshakes[:1], "auth": auths,
                "boto3 calls": data(calls)}


AWS_CONFIG = ("region=eu-west-1,audience=https://kafka.example,duration_seconds=900,"
              "signing_algorithm=RS256,tag_team=payments,sts_endpoint=https://sts.example:8443,"
              "aws_debug=console")


def scenario_producer_authenticates_with_sts_token() -> Any:
    return _authenticate(lambda b: Producer(_conf(b, **{"sasl.oauthbearer.config": AWS_CONFIG,
                                                        "sasl.oauthbearer.extensions": "logicalCluster=lkc-1"})))


def scenario_consumer_authenticates_with_sts_token() -> Any:
    return _authenticate(lambda b: Consumer(_conf(b, **{"group.id": "g",
                                                        "sasl.oauthbearer.extensions": r"pools=a\,b,x=1"})))


def scenario_admin_authenticates_with_sts_token() -> Any:
    return _authenticate(lambda b: AdminClient(_conf(b)))


def scenario_applications_oauth_cb_wins() -> Any:
    def mine(config: str) -> Any:
        return JWT, time.time() + 60, "mine", {"who": "app"}

    return _authenticate(lambda b: Producer(_conf(b, oauth_cb=mine, **{"sasl.oauthbearer.config": None})))


def scenario_sts_failure_fails_the_constructor() -> Any:
    def refuse(kw: Dict[str, Any]) -> Any:
        raise RuntimeError("AccessDenied")

    with fake_boto3(refuse):
        try:
            Producer(_conf())
        except KafkaException as exc:
            return {"raises": "KafkaException", "code": exc.args[0].code()}
        except Exception as exc:  # noqa: BLE001
            return {"raises": type(exc).__name__}
    return {"raises": None}
