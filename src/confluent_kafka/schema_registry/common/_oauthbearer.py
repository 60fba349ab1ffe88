"""Bearer-token configuration for the Schema Registry clients.

``bearer.auth.credentials.source`` picks where the token comes from: ``STATIC_TOKEN`` (a fixed
token), ``CUSTOM`` (a function of the application), ``OAUTHBEARER`` (the OAuth 2.0 client
credentials grant against ``bearer.auth.issuer.endpoint.url``) or ``OAUTHBEARER_AZURE_IMDS``
(a managed identity's token from Azure's instance metadata service).

The OAuth sources fetch a token when there is none or when 80% of its lifetime has passed, and
keep it otherwise. Fetching is written once, with no I/O: :meth:`_OAuthTokenSource.fields_op`
yields :class:`TokenCall` and :class:`Sleep` effects that the sync client runs on an
``httpx.Client`` and the async one on an ``httpx.AsyncClient`` of their own (the registry's
credentials, TLS and proxy settings are not used for the token endpoint). A failed fetch is
retried ``max.retries`` times with the registry's backoff, then raises
:class:`~confluent_kafka.schema_registry.error.OAuthTokenError`.
"""

from __future__ import annotations

import abc
import base64
import inspect
import json
import time
from typing import Any, Callable, Dict, Generator, List, NamedTuple, Optional, Tuple, Union
from urllib.parse import urlencode, urlparse, urlunparse

__all__ = [
    "normalize_identity_pool",
    "_BearerFieldProvider",
    "_AsyncBearerFieldProvider",
    "_StaticFieldProvider",
    "TokenCall",
]

TOKEN = "bearer.auth.token"
LOGICAL_CLUSTER = "bearer.auth.logical.cluster"
IDENTITY_POOL = "bearer.auth.identity.pool.id"


def normalize_identity_pool(identity_pool_raw: Union[str, List[str], None]) -> Optional[str]:
    """An identity pool setting as one comma-separated string.

    :param identity_pool_raw: None, one pool id (or several, comma-separated), or a list of ids.
    :returns: the ids joined by commas, or None.
    :raises TypeError: for anything else, or a list holding a non-string.
    """
    if identity_pool_raw is None or isinstance(identity_pool_raw, str):
        return identity_pool_raw
    if isinstance(identity_pool_raw, list):
        if any(not isinstance(item, str) for item in identity_pool_raw):
            raise TypeError("All items in identity pool list must be strings")
        return ",".join(identity_pool_raw)
    raise TypeError("identity pool id must be a str or list, not " + str(type(identity_pool_raw)))


class _BearerFieldProvider(metaclass=abc.ABCMeta):
    @abc.abstractmethod
    def get_bearer_fields(self) -> Dict[str, Any]:
        raise NotImplementedError


class _AsyncBearerFieldProvider(metaclass=abc.ABCMeta):
    @abc.abstractmethod
    async def get_bearer_fields(self) -> Dict[str, Any]:
        raise NotImplementedError


class _StaticFieldProvider(_BearerFieldProvider):
    """A fixed token and logical cluster (and optionally identity pools)."""

    def __init__(self, token: str, logical_cluster: str, identity_pool: Optional[str] = None) -> None:
        self.token = token
        self.logical_cluster = logical_cluster
        self.identity_pool = identity_pool

    def get_bearer_fields(self) -> Dict[str, Any]:
        fields = {TOKEN: self.token, LOGICAL_CLUSTER: self.logical_cluster}
        if self.identity_pool is not None:
            fields[IDENTITY_POOL] = self.identity_pool
        return fields


class _CustomFieldProvider(_BearerFieldProvider):
    """The application's function, called with its configuration for every request."""

    def __init__(self, function: Callable[[Dict[str, Any]], Any], config: Dict[str, Any]) -> None:
        self.custom_function = function
        self.custom_config = config

    def get_bearer_fields(self) -> Dict[str, Any]:
        # May be awaitable (a coroutine function) for the async client, which awaits it.
        fields: Dict[str, Any] = self.custom_function(self.custom_config)
        return fields


