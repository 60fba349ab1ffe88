"""The Schema Registry clients' HTTP behaviour, on httpx's MockTransport: request shape,
retries with backoff, failover between URLs, error decoding, basic and bearer authentication,
and TLS settings handed to httpx. Sync and async clients run the same cases."""

from __future__ import annotations

import asyncio
import base64
import json
import ssl
from typing import Any, Callable, Dict, List

import pytest

httpx = pytest.importorskip("httpx2", reason="the schemaregistry extra is not installed")

from confluent_kafka.schema_registry import AsyncSchemaRegistryClient, Schema, SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry import SchemaRegistryError  # noqa: E402
from confluent_kafka.schema_registry._async import schema_registry_client as async_module  # noqa: E402
from confluent_kafka.schema_registry._sync import schema_registry_client as sync_module  # noqa: E402
from confluent_kafka.schema_registry.common import _rest  # noqa: E402

Handler = Callable[[Any], Any]


class Recorder:
    """Answers requests from a script of (status, body) pairs, remembering each request."""

    def __init__(self, answers: List[Any]) -> None:
        self.answers = list(answers)
        self.requests: List[Any] = []

    def __call__(self, request: Any) -> Any:
        self.requests.append(request)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        status, body = answer
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        return httpx.Response(status, content=content)


@pytest.fixture(params=["sync", "async"])
def make(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """``make(conf, recorder)``: a client whose HTTP goes to ``recorder``; calls are run to the
    end (awaited for the async client)."""
    sleeps: List[float] = []
    monkeypatch.setattr(sync_module, "_sleep", sleeps.append)

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)

    monkeypatch.setattr(async_module, "_sleep", fake_sleep)
    real_client, real_async = httpx.Client, httpx.AsyncClient
    made: Dict[str, Any] = {}

    def build(conf: Dict[str, Any], recorder: Recorder) -> Any:
        class Fake:
            TransportError = httpx.TransportError

            @staticmethod
            def Client(**kwargs: Any) -> Any:  # noqa: N802 - httpx's name
                made.update(kwargs)
                return real_client(transport=httpx.MockTransport(recorder), **kwargs)

            @staticmethod
            def AsyncClient(**kwargs: Any) -> Any:  # noqa: N802
                made.update(kwargs)
                return real_async(transport=httpx.MockTransport(recorder), **kwargs)

        monkeypatch.setattr(sync_module, "httpx", Fake)
        monkeypatch.setattr(async_module, "httpx", Fake)
        if request.param == "sync":
            client = SchemaRegistryClient(conf)
            return Caller(client, None, sleeps, made)
        return Caller(AsyncSchemaRegistryClient(conf), asyncio.new_event_loop(), sleeps, made)

    return build


class Caller:
    def __init__(self, client: Any, loop: Any, sleeps: List[float], made: Dict[str, Any]) -> None:
        self.client, self.loop, self.sleeps, self.made = client, loop, sleeps, made

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.client, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            return self.loop.run_until_complete(result) if asyncio.iscoroutine(result) else result

        return call


FAST = {"retries.wait.ms": 10, "retries.max.wait.ms": 40}


def test_register_sends_the_schema_and_caches_the_id(make: Any) -> None:
    rec = Recorder([(200, {"id": 7})])
    sr = make({"url": "http://sr:8081/", **FAST}, rec)
    assert sr.register_schema("a/b", Schema('"string"')) == 7
    assert sr.register_schema("a/b", Schema('"string"')) == 7  # cached: one request
    assert len(rec.requests) == 1
    req = rec.requests[0]
    assert req.method == "POST"
    assert req.url.path == "/subjects/a%2Fb/versions" or req.url.raw_path.startswith(b"/subjects/a%2Fb/versions")
    assert req.url.params["normalize"] == "false"
    assert json.loads(req.content) == {"schema": '"string"', "schemaType": "AVRO", "references": []}
    assert req.headers["Content-Type"] == "application/vnd.schemaregistry.v1+json"
    assert req.headers["Confluent-Client-Version"].startswith("python/")


def test_get_schema_is_cached(make: Any) -> None:
    rec = Recorder([(200, {"schema": '"int"'})])
    sr = make({"url": "http://sr", **FAST}, rec)
    assert sr.get_schema(3) == Schema('"int"', "AVRO")
    assert sr.get_schema(3) == Schema('"int"', "AVRO")
    assert len(rec.requests) == 1
    assert rec.requests[0].headers["Accept"].startswith("application/vnd.schemaregistry.v1+json")


def test_retriable_statuses_are_retried_with_backoff(make: Any) -> None:
    rec = Recorder([(503, {"error_code": 50301, "message": "busy"}), (429, b"slow down"), (200, ["s"])])
    sr = make({"url": "http://sr", **FAST}, rec)
    assert sr.get_subjects() == ["s"]
    assert len(rec.requests) == 3
    assert len(sr.sleeps) == 2 and all(0 <= s <= 0.04 for s in sr.sleeps)


def test_retries_run_out_and_the_last_answer_is_the_error(make: Any) -> None:
    rec = Recorder([(500, {"error_code": 50001, "message": "boom"})])
    sr = make({"url": "http://sr", "max.retries": 2, **FAST}, rec)
    with pytest.raises(SchemaRegistryError) as info:
        sr.get_subjects()
    assert (info.value.http_status_code, info.value.error_code, info.value.error_message) == (500, 50001, "boom")
    assert len(rec.requests) == 3


def test_a_non_retriable_error_is_not_retried(make: Any) -> None:
    rec = Recorder([(404, {"error_code": 40401, "message": "Subject 'x' not found."})])
    sr = make({"url": "http://a,http://b", **FAST}, rec)
    with pytest.raises(SchemaRegistryError, match="Subject 'x' not found"):
        sr.get_versions("x")
    assert len(rec.requests) == 1


