"""The Schema Registry clients fetching OAuth tokens (``bearer.auth.credentials.source`` =
``OAUTHBEARER``: the client credentials grant; ``OAUTHBEARER_AZURE_IMDS``: Azure's instance
metadata service, its URL overridden) from a loopback HTTP server started here, which also plays
the registry: the requests each side sends (method, path, form, headers), when it fetches again,
and what it raises when the endpoint refuses."""
from __future__ import annotations

import asyncio
import http.server
import json
import threading
from typing import Any, Dict, List, Optional, Tuple

from observe import outcome

_SKIPPED_HEADERS = {"host", "user-agent", "content-length", "accept-encoding", "connection", "confluent-client-version"}


class _Server:
    """A loopback HTTP server answering from a queue (the default: a token, or an empty list
    for a registry call) and recording each request."""

    def __init__(self) -> None:
        self.log: List[Any] = []
        self.answers: List[Tuple[int, Any]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else ""
                outer.log.append([self.command, self.path, body, sorted(
                    [k, v] for k, v in self.headers.items() if k.lower() not in _SKIPPED_HEADERS)])
                if outer.answers:
                    status, payload = outer.answers.pop(0)
                elif "token" in self.path:
                    status, payload = 200, {"access_token": "default", "token_type": "bearer", "expires_in": 3600}
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

    def take(self) -> List[Any]:
        seen, self.log = self.log, []
        return [json.loads(json.dumps(entry).replace(self.url, "URL")) for entry in seen]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _oidc(server: _Server, **more: Any) -> Dict[str, Any]:
    return {"url": server.url, "bearer.auth.credentials.source": "OAUTHBEARER", "bearer.auth.client.id": "id:x y",
            "bearer.auth.client.secret": "se/cr%et", "bearer.auth.scope": "sc1 sc2",
            "bearer.auth.issuer.endpoint.url": server.url + "/token?x=1", "bearer.auth.logical.cluster": "lsrc-1",
            "max.retries": 1, "retries.wait.ms": 1, "retries.max.wait.ms": 2, **more}


def _azure(server: _Server, **more: Any) -> Dict[str, Any]:
    return {"url": server.url, "bearer.auth.credentials.source": "OAUTHBEARER_AZURE_IMDS",
            "bearer.auth.issuer.endpoint.url": server.url + "/metadata/identity/oauth2/token",
            "bearer.auth.issuer.endpoint.query": "api-version=2018-02-01&resource=api://r&client_id=c",
            "bearer.auth.logical.cluster": "lsrc-1", "max.retries": 0, **more}


def _calls(server: _Server, conf: Dict[str, Any], answers: List[Tuple[int, Any]], n: int = 2) -> Any:
    from confluent_kafka.schema_registry import SchemaRegistryClient

    server.answers = list(answers)
    client = SchemaRegistryClient(conf)
    results = []
    for _ in range(n):
        results.append(_normalised(outcome(client.get_subjects), server))
    client.close()
    return {"results": results, "requests": server.take()}


def _normalised(seen: Any, server: _Server) -> Any:
    return json.loads(json.dumps(seen).replace(server.url, "URL"))


def scenario_client_credentials() -> Any:
    server = _Server()
    try:
        return {
            "fetch once": _calls(server, _oidc(server, **{"bearer.auth.identity.pool.id": ["p1", "p2"]}),
                                 [(200, {"access_token": "tok1", "token_type": "bearer", "expires_in": 3600}),
                                  (200, ["s1"]), (200, ["s2"])]),
            "no scope": _calls(server, _oidc(server, **{"bearer.auth.scope": ""}), [], 1),
            "expired: fetched again": _calls(server, _oidc(server), [
                (200, {"access_token": "a", "expires_in": 3600, "expires_at": 0}), (200, ["x"]),
                (200, {"access_token": "b", "expires_in": 3600, "expires_at": 0}), (200, ["y"])]),
            "numeric token": _calls(server, _oidc(server), [(200, {"access_token": 5, "expires_in": 60})], 1),
        }
    finally:
        server.close()


def scenario_client_credentials_refused() -> Any:
    server = _Server()
    error = {"error": "invalid_client", "error_description": "bad secret"}
    try:
        return {
            "oauth error, retried": _calls(server, _oidc(server), [(401, error), (401, error)], 1),
            "then not json": _calls(server, _oidc(server), [(401, error), (400, b"not json")], 1),
            "error without description": _calls(server, _oidc(server, **{"max.retries": 0}),
                                                [(400, {"error": "invalid_scope"})], 1),
            "ok but not json": _calls(server, _oidc(server, **{"max.retries": 0}), [(200, b"nope")], 1),
            "no access token": _calls(server, _oidc(server, **{"max.retries": 0}), [(403, {"x": 1})], 1),
            "server error": _calls(server, _oidc(server, **{"max.retries": 0}), [(500, {"x": 1})], 1),
            "error object on 200": _calls(server, _oidc(server, **{"max.retries": 0}), [(200, {"error": "w"})], 1),
            "recovers": _calls(server, _oidc(server), [(503, b"busy"), (200, {"access_token": "t", "expires_in": 9})],
                               1),
            "unreachable": _normalised(outcome(lambda: _unreachable()), server),
        }
    finally:
        server.close()


def _unreachable() -> Any:
    from confluent_kafka.schema_registry import SchemaRegistryClient

    client = SchemaRegistryClient({"url": "http://127.0.0.1:1", "bearer.auth.credentials.source": "OAUTHBEARER",
                                   "bearer.auth.client.id": "i", "bearer.auth.client.secret": "s",
                                   "bearer.auth.scope": "", "bearer.auth.issuer.endpoint.url": "http://127.0.0.1:1/t",
                                   "bearer.auth.logical.cluster": "c", "max.retries": 0})
    try:
        client.get_subjects()
    except Exception as exc:  # noqa: BLE001
        return {"raises": type(exc).__name__, "starts": str(exc)[:48], "cause": type(exc.__cause__).__name__
                if exc.__cause__ is not None else None}
    return None


def scenario_azure_imds() -> Any:
    import time

    server = _Server()
    later = str(int(time.time()) + 3600)
    try:
        return {
            "fetch once": _calls(server, _azure(server), [
                (200, {"access_token": "az", "expires_in": "3599", "expires_on": later}), (200, ["a"]), (200, ["b"])]),
            "expired: fetched again": _calls(server, _azure(server), [
                (200, {"access_token": "a1", "expires_in": "3599", "expires_on": "0"}), (200, ["a"]),
                (200, {"access_token": "a2", "expires_in": "3599", "expires_on": "0"}), (200, ["b"])]),
            "url without query": _calls(server, _azure(server, **{"bearer.auth.issuer.endpoint.query": None}), [
                (200, {"access_token": "q", "expires_in": "10", "expires_on": later})], 1),
            "no token": _calls(server, _azure(server), [(500, {"error": "x"})], 1),
            "not json": _calls(server, _azure(server), [(200, b"nope")], 1),
            "empty": _calls(server, _azure(server), [(404, b"")], 1),
        }
    finally:
        server.close()


def scenario_async_client() -> Any:
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient

    server = _Server()

    async def calls(conf: Dict[str, Any], answers: List[Tuple[int, Any]], n: int = 2) -> Any:
        server.answers = list(answers)
        client = AsyncSchemaRegistryClient(conf)
        results: List[Any] = []
        for _ in range(n):
            try:
                results.append({"ok": await client.get_subjects()})
            except Exception as exc:  # noqa: BLE001
                results.append({"raises": type(exc).__name__, "str": str(exc)})
        await client.aclose()
        return {"results": _normalised(results, server), "requests": server.take()}

    async def main() -> Any:
        return {
            "client credentials": await calls(_oidc(server), [(200, {"access_token": "t", "expires_in": 600}),
                                                              (200, ["s"])]),
            "expired": await calls(_oidc(server), [(200, {"access_token": "a", "expires_in": 5, "expires_at": 1}),
                                                   (200, []), (200, {"access_token": "b", "expires_in": 5})]),
            "refused": await calls(_oidc(server), [(401, {"error": "nope"}), (401, {"error": "nope"})], 1),
            "azure": await calls(_azure(server), [(200, {"access_token": "z", "expires_in": "60",
                                                         "expires_on": "99999999999"})]),
        }

    try:
        return asyncio.run(main())
    finally:
        server.close()


def scenario_mock_client_fetches_nothing() -> Any:
    """A mock:// client configured for OAuth answers without fetching a token."""
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient, Schema, SchemaRegistryClient

    server = _Server()
    try:
        conf = {**_oidc(server), "url": "mock://oauth"}
        client = SchemaRegistryClient.new_client(conf)
        out: Dict[str, Any] = {"register": outcome(client.register_schema, "s", Schema('"string"')),
                               "subjects": outcome(client.get_subjects)}

        async def main() -> Any:
            aclient = AsyncSchemaRegistryClient.new_client({**_azure(server), "url": "mock://oauth-async"})
            return await aclient.get_subjects()

        out["async"] = outcome(lambda: asyncio.run(main()))
        out["requests"] = server.take()
        return out
    finally:
        server.close()


def scenario_oauth_settings() -> Any:
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient, SchemaRegistryClient

    base = {"url": "http://127.0.0.1:1", "bearer.auth.logical.cluster": "c"}
    oidc = {**base, "bearer.auth.credentials.source": "OAUTHBEARER", "bearer.auth.client.id": "i",
            "bearer.auth.client.secret": "s", "bearer.auth.scope": "x", "bearer.auth.issuer.endpoint.url": "http://t"}
    azure = {**base, "bearer.auth.credentials.source": "OAUTHBEARER_AZURE_IMDS"}
    confs: Dict[str, Optional[Dict[str, Any]]] = {
        "oidc": oidc,
        "oidc no cluster": {k: v for k, v in oidc.items() if k != "bearer.auth.logical.cluster"},
        "oidc missing secret": {k: v for k, v in oidc.items() if k != "bearer.auth.client.secret"},
        "oidc id not str": {**oidc, "bearer.auth.client.id": 5},
        "oidc scope not str": {**oidc, "bearer.auth.scope": None},
        "oidc endpoint not str": {**oidc, "bearer.auth.issuer.endpoint.url": 1},
        "oidc pool list": {**oidc, "bearer.auth.identity.pool.id": ["a", "b"]},
        "azure no query": azure,
        "azure query": {**azure, "bearer.auth.issuer.endpoint.query": "resource=r"},
        "azure query not str": {**azure, "bearer.auth.issuer.endpoint.query": 5},
        "azure url": {**azure, "bearer.auth.issuer.endpoint.url": "http://imds/token"},
        "azure url not str": {**azure, "bearer.auth.issuer.endpoint.url": 5},
        "azure extra key": {**azure, "bearer.auth.issuer.endpoint.query": "a=b", "bearer.auth.client.id": "x"},
    }
    out = {}
    for name, conf in confs.items():
        out[name] = outcome(lambda c=conf: type(SchemaRegistryClient(c)).__name__)
        out[name + " async"] = outcome(lambda c=conf: type(AsyncSchemaRegistryClient(c)).__name__)
    return out


def scenario_token_lifetime_missing_or_text() -> Any:
    """A token answer without ``expires_in`` (it is optional in RFC 6749), or with it as text:
    the token is kept (ours) / the second request fails on the missing or text lifetime
    (upstream: KeyError, TypeError). Deliberate, see deliberate.py."""
    server = _Server()
    try:
        return {
            "no lifetime": _calls(server, _oidc(server), [(200, {"access_token": "a"})]),
            "lifetime as text": _calls(server, _oidc(server), [(200, {"access_token": "b", "expires_in": "30"})]),
        }
    finally:
        server.close()