def _take_str(conf: Dict[str, Any], key: str, what: Optional[str] = None) -> str:
    value = conf.pop(key)
    if not isinstance(value, str):
        raise TypeError(f"{what or key} must be a str, not " + str(type(value)))
    return value


def _cluster_and_pool(conf: Dict[str, Any]) -> Tuple[str, Optional[str]]:
    if LOGICAL_CLUSTER not in conf:
        raise ValueError(f"Missing required bearer configuration properties: {LOGICAL_CLUSTER}")
    cluster = _take_str(conf, LOGICAL_CLUSTER, "logical cluster")
    return cluster, normalize_identity_pool(conf.pop(IDENTITY_POOL, None))


_OIDC_REQUIRED = ["bearer.auth.client.id", "bearer.auth.client.secret", "bearer.auth.scope",
                  "bearer.auth.issuer.endpoint.url"]
_CUSTOM_REQUIRED = ["bearer.auth.custom.provider.function", "bearer.auth.custom.provider.config"]
_SOURCES = ("OAUTHBEARER", "OAUTHBEARER_AZURE_IMDS", "STATIC_TOKEN", "CUSTOM")


def build_field_provider(conf: Dict[str, Any], max_retries: int = 3, retries_wait_ms: int = 1000,
                         retries_max_wait_ms: int = 20000) -> Tuple[Optional[str], Optional[_BearerFieldProvider]]:
    """Pop the bearer settings from ``conf`` (a copy the caller owns) and make their provider.

    :param conf: the client configuration; the keys used are removed.
    :param max_retries: further attempts after a failed token fetch (the client's).
    :param retries_wait_ms: the token fetch's first backoff wait.
    :param retries_max_wait_ms: its longest wait.
    :returns: (credentials source, provider), or (None, None) without bearer authentication.
    :raises ValueError: for an unknown source or a missing setting.
    :raises TypeError: for a setting of the wrong type.
    """
    source = conf.pop("bearer.auth.credentials.source", None)
    if source is None:
        return None, None
    if source not in _SOURCES:
        raise ValueError("Unrecognized bearer.auth.credentials.source")
    if source == "CUSTOM":
        missing = [key for key in _CUSTOM_REQUIRED if key not in conf]
        if missing:
            raise ValueError("Missing required custom OAuth configuration properties: {}".format(", ".join(missing)))
        function = conf.pop(_CUSTOM_REQUIRED[0])
        if not callable(function):
            raise TypeError("bearer.auth.custom.provider.function must be a callable, not " + str(type(function)))
        config = conf.pop(_CUSTOM_REQUIRED[1])
        if not isinstance(config, dict):
            raise TypeError("bearer.auth.custom.provider.config must be a dict, not " + str(type(config)))
        return source, _CustomFieldProvider(function, config)
    cluster, pool = _cluster_and_pool(conf)
    if source == "STATIC_TOKEN":
        if TOKEN not in conf:
            raise ValueError("Missing bearer.auth.token")
        return source, _StaticFieldProvider(_take_str(conf, TOKEN), cluster, pool)
    retry = (max_retries, retries_wait_ms, retries_max_wait_ms)
    if source == "OAUTHBEARER":
        missing = [key for key in _OIDC_REQUIRED if key not in conf]
        if missing:
            raise ValueError("Missing required OAuth configuration properties: {}".format(", ".join(missing)))
        client_id, secret, scope, endpoint = (_take_str(conf, key) for key in _OIDC_REQUIRED)
        return source, _ClientCredentialsSource(client_id, secret, scope, endpoint, cluster, pool, *retry)
    # OAUTHBEARER_AZURE_IMDS
    overridden = "bearer.auth.issuer.endpoint.url" in conf
    endpoint = conf.pop("bearer.auth.issuer.endpoint.url", AZURE_IMDS_ENDPOINT)
    if not isinstance(endpoint, str):
        raise TypeError("bearer.auth.issuer.endpoint.url must be a str, not " + str(type(endpoint)))
    query = conf.pop("bearer.auth.issuer.endpoint.query", None)
    if query:
        if not isinstance(query, str):
            raise TypeError("bearer.auth.issuer.endpoint.query must be a str, not " + str(type(query)))
        endpoint = urlunparse(urlparse(endpoint)._replace(query=query, fragment=""))
    elif not overridden:
        raise ValueError("bearer.auth.issuer.endpoint.query must be provided "
                         "when bearer.auth.issuer.endpoint.url isn't overridden")
    return source, _AzureIMDSSource(endpoint, cluster, pool, *retry)


