"""The REST exchange with a Schema Registry, written once as plain logic with no I/O.

A request is a generator: it *yields* effects (:class:`HttpCall`, :class:`Sleep`,
:class:`BearerFields`) and is *sent* their results; it *returns* the decoded JSON answer or
raises :class:`SchemaRegistryError`. The sync client runs the effects on ``httpx.Client`` and
``time.sleep``, the async client on ``httpx.AsyncClient`` and ``asyncio.sleep``, and the
``mock://`` registry answers :class:`HttpCall` in-process. Failover between URLs, retries with
backoff and error decoding therefore exist once.
"""

from __future__ import annotations

import json
import os
import ssl
from typing import Any, Dict, Generator, List, Mapping, NamedTuple, Optional, Tuple, Type, Union
from urllib.parse import quote, unquote, urlparse

from ..error import SchemaRegistryError
from ._oauthbearer import (
    IDENTITY_POOL,
    LOGICAL_CLUSTER,
    TOKEN,
    TokenCall,
    TokenSleep,
    _BearerFieldProvider,
    _OAuthTokenSource,
    build_field_provider,
)
from .schema_registry_client import full_jitter, is_retriable, is_success

__all__ = ["HttpCall", "Sleep", "BearerFields", "TokenCall", "TokenSleep", "Effect", "RestSettings", "exchange",
           "urlencode"]


def urlencode(value: str) -> str:
    """``value`` quoted for one path segment (``/`` included)."""
    return quote(value, safe="")


class HttpCall(NamedTuple):
    """Send one HTTP request; the result sent back is the response (status_code, content,
    json()), or the transport exception is thrown back."""

    method: str
    url: str
    headers: Dict[str, str]
    content: Optional[str]
    params: Optional[Mapping[str, Any]]


class Sleep(NamedTuple):
    """Wait ``seconds`` before the next attempt; nothing is sent back."""

    seconds: float


class BearerFields(NamedTuple):
    """Ask the bearer provider for its fields (its call may be async); the dict is sent back."""

    provider: _BearerFieldProvider


Effect = Union[HttpCall, Sleep, BearerFields, TokenCall, TokenSleep]
Exchange = Generator[Effect, Any, Any]

_ACCEPT = "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json, application/json"


def _number(conf: Dict[str, Any], key: str) -> Optional[Union[int, float]]:
    value = conf.pop(key, None)
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise TypeError(f"{key} must be a number, not " + str(type(value)))
    return value


def _ssl_context(ca: Union[str, bool, None], cert: Optional[str], key: Optional[str],
                 password: Optional[str]) -> ssl.SSLContext:
    if ca is False:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    elif isinstance(ca, str):
        context = (ssl.create_default_context(capath=ca) if os.path.isdir(ca)
                   else ssl.create_default_context(cafile=ca))
    elif os.environ.get("SSL_CERT_FILE"):
        context = ssl.create_default_context(cafile=os.environ["SSL_CERT_FILE"])
    elif os.environ.get("SSL_CERT_DIR"):
        context = ssl.create_default_context(capath=os.environ["SSL_CERT_DIR"])
    else:
        import certifi

        context = ssl.create_default_context(cafile=certifi.where())
    if cert is not None:
        context.load_cert_chain(certfile=cert, keyfile=key, password=password)
    if (key is not None or password is not None) and cert is None:
        raise ValueError("ssl.certificate.location required when configuring ssl.key.location or ssl.key.password")
    return context


class RestSettings:
    """A client configuration, checked: URLs, TLS, credentials, timeouts, cache and retry
    settings. Unknown keys are refused.

    :param conf: the configuration dict (not modified).
    :raises ValueError: for a missing url, a malformed setting or an unknown key.
    :raises TypeError: for a setting of the wrong type.
    """

    def __init__(self, conf: Dict[str, Any]) -> None:
        if not isinstance(conf, dict):
            raise TypeError("conf must be a dict, not " + str(type(conf)))
        rest = dict(conf)
        url = rest.pop("url", None)
        if url is None:
            raise ValueError("Missing required configuration property url")
        if not isinstance(url, str):
            raise TypeError("url must be a str, not " + str(type(url)))
        self.base_urls: List[str] = []
        for one in url.split(","):
            one = one.strip().rstrip("/")
            if not one.startswith("http") and not one.startswith("mock"):
                raise ValueError("Invalid url {}".format(one))
            self.base_urls.append(one)

        ca = rest.pop("ssl.ca.location", None)
        key = rest.pop("ssl.key.location", None)
        password = rest.pop("ssl.key.password", None)
        cert = rest.pop("ssl.certificate.location", None)
        self.verify = _ssl_context(ca, cert, key, password)

        parsed = urlparse(self.base_urls[0])
        userinfo: Tuple[str, ...] = ("", "")
        if parsed.username is not None and parsed.password is not None:
            userinfo = (unquote(parsed.username), unquote(parsed.password))
        if "basic.auth.user.info" in rest:
            if userinfo != ("", ""):
                raise ValueError("basic.auth.user.info configured with userinfo credentials in the URL."
                                 " Remove userinfo credentials from the url or remove basic.auth.user.info"
                                 " from the configuration")
            userinfo = tuple(str(rest.pop("basic.auth.user.info", "")).split(":", 1))
            if len(userinfo) != 2:
                raise ValueError("basic.auth.user.info must be in the form of {username}:{password}")
        self.auth: Optional[Tuple[str, str]] = (userinfo[0], userinfo[1]) if userinfo != ("", "") else None
        self.proxy: Optional[str] = rest.pop("proxy", None)
        self.timeout: Any = rest.pop("timeout", None)

        capacity = _number(rest, "cache.capacity")
        self.cache_capacity = 1000 if capacity is None else int(capacity)
        self.cache_latest_ttl_sec = _number(rest, "cache.latest.ttl.sec")
        retries = _number(rest, "max.retries")
        self.max_retries = 3 if retries is None else int(retries)
        wait = _number(rest, "retries.wait.ms")
        self.retries_wait_ms = 1000 if wait is None else int(wait)
        max_wait = _number(rest, "retries.max.wait.ms")
        self.retries_max_wait_ms = 20000 if max_wait is None else int(max_wait)

        self.bearer_auth_credentials_source, self.bearer_field_provider = build_field_provider(
            rest, self.max_retries, self.retries_wait_ms, self.retries_max_wait_ms)
        #: Whether OAuth tokens are fetched (the mock:// client, which needs none, turns it off).
        self.fetch_tokens = True
        if rest:
            raise ValueError("Unrecognized properties: {}".format(", ".join(rest.keys())))