def test_an_answer_that_is_not_json_is_an_unknown_error(make: Any) -> None:
    rec = Recorder([(502, b"<html>bad gateway</html>")])
    sr = make({"url": "http://sr", "max.retries": 0}, rec)
    with pytest.raises(SchemaRegistryError) as info:
        sr.get_subjects()
    assert info.value.error_code == -1
    assert "Unknown Schema Registry Error: b'<html>bad gateway</html>'" in str(info.value)


def test_transport_errors_are_retried_then_the_next_url_is_tried(make: Any) -> None:
    def answer(request: Any) -> Any:
        if request.url.host == "down":
            raise httpx.ConnectError("refused", request=request)
        return httpx.Response(200, json=["ok"])

    seen: List[str] = []

    def recorder(request: Any) -> Any:
        seen.append(request.url.host)
        return answer(request)

    sr = make({"url": "http://down,http://up", "max.retries": 1, **FAST}, recorder)
    assert sr.get_subjects() == ["ok"]
    assert seen == ["down", "down", "up"]


def test_transport_errors_on_the_last_url_are_raised(make: Any) -> None:
    def refuse(request: Any) -> Any:
        raise httpx.ConnectError("refused", request=request)

    sr = make({"url": "http://down", "max.retries": 1, **FAST}, refuse)
    with pytest.raises(httpx.ConnectError):
        sr.get_subjects()
    assert len(sr.sleeps) == 1


def test_basic_auth_from_user_info_and_from_the_url(make: Any) -> None:
    for conf in ({"url": "http://sr", "basic.auth.user.info": "alice:s3:cret"}, {"url": "http://alice:s3%3Acret@sr"}):
        rec = Recorder([(200, [])])
        sr = make(conf, rec)
        sr.get_subjects()
        expected = "Basic " + base64.b64encode(b"alice:s3:cret").decode()
        assert rec.requests[0].headers["Authorization"] == expected


def test_static_bearer_token_headers(make: Any) -> None:
    rec = Recorder([(200, [])])
    sr = make({"url": "http://sr", "bearer.auth.credentials.source": "STATIC_TOKEN", "bearer.auth.token": "tok",
               "bearer.auth.logical.cluster": "lsrc-1", "bearer.auth.identity.pool.id": ["p1", "p2"]}, rec)
    sr.get_subjects()
    headers = rec.requests[0].headers
    assert headers["Authorization"] == "Bearer tok"
    assert headers["target-sr-cluster"] == "lsrc-1"
    assert headers["Confluent-Identity-Pool-Id"] == "p1,p2"


def test_custom_bearer_function_is_called_per_request(make: Any) -> None:
    calls: List[Dict[str, Any]] = []

    def fields(conf: Dict[str, Any]) -> Dict[str, str]:
        calls.append(conf)
        return {"bearer.auth.token": f"t{len(calls)}", "bearer.auth.logical.cluster": "c"}

    rec = Recorder([(200, [])])
    sr = make({"url": "http://sr", "bearer.auth.credentials.source": "CUSTOM",
               "bearer.auth.custom.provider.function": fields,
               "bearer.auth.custom.provider.config": {"k": 1}}, rec)
    sr.get_subjects()
    sr.get_subjects()
    assert [r.headers["Authorization"] for r in rec.requests] == ["Bearer t1", "Bearer t2"]
    assert calls == [{"k": 1}, {"k": 1}]


def test_custom_bearer_function_missing_fields(make: Any) -> None:
    sr = make({"url": "http://sr", "bearer.auth.credentials.source": "CUSTOM",
               "bearer.auth.custom.provider.function": lambda conf: {"bearer.auth.token": "t"},
               "bearer.auth.custom.provider.config": {}}, Recorder([(200, [])]))
    with pytest.raises(ValueError, match="bearer.auth.logical.cluster"):
        sr.get_subjects()


def test_tls_and_client_settings_reach_httpx(make: Any, tmp_path: Any) -> None:
    sr = make({"url": "https://sr", "ssl.ca.location": False, "timeout": 7, "proxy": "http://proxy:3128"},
              Recorder([(200, [])]))
    verify = sr.made["verify"]
    assert isinstance(verify, ssl.SSLContext) and verify.verify_mode == ssl.CERT_NONE
    assert sr.made["timeout"] == 7 and sr.made["proxy"] == "http://proxy:3128"
    with pytest.raises((FileNotFoundError, ssl.SSLError, OSError)):
        make({"url": "https://sr", "ssl.certificate.location": str(tmp_path / "missing.pem")}, Recorder([(200, [])]))


def test_query_parameters(make: Any) -> None:
    rec = Recorder([(200, {"schema": '"int"', "id": 1, "version": 2, "subject": "s"}), (200, [])])
    sr = make({"url": "http://sr"}, rec)
    sr.get_latest_with_metadata("s", {"owner": "a b"}, deleted=True)
    params = rec.requests[0].url.params
    assert params.get_list("key") == ["owner"] and params.get_list("value") == ["a b"]
    assert params["deleted"] == "true"
    sr.get_associations_by_resource_name("t", "-", association_types=["key", "value"], offset=2, limit=5)
    params = rec.requests[1].url.params
    assert params.get_list("associationType") == ["key", "value"] and params["offset"] == "2"


def test_jitter_stays_under_its_ceiling() -> None:
    for attempt in range(8):
        assert 0 <= _rest.full_jitter(100, 1000, attempt) <= min(100 * 2 ** attempt, 1000)