# -- fetching OAuth tokens ----------------------------------------------------------------------

#: Azure's instance metadata service, where a managed identity gets its tokens.
AZURE_IMDS_ENDPOINT = "http://169.254.169.254/metadata/identity/oauth2/token"


class TokenCall(NamedTuple):
    """Send one request to a token endpoint (on a client of its own, not the registry's
    session); the response is sent back, or the transport error thrown back."""

    method: str
    url: str
    headers: Dict[str, str]
    content: Optional[str] = None


class TokenSleep(NamedTuple):
    """Wait before the next attempt at fetching a token."""

    seconds: float


FieldsOp = Generator[Union[TokenCall, TokenSleep], Any, Dict[str, Any]]


class _OAuthTokenSource(_BearerFieldProvider):
    """A token fetched from an endpoint and kept until 80% of its lifetime has passed.

    :param logical_cluster: the ``target-sr-cluster`` header.
    :param identity_pool: the ``Confluent-Identity-Pool-Id`` header, if any.
    :param max_retries: further attempts after a failed fetch.
    :param retries_wait_ms: the backoff's first wait.
    :param retries_max_wait_ms: the backoff's longest wait.
    """

    #: The part of a token's lifetime after which it is fetched again.
    token_expiry_threshold = 0.8

    def __init__(self, logical_cluster: str, identity_pool: Optional[str], max_retries: int, retries_wait_ms: int,
                 retries_max_wait_ms: int) -> None:
        self.logical_cluster = logical_cluster
        self.identity_pool = identity_pool
        self.max_retries = max_retries
        self.retries_wait_ms = retries_wait_ms
        self.retries_max_wait_ms = retries_max_wait_ms
        self.token = ""
        self.token_object: Dict[str, Any] = {}
        self._expires_at: Optional[float] = None
        self._lifetime: Optional[float] = None

    def get_bearer_fields(self) -> Dict[str, Any]:
        raise TypeError("an OAuth token source is run by the client (fields_op), not called")

    def fields_op(self, now: Callable[[], float] = time.time) -> FieldsOp:
        """The bearer fields, fetching a token first if there is none or it is about to expire.

        :param now: the clock.
        :returns: the fields.
        :raises OAuthTokenError: when no token could be fetched.
        """
        if not self.token or self.token_expired(now()):
            yield from self._fetch()
        fields: Dict[str, Any] = {TOKEN: self.token, LOGICAL_CLUSTER: self.logical_cluster}
        if self.identity_pool is not None:
            fields[IDENTITY_POOL] = self.identity_pool
        return fields

    def token_expired(self, now: Optional[float] = None) -> bool:
        """Whether the token is past 80% of its lifetime (never, when the endpoint gave none).

        :param now: the time, in seconds since the epoch (default: now).
        :returns: whether to fetch a new one.
        """
        if self._expires_at is None or self._lifetime is None:
            return False
        moment = time.time() if now is None else now
        return self._expires_at < moment + self._lifetime * (1 - self.token_expiry_threshold)

    def _fetch(self) -> Generator[Union[TokenCall, TokenSleep], Any, None]:
        from ..error import OAuthTokenError
        from .schema_registry_client import full_jitter

        for attempt in range(self.max_retries + 1):
            try:
                response = yield self._request()
                self._accept(response)
                return
            except Exception as exc:
                if attempt >= self.max_retries:
                    # Upstream's text and no __cause__ (the endpoint's error stays the __context__).
                    raise OAuthTokenError(f"Failed to retrieve token after {self.max_retries} attempts due to "
                                          f"error: {exc}")
            yield TokenSleep(full_jitter(self.retries_wait_ms, self.retries_max_wait_ms, attempt) / 1000)

    def _request(self) -> TokenCall:
        raise NotImplementedError

    def _answer(self, response: Any) -> Dict[str, Any]:
        raise NotImplementedError

    def _accept(self, response: Any) -> None:
        answer = self._answer(response)
        token = answer["access_token"]
        lifetime = answer.get("expires_in")
        expires_at = answer.get(self._expiry_key)
        # "is not None" narrows for every mypy version ("not in (None, ...)" only for mypy 2)
        self._lifetime = float(lifetime) if lifetime is not None and lifetime != "" else None
        if expires_at is not None and expires_at != "":
            self._expires_at = float(expires_at)
        elif self._lifetime is not None:
            self._expires_at = int(time.time()) + self._lifetime
        else:
            self._expires_at = None
        self.token_object = answer
        self.token = token

    _expiry_key = "expires_at"


