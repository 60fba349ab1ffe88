"""OAuth tokens for the Schema Registry clients, over real HTTP to a loopback server started
here that plays both the token endpoint and the registry: the client credentials grant
(``OAUTHBEARER``) and Azure's instance metadata service (``OAUTHBEARER_AZURE_IMDS``, its URL
pointed at the server), the token kept until 80% of its lifetime, retries, the errors, the
async client, and the mock:// client that fetches nothing."""

from __future__ import annotations

import asyncio
import base64
import http.server
import json
import threading
import time
from typing import Any, Dict, Iterator, List, Tuple
from urllib.parse import parse_qs, urlsplit

import pytest

pytest.importorskip("httpx2", reason="the schemaregistry extra is not installed")

from confluent_kafka.schema_registry import AsyncSchemaRegistryClient, SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.common._oauthbearer import _ClientCredentialsSource  # noqa: E402
from confluent_kafka.schema_registry.error import OAuthTokenError  # noqa: E402


class Endpoint:
    """A loopback server answering from a queue (default: a token for a path with "token",
    an empty list otherwise), recording (method, path, form/body, headers)."""

    def __init__(self) -> None:
        self.requests: List[Dict[str, Any]] = []
        self.answers: List[Tuple[int, Any]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else ""
                outer.requests.append({"method": self.command, "path": self.path, "body": body,
                                       "headers": dict(self.headers.items())})
                if outer.answers:
                    status, payload = outer.answers.pop(0)
                elif "token" in self.path:
                    status, payload = 200, {"access_token": "default", "expires_in": 3600}
                else:
                    status, payload = 200, []
                raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = _handle

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def paths(self) -> List[str]:
        return [r["path"].split("?")[0] for r in self.requests]

    def tokens_sent(self) -> List[str]:
        return [r["headers"].get("Authorization", "") for r in self.requests if "subjects" in r["path"]]


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    server = Endpoint()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


def oidc(endpoint: Endpoint, **more: Any) -> Dict[str, Any]:
    return {"url": endpoint.url, "bearer.auth.credentials.source": "OAUTHBEARER",
            "bearer.auth.client.id": "client:1", "bearer.auth.client.secret": "s3cr/et",
            "bearer.auth.scope": "registry.read registry.write", "bearer.auth.issuer.endpoint.url": endpoint.url + "/token",
            "bearer.auth.logical.cluster": "lsrc-1", "max.retries": 2, "retries.wait.ms": 1,
            "retries.max.wait.ms": 2, **more}


def azure(endpoint: Endpoint, **more: Any) -> Dict[str, Any]:
    return {"url": endpoint.url, "bearer.auth.credentials.source": "OAUTHBEARER_AZURE_IMDS",
            "bearer.auth.issuer.endpoint.url": endpoint.url + "/metadata/identity/oauth2/token",
            "bearer.auth.issuer.endpoint.query": "api-version=2018-02-01&resource=api://sr&client_id=mi",
            "bearer.auth.logical.cluster": "lsrc-1", "max.retries": 0, **more}


def test_client_credentials_grant_then_bearer_headers(endpoint: Endpoint) -> None:
    endpoint.answers = [(200, {"access_token": "tok-1", "token_type": "bearer", "expires_in": 3600}),
                        (200, ["a"]), (200, ["b"])]
    client = SchemaRegistryClient(oidc(endpoint, **{"bearer.auth.identity.pool.id": ["p1", "p2"]}))
    assert client.get_subjects() == ["a"]
    assert client.get_subjects() == ["b"]
    client.close()
    token_request, first, second = endpoint.requests
    assert (token_request["method"], token_request["path"]) == ("POST", "/token")
    assert parse_qs(token_request["body"]) == {"grant_type": ["client_credentials"],
                                               "scope": ["registry.read registry.write"]}
    assert token_request["headers"]["Authorization"] == "Basic " + base64.b64encode(b"client:1:s3cr/et").decode()
    assert token_request["headers"]["Content-Type"].startswith("application/x-www-form-urlencoded")
    for request in (first, second):  # one token, used for both calls
        assert request["headers"]["Authorization"] == "Bearer tok-1"
        assert request["headers"]["target-sr-cluster"] == "lsrc-1"
        assert request["headers"]["Confluent-Identity-Pool-Id"] == "p1,p2"


def test_token_is_fetched_again_past_80_percent_of_its_lifetime(endpoint: Endpoint) -> None:
    source = _ClientCredentialsSource("i", "s", "", endpoint.url, "c", None, 0, 1, 1)

    class Answer:
        status_code = 200

        def __init__(self, payload: Dict[str, Any]) -> None:
            self.payload = payload

        def json(self) -> Dict[str, Any]:
            return self.payload

    def fields(now: float, answer: Dict[str, Any]) -> Dict[str, Any]:
        op = source.fields_op(now=lambda: now)
        try:
            op.send(None)  # a TokenCall: a fetch is needed
        except StopIteration as done:
            return {"fetched": False, **done.value}
        try:
            op.send(Answer(answer))
        except StopIteration as done:
            return {"fetched": True, **done.value}
        raise AssertionError("more effects than one fetch")

    start = time.time()
    assert fields(start, {"access_token": "a", "expires_in": 100})["fetched"] is True
    assert fields(start + 79, {})["fetched"] is False  # 79% of the lifetime: kept
    refreshed = fields(start + 81, {"access_token": "b", "expires_in": 100})  # past 80%: fetched again
    assert refreshed["fetched"] is True and refreshed["bearer.auth.token"] == "b"


def test_an_expired_token_is_fetched_for_every_request(endpoint: Endpoint) -> None:
    endpoint.answers = [(200, {"access_token": "a", "expires_in": 60, "expires_at": 1}), (200, []),
                        (200, {"access_token": "b", "expires_in": 60}), (200, []), (200, [])]
    client = SchemaRegistryClient(oidc(endpoint))
    for _ in range(3):
        client.get_subjects()
    assert endpoint.paths() == ["/token", "/subjects", "/token", "/subjects", "/subjects"]
    assert endpoint.tokens_sent() == ["Bearer a", "Bearer b", "Bearer b"]


def test_failed_fetches_are_retried_then_raise(endpoint: Endpoint) -> None:
    refusal = (401, {"error": "invalid_client", "error_description": "unknown client"})
    endpoint.answers = [refusal, (503, b"busy"), refusal]
    client = SchemaRegistryClient(oidc(endpoint))
    with pytest.raises(OAuthTokenError) as raised:
        client.get_subjects()
    assert str(raised.value) == ("Failed to retrieve token after 2 attempts due to error: invalid_client: "
                                 "unknown client (HTTP None): None")
    assert endpoint.paths() == ["/token"] * 3  # 1 + max.retries, and no registry call
    endpoint.requests.clear()
    endpoint.answers = [(503, b"busy"), (200, {"access_token": "ok", "expires_in": 60})]
    assert client.get_subjects() == []
    assert endpoint.paths() == ["/token", "/token", "/subjects"]


@pytest.mark.parametrize("answer,text", [
    ((200, b"not json"), "Token endpoint response is not a JSON object (HTTP 200)."),
    ((400, b"not json"), "Client error '400 Bad Request'"),
    ((500, {"access_token": "x"}), "Server error '500 Internal Server Error'"),
    ((200, {"token_type": "bearer"}), "'access_token'"),
    ((400, {"error": "invalid_scope"}), "invalid_scope: "),
])
def test_what_a_refusal_says(endpoint: Endpoint, answer: Tuple[int, Any], text: str) -> None:
    endpoint.answers = [answer]
    with pytest.raises(OAuthTokenError, match="Failed to retrieve token after 0 attempts due to error: ") as raised:
        SchemaRegistryClient(oidc(endpoint, **{"max.retries": 0})).get_subjects()
    assert text in str(raised.value)


def test_token_without_or_with_text_lifetime(endpoint: Endpoint) -> None:
    # Deliberate (upstream fails the second request): no expires_in keeps the token; text is a number.
    endpoint.answers = [(200, {"access_token": "kept"})]
    client = SchemaRegistryClient(oidc(endpoint))
    client.get_subjects()
    client.get_subjects()
    assert endpoint.paths() == ["/token", "/subjects", "/subjects"]
    assert endpoint.tokens_sent() == ["Bearer kept", "Bearer kept"]
    endpoint.requests.clear()
    endpoint.answers = [(200, {"access_token": "t", "expires_in": "3600"})]
    client = SchemaRegistryClient(oidc(endpoint))
    client.get_subjects()
    client.get_subjects()
    assert endpoint.paths() == ["/token", "/subjects", "/subjects"]


def test_azure_imds(endpoint: Endpoint) -> None:
    later = str(int(time.time()) + 3600)
    endpoint.answers = [(200, {"access_token": "az", "expires_in": "3599", "expires_on": later}), (200, ["x"]),
                        (200, ["y"])]
    client = SchemaRegistryClient(azure(endpoint))
    assert client.get_subjects() == ["x"] and client.get_subjects() == ["y"]
    token_request = endpoint.requests[0]
    assert token_request["method"] == "GET" and token_request["headers"]["Metadata"] == "true"
    assert urlsplit(token_request["path"]).query == "api-version=2018-02-01&resource=api://sr&client_id=mi"
    assert "Authorization" not in token_request["headers"]
    assert endpoint.tokens_sent() == ["Bearer az", "Bearer az"]
    endpoint.requests.clear()
    endpoint.answers = [(200, {"access_token": "old", "expires_in": "60", "expires_on": "0"}), (200, []),
                        (200, {"access_token": "new", "expires_in": "60", "expires_on": later}), (200, [])]
    client = SchemaRegistryClient(azure(endpoint))
    client.get_subjects()
    client.get_subjects()
    assert endpoint.tokens_sent() == ["Bearer old", "Bearer new"]


def test_azure_default_endpoint_needs_a_query() -> None:
    conf = {"url": "http://h", "bearer.auth.credentials.source": "OAUTHBEARER_AZURE_IMDS",
            "bearer.auth.logical.cluster": "c"}
    with pytest.raises(ValueError, match="bearer.auth.issuer.endpoint.query must be provided"):
        SchemaRegistryClient(conf)
    client = SchemaRegistryClient({**conf, "bearer.auth.issuer.endpoint.query": "resource=r"})
    provider = client._rest_client.settings.bearer_field_provider
    assert provider.token_endpoint == "http://169.254.169.254/metadata/identity/oauth2/token?resource=r"


def test_async_client(endpoint: Endpoint) -> None:
    async def main() -> List[Any]:
        client = AsyncSchemaRegistryClient(oidc(endpoint))
        got = [await client.get_subjects(), await client.get_subjects()]
        await client.aclose()
        bad = AsyncSchemaRegistryClient(oidc(endpoint, **{"max.retries": 0}))
        endpoint.answers = [(401, {"error": "nope"})]
        with pytest.raises(OAuthTokenError, match="nope"):
            await bad.get_subjects()
        await bad.aclose()
        return got

    endpoint.answers = [(200, {"access_token": "async-tok", "expires_in": 600}), (200, ["s"]), (200, ["t"])]
    assert asyncio.run(main()) == [["s"], ["t"]]
    assert endpoint.paths() == ["/token", "/subjects", "/subjects", "/token"]
    assert endpoint.tokens_sent() == ["Bearer async-tok", "Bearer async-tok"]


def test_the_mock_client_fetches_no_token(endpoint: Endpoint) -> None:
    client = SchemaRegistryClient.new_client({**oidc(endpoint), "url": "mock://oauth-unit"})
    assert client.get_subjects() == []
    assert endpoint.requests == []


def test_the_token_endpoint_gets_none_of_the_registry_credentials(endpoint: Endpoint) -> None:
    client = SchemaRegistryClient({**azure(endpoint), "url": endpoint.url.replace("http://", "http://u:p@")})
    client.get_subjects()
    token_request, registry_request = endpoint.requests
    assert "Authorization" not in token_request["headers"]  # the registry's user info stays with the registry
    assert registry_request["headers"]["Authorization"] == "Basic " + base64.b64encode(b"u:p").decode()