def _transport_errors() -> Tuple[Type[BaseException], ...]:
    from ._httpx_compat import httpx

    return (httpx.TransportError,)


def _decode_error(response: Any) -> SchemaRegistryError:
    try:
        answer = response.json()
        return SchemaRegistryError(response.status_code, answer.get("error_code"), answer.get("message"))
    except (ValueError, KeyError, AttributeError):
        return SchemaRegistryError(response.status_code, -1,
                                   "Unknown Schema Registry Error: " + str(response.content))


def _bearer_headers(fields: Dict[str, Any], headers: Dict[str, str]) -> None:
    missing = [name for name in (TOKEN, LOGICAL_CLUSTER) if name not in fields]
    if missing:
        raise ValueError("Missing required bearer auth fields, needs to be set in config or custom function: {}"
                         .format(", ".join(missing)))
    headers["Authorization"] = "Bearer {}".format(fields[TOKEN])
    headers["target-sr-cluster"] = fields[LOGICAL_CLUSTER]
    if IDENTITY_POOL in fields:
        headers["Confluent-Identity-Pool-Id"] = fields[IDENTITY_POOL]


def _attempts(settings: RestSettings, call: HttpCall) -> Exchange:
    """One URL: the call, retried with jittered backoff on a retriable status or a transport
    error. Returns the last response; re-raises the transport error when retries run out."""
    response = None
    for attempt in range(settings.max_retries + 1):
        try:
            response = yield call
        except _transport_errors():
            if attempt >= settings.max_retries:
                raise
        else:
            if is_success(response.status_code) or not is_retriable(response.status_code) \
                    or attempt >= settings.max_retries:
                return response
        yield Sleep(full_jitter(settings.retries_wait_ms, settings.retries_max_wait_ms, attempt) / 1000)
    return response


def exchange(settings: RestSettings, method: str, path: str, body: Optional[Dict[str, Any]] = None,
             query: Optional[Mapping[str, Any]] = None) -> Exchange:
    """One logical request, tried on each URL in turn until one answers for good.

    :param settings: the client's settings.
    :param method: GET, POST, PUT or DELETE.
    :param path: the path below the base URL, segments already quoted.
    :param body: the JSON body, if any.
    :param query: query parameters (lists repeat the key).
    :returns: the decoded JSON answer, or None for an empty one.
    :raises SchemaRegistryError: for an error answer.
    """
    content: Optional[str] = None
    if body is not None:
        content = json.dumps(body)
        headers = {"Content-Length": str(len(content)), "Content-Type": "application/vnd.schemaregistry.v1+json",
                   "Confluent-Accept-Unknown-Properties": "true"}
    else:
        headers = {"Accept": _ACCEPT}
    from ... import version

    headers["Confluent-Client-Version"] = f"python/{version()[0]}"
    provider = settings.bearer_field_provider
    if isinstance(provider, _OAuthTokenSource):
        if settings.fetch_tokens:
            _bearer_headers((yield from provider.fields_op()), headers)
    elif provider is not None:
        fields = yield BearerFields(provider)
        _bearer_headers(fields, headers)

    response = None
    last = len(settings.base_urls) - 1
    for index, base in enumerate(settings.base_urls):
        call = HttpCall(method, "/".join([base.rstrip("/"), path.lstrip("/")]), headers, content,
                        dict(query) if query is not None else None)
        try:
            response = yield from _attempts(settings, call)
        except Exception:
            if index == last:
                raise
            continue
        if is_success(response.status_code):
            if response.status_code == 204 or not response.content:
                return None
            return response.json()
        if not is_retriable(response.status_code):
            break
    if response is None:
        raise TypeError("Unexpected response of unsupported type: " + str(type(response)))
    raise _decode_error(response)