class _ClientCredentialsSource(_OAuthTokenSource):
    """``OAUTHBEARER``: the OAuth 2.0 client credentials grant. The client authenticates with
    HTTP Basic (``client_id:client_secret``) and asks for ``scope`` (omitted when empty)."""

    def __init__(self, client_id: str, client_secret: str, scope: str, token_endpoint: str, logical_cluster: str,
                 identity_pool: Optional[str], max_retries: int, retries_wait_ms: int,
                 retries_max_wait_ms: int) -> None:
        super().__init__(logical_cluster, identity_pool, max_retries, retries_wait_ms, retries_max_wait_ms)
        self.client_id = client_id
        self.client_secret = client_secret
        self.scope = scope
        self.token_endpoint = token_endpoint

    def _request(self) -> TokenCall:
        form = {"grant_type": "client_credentials"}
        if self.scope:
            form["scope"] = self.scope
        basic = base64.b64encode(f"{self.client_id}:{self.client_secret}".encode()).decode("ascii")
        return TokenCall("POST", self.token_endpoint, {
            "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8",
            "Authorization": "Basic " + basic}, urlencode(form))

    def _answer(self, response: Any) -> Dict[str, Any]:
        # A server error, or an answer that is not a JSON object, is an HTTP error; an OAuth
        # error object (RFC 6749, 5.2) is the endpoint's refusal.
        if response.status_code >= 500:
            response.raise_for_status()
        try:
            answer = response.json()
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            if response.status_code >= 400:
                response.raise_for_status()
            raise ValueError(f"Token endpoint response is not a JSON object (HTTP {response.status_code}).")
        if "error" in answer:
            raise ValueError("{}: {}".format(answer["error"], answer.get("error_description") or ""))
        return answer


class _AzureIMDSSource(_OAuthTokenSource):
    """``OAUTHBEARER_AZURE_IMDS``: a managed identity's token from the instance metadata
    service (``GET`` with ``Metadata: true``; the query names the resource and identity)."""

    _expiry_key = "expires_on"

    def __init__(self, token_endpoint: str, logical_cluster: str, identity_pool: Optional[str], max_retries: int,
                 retries_wait_ms: int, retries_max_wait_ms: int) -> None:
        super().__init__(logical_cluster, identity_pool, max_retries, retries_wait_ms, retries_max_wait_ms)
        self.token_endpoint = token_endpoint

    def _request(self) -> TokenCall:
        return TokenCall("GET", self.token_endpoint, {"Metadata": "true"})

    def _answer(self, response: Any) -> Dict[str, Any]:
        answer: Dict[str, Any] = json.loads(response.content)
        return answer


async def resolve_fields_async(provider: Any) -> Dict[str, Any]:
    """The fields of a sync or async provider (a CUSTOM function may be a coroutine function)."""
    fields = provider.get_bearer_fields()
    if inspect.isawaitable(fields):
        fields = await fields
    return dict(fields)
