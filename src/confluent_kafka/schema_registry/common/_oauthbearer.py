"""Bearer-token configuration for the Schema Registry clients.

``bearer.auth.credentials.source`` picks where the token comes from. ``STATIC_TOKEN`` (a fixed
token) and ``CUSTOM`` (a function of the application) are supported; the OAuth flows
(``OAUTHBEARER``, ``OAUTHBEARER_AZURE_IMDS``) are validated like upstream but not built yet and
raise :class:`NotImplementedError` when a client is made with them.
"""

from __future__ import annotations

import abc
import inspect
from typing import Any, Callable, Dict, List, Optional, Tuple, Union
from urllib.parse import urlparse, urlunparse

__all__ = [
    "normalize_identity_pool",
    "_BearerFieldProvider",
    "_AsyncBearerFieldProvider",
    "_StaticFieldProvider",
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


def build_field_provider(conf: Dict[str, Any]) -> Tuple[Optional[str], Optional[_BearerFieldProvider]]:
    """Pop the bearer settings from ``conf`` (a copy the caller owns) and make their provider.

    :param conf: the client configuration; the keys used are removed.
    :returns: (credentials source, provider), or (None, None) without bearer authentication.
    :raises ValueError: for an unknown source or a missing setting.
    :raises TypeError: for a setting of the wrong type.
    :raises NotImplementedError: for the OAuth sources, not built yet.
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
    if source == "OAUTHBEARER":
        missing = [key for key in _OIDC_REQUIRED if key not in conf]
        if missing:
            raise ValueError("Missing required OAuth configuration properties: {}".format(", ".join(missing)))
        for key in _OIDC_REQUIRED:
            _take_str(conf, key)
    else:  # OAUTHBEARER_AZURE_IMDS
        overridden = "bearer.auth.issuer.endpoint.url" in conf
        endpoint = conf.pop("bearer.auth.issuer.endpoint.url", "http://169.254.169.254/metadata/identity/oauth2/token")
        if not isinstance(endpoint, str):
            raise TypeError("bearer.auth.issuer.endpoint.url must be a str, not " + str(type(endpoint)))
        query = conf.pop("bearer.auth.issuer.endpoint.query", None)
        if query:
            if not isinstance(query, str):
                raise TypeError("bearer.auth.issuer.endpoint.query must be a str, not " + str(type(query)))
            urlunparse(urlparse(endpoint)._replace(query=query, fragment=""))
        elif not overridden:
            raise ValueError("bearer.auth.issuer.endpoint.query must be provided "
                             "when bearer.auth.issuer.endpoint.url isn't overridden")
    raise NotImplementedError(
        f"bearer.auth.credentials.source={source} (fetching OAuth tokens) is not supported by this "
        "client yet; use STATIC_TOKEN or CUSTOM with a token your application fetches")


async def resolve_fields_async(provider: Any) -> Dict[str, Any]:
    """The fields of a sync or async provider (a CUSTOM function may be a coroutine function)."""
    fields = provider.get_bearer_fields()
    if inspect.isawaitable(fields):
        fields = await fields
    return dict(fields)
