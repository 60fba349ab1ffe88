"""The legacy (deprecated) Schema Registry client, :class:`CachedSchemaRegistryClient`.

It keeps upstream's contract: schemas are ``avro`` library objects, answers are decided by HTTP
status (``None``/``(None, None, None)`` for "not found", :class:`ClientError` otherwise), and
every request goes through :meth:`CachedSchemaRegistryClient._send_request`, which returns
``(decoded body, status)``. The HTTP itself is this package's: the TLS setup of
:class:`confluent_kafka.schema_registry.SchemaRegistryClient` and an ``httpx`` session. A registry
that cannot be reached raises what upstream's transport raises there (``requests``'
``ConnectionError`` for ``http://``, ``urllib3``'s ``MaxRetryError`` for ``https://``), so code
catching those keeps working.

New code should use :class:`confluent_kafka.schema_registry.SchemaRegistryClient`.
"""

from __future__ import annotations

import json
import logging
import warnings
from collections import defaultdict
from typing import Any, Dict, Optional, Tuple
from urllib.parse import unquote, urlparse, urlunparse

from confluent_kafka.avro.error import ClientError
from confluent_kafka.avro.load import loads

__all__ = ["CachedSchemaRegistryClient", "VALID_LEVELS", "VALID_METHODS", "VALID_AUTH_PROVIDERS", "ACCEPT_HDR"]

#: The compatibility levels :meth:`CachedSchemaRegistryClient.update_compatibility` accepts.
VALID_LEVELS = ["NONE", "FULL", "FORWARD", "BACKWARD"]
#: The HTTP methods :meth:`CachedSchemaRegistryClient._send_request` sends.
VALID_METHODS = ["GET", "POST", "PUT", "DELETE"]
#: The values of ``basic.auth.credentials.source``.
VALID_AUTH_PROVIDERS = ["URL", "USER_INFO", "SASL_INHERIT"]

#: The Accept header of every request.
ACCEPT_HDR = "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json, application/json"

log = logging.getLogger(__name__)

_OLD_CONSTRUCTOR = (
    "CachedSchemaRegistry constructor is being deprecated. Use CachedSchemaRegistryClient(dict: config) instead. "
    "Existing params ca_location, cert_location and key_location will be replaced with their librdkafka "
    "equivalents as keys in the conf dict: `ssl.ca.location`, `ssl.certificate.location` and `ssl.key.location` "
    "respectively")


def _credentials_in(url: str) -> Tuple[str, str]:
    """The user and password in ``url``; both empty unless it has both."""
    parsed = urlparse(url)
    if parsed.username is None or parsed.password is None:
        return "", ""
    return unquote(parsed.username), unquote(parsed.password)


def _without_credentials(url: str) -> str:
    """``url`` with its userinfo and fragment removed."""
    parsed = urlparse(url)
    netloc = parsed.netloc.rsplit("@", 1)[-1]
    return urlunparse((parsed.scheme, netloc, parsed.path, parsed.params, parsed.query, ""))


def _unreachable(url: str, https_pool: bool, exc: BaseException) -> BaseException:
    """The exception upstream's transport raises for a registry it cannot reach."""
    if https_pool:
        try:
            from urllib3.exceptions import MaxRetryError

            return MaxRetryError(None, url, exc)  # type: ignore[arg-type]
        except ImportError:  # pragma: no cover - requests brings urllib3
            return exc
    try:
        from requests.exceptions import ConnectionError as RequestsConnectionError
    except ImportError:  # pragma: no cover - the avro extra brings requests
        return exc
    return RequestsConnectionError(str(exc))


class CachedSchemaRegistryClient:
    """A client of a Confluent-compatible Schema Registry for Avro schemas, caching ids and
    schemas it has seen.

    .. deprecated:: 1.1.0
       Passing a URL (and ``ca_location``/``cert_location``/``key_location``) instead of a
       configuration dict. The whole legacy API is deprecated: use
       :class:`confluent_kafka.schema_registry.SchemaRegistryClient`.

    Configuration keys: ``url`` (required, ``http://`` or ``https://``), ``ssl.ca.location``,
    ``ssl.certificate.location`` and ``ssl.key.location`` (both or neither),
    ``ssl.key.password``, ``basic.auth.credentials.source`` (``URL``, ``USER_INFO`` with
    ``basic.auth.user.info``, or ``SASL_INHERIT`` with ``sasl.mechanism``, ``sasl.username``,
    ``sasl.password``) and ``auto.register.schemas`` (default True). The keys are taken out of
    the dict passed, as upstream does.

    :param url: the configuration dict, or (deprecated) the registry's URL.
    :param max_schemas_per_subject: accepted and unused, as upstream.
    :param ca_location: (deprecated, with a URL) the CA file or directory.
    :param cert_location: (deprecated, with a URL) the client certificate.
    :param key_location: (deprecated, with a URL) the client key.
    :raises TypeError: when the URL is not a str.
    :raises ValueError: for a URL not starting with ``http``, an incomplete client certificate,
        an unknown credentials source, or an unknown key.
    """

    def __init__(self, url: Any, max_schemas_per_subject: int = 1000, ca_location: Optional[str] = None,
                 cert_location: Optional[str] = None, key_location: Optional[str] = None) -> None:
        conf = url
        if not isinstance(url, dict):
            conf = {"url": url, "ssl.ca.location": ca_location, "ssl.certificate.location": cert_location,
                    "ssl.key.location": key_location}
            warnings.warn(_OLD_CONSTRUCTOR, category=DeprecationWarning, stacklevel=2)

        url = conf.pop("url", "")
        if not isinstance(url, str):
            raise TypeError("URL must be of type str")
        if not url.startswith("http"):
            raise ValueError("Invalid URL provided for Schema Registry")
        url = url.rstrip("/")

        # subject -> {schema -> id}, id -> schema, subject -> {schema -> version}
        self.subject_to_schema_ids: Dict[str, Dict[Any, int]] = defaultdict(dict)
        self.id_to_schema: Dict[int, Any] = defaultdict(dict)
        self.subject_to_schema_versions: Dict[str, Dict[Any, int]] = defaultdict(dict)

        self._ca_location = conf.pop("ssl.ca.location", None)
        self._cert = (conf.pop("ssl.certificate.location", None), conf.pop("ssl.key.location", None))
        if bool(self._cert[0]) != bool(self._cert[1]):
            raise ValueError("Both schema.registry.ssl.certificate.location and schema.registry.ssl.key.location "
                             "must be set")
        self._auth = self._credentials(url, conf)
        self.url = _without_credentials(url)
        self._key_password = conf.pop("ssl.key.password", None)
        # Upstream sends https requests without a key password through its own pool (urllib3),
        # everything else through requests; what an unreachable registry raises follows that.
        self._https_pool = self.url.startswith("https") and not self._key_password
        self._session: Any = None
        self.auto_register_schemas = conf.pop("auto.register.schemas", True)
        if len(conf) > 0:
            raise ValueError("Unrecognized configuration properties: {}".format(conf.keys()))

    @staticmethod
    def _credentials(url: str, conf: Dict[str, Any]) -> Tuple[str, ...]:
        source = conf.pop("basic.auth.credentials.source", "URL").upper()
        if source not in VALID_AUTH_PROVIDERS:
            raise ValueError("schema.registry.basic.auth.credentials.source must be one of {}"
                             .format(VALID_AUTH_PROVIDERS))
        if source == "SASL_INHERIT":
            if conf.pop("sasl.mechanism", "").upper() == "GSSAPI":
                raise ValueError("SASL_INHERIT does not support SASL mechanism GSSAPI")
            return conf.pop("sasl.username", ""), conf.pop("sasl.password", "")
        if source == "USER_INFO":
            return tuple(conf.pop("basic.auth.user.info", "").split(":"))
        return _credentials_in(url)

    def __del__(self) -> None:
        self.close()

    def __enter__(self) -> "CachedSchemaRegistryClient":
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()

    def close(self) -> None:
        """Close the HTTP session (a later request opens a new one)."""
        session = getattr(self, "_session", None)
        if session is not None:
            self._session = None
            session.close()

    # -- HTTP ----------------------------------------------------------------------------------

    def _http(self) -> Any:
        """The httpx session, made on the first request (so that certificate files are read
        when they are used, as upstream reads them)."""
        if self._session is None:
            from confluent_kafka.schema_registry.common._httpx_compat import httpx
            from confluent_kafka.schema_registry.common._rest import _ssl_context

            # The key password only ever unlocks the client key.
            password = self._key_password if self._cert[0] else None
            verify = _ssl_context(self._ca_location, self._cert[0], self._cert[1], password)
            # Basic auth on every request, empty credentials included (upstream sends
            # ``Basic Og==`` then); user info that is not "user:password" sends none.
            auth = (str(self._auth[0]), str(self._auth[1])) if len(self._auth) == 2 else None
            self._session = httpx.Client(verify=verify, auth=auth, timeout=None)
        return self._session

    def _send_request(self, url: str, method: str = "GET", body: Optional[Dict[str, Any]] = None,
                      headers: Optional[Dict[str, str]] = None) -> Tuple[Any, int]:
        """Send one request.

        :param url: the full URL.
        :param method: GET, POST, PUT or DELETE.
        :param body: the JSON body, if any.
        :param headers: extra headers.
        :returns: ``(decoded JSON answer, or the raw bytes when it is not JSON, HTTP status)``.
        :raises ClientError: for another method.
        """
        if method not in VALID_METHODS:
            raise ClientError("Method {} is invalid; valid methods include {}".format(method, VALID_METHODS))
        from confluent_kafka.schema_registry.common._httpx_compat import httpx

        sent = {"Accept": ACCEPT_HDR}
        content = None
        if body:
            content = json.dumps(body).encode("utf-8")
            sent["Content-Length"] = str(len(content))
            sent["Content-Type"] = "application/vnd.schemaregistry.v1+json"
        sent.update(headers or {})
        try:
            response = self._http().request(method, url, headers=sent, content=content)
        except httpx.TransportError as exc:
            raise _unreachable(url, self._https_pool, exc) from exc
        try:
            return response.json(), response.status_code
        except ValueError:
            return response.content, response.status_code

    # -- caches --------------------------------------------------------------------------------

    @staticmethod
    def _add_to_cache(cache: Dict[str, Dict[Any, int]], subject: str, schema: Any, value: int) -> None:
        cache[subject][schema] = value

    def _cache_schema(self, schema: Any, schema_id: int, subject: Optional[str] = None,
                      version: Optional[int] = None) -> None:
        # The first schema object seen for an id stays the one handed out for it.
        if schema_id in self.id_to_schema:
            schema = self.id_to_schema[schema_id]
        else:
            self.id_to_schema[schema_id] = schema
        if subject:
            self._add_to_cache(self.subject_to_schema_ids, subject, schema, schema_id)
            if version:
                self._add_to_cache(self.subject_to_schema_versions, subject, schema, version)

    # -- the registry API ----------------------------------------------------------------------

    def register(self, subject: str, avro_schema: Any) -> int:
        """Register a schema under a subject (POST /subjects/{subject}/versions), unless this
        client already knows its id there.

        :param subject: the subject.
        :param avro_schema: the schema, as :func:`confluent_kafka.avro.loads` returns it.
        :returns: the schema's id.
        :raises ClientError: when the registry refuses (401/403, 409 incompatible, 422 invalid,
            any other non-2xx).
        """
        known = self.subject_to_schema_ids[subject].get(avro_schema, None)
        if known is not None:
            return known
        url = "/".join([self.url, "subjects", subject, "versions"])
        result, code = self._send_request(url, method="POST", body={"schema": str(avro_schema)})
        if code in (401, 403):
            raise ClientError("Unauthorized access. Error code:" + str(code) + " message:" + str(result))
        if code == 409:
            raise ClientError("Incompatible Avro schema:" + str(code) + " message:" + str(result))
        if code == 422:
            raise ClientError("Invalid Avro schema:" + str(code) + " message:" + str(result))
        if not 200 <= code <= 299:
            raise ClientError("Unable to register schema. Error code:" + str(code) + " message:" + str(result))
        schema_id: int = result["id"]
        self._cache_schema(avro_schema, schema_id, subject)
        return schema_id

    def check_registration(self, subject: str, avro_schema: Any) -> int:
        """The id of a schema already registered under a subject (POST /subjects/{subject}).

        :param subject: the subject.
        :param avro_schema: the schema.
        :returns: the schema's id.
        :raises ClientError: when it is not registered there (404), or the request fails.
        """
        known = self.subject_to_schema_ids[subject].get(avro_schema, None)
        if known is not None:
            return known
        url = "/".join([self.url, "subjects", subject])
        result, code = self._send_request(url, method="POST", body={"schema": str(avro_schema)})
        if code in (401, 403):
            raise ClientError("Unauthorized access. Error code:" + str(code))
        if code == 404:
            raise ClientError("Schema or subject not found:" + str(code))
        if not 200 <= code <= 299:
            raise ClientError("Unable to check schema registration. Error code:" + str(code))
        schema_id: int = result["id"]
        self._cache_schema(avro_schema, schema_id, subject)
        return schema_id

    def delete_subject(self, subject: str) -> Any:
        """Delete a subject (DELETE /subjects/{subject}).

        :param subject: the subject.
        :returns: the registry's answer: the versions deleted.
        :raises ClientError: when the request fails.
        """
        result, code = self._send_request("/".join([self.url, "subjects", subject]), method="DELETE")
        if not 200 <= code <= 299:
            raise ClientError("Unable to delete subject: {}".format(result))
        return result

    def get_by_id(self, schema_id: int) -> Any:
        """The schema with an id (GET /schemas/ids/{id}).

        :param schema_id: the id.
        :returns: the parsed schema, or None when the registry has none (logged).
        :raises ClientError: when the registry's schema does not parse.
        """
        if schema_id in self.id_to_schema:
            return self.id_to_schema[schema_id]
        result, code = self._send_request("/".join([self.url, "schemas", "ids", str(schema_id)]))
        if code == 404:
            log.error("Schema not found:" + str(code))
            return None
        if not 200 <= code <= 299:
            log.error("Unable to get schema for the specific ID:" + str(code))
            return None
        try:
            parsed = loads(result.get("schema"))
        except ClientError as exc:
            raise ClientError("Received bad schema (id %s) from registry: %s" % (schema_id, exc))
        self._cache_schema(parsed, schema_id)
        return parsed

    def get_latest_schema(self, subject: str) -> Tuple[Any, Any, Any]:
        """The latest version of a subject; always asks the registry.

        :param subject: the subject.
        :returns: ``(schema id, parsed schema, version)``, or ``(None, None, None)``.
        """
        return self.get_by_version(subject, "latest")

    def get_by_version(self, subject: str, version: Any) -> Tuple[Any, Any, Any]:
        """One version of a subject (GET /subjects/{subject}/versions/{version}); always asks
        the registry.

        :param subject: the subject.
        :param version: the version number, or ``"latest"``.
        :returns: ``(schema id, parsed schema, version)``, or ``(None, None, None)`` when the
            subject or version is not found or the request fails.
        :raises ClientError: when the registry's schema does not parse.
        """
        url = "/".join([self.url, "subjects", subject, "versions", str(version)])
        result, code = self._send_request(url)
        if code == 404:
            log.error("Schema not found:" + str(code))
            return None, None, None
        if code == 422:
            log.error("Invalid version:" + str(code))
            return None, None, None
        if not 200 <= code <= 299:
            return None, None, None
        schema_id, version = result["id"], result["version"]
        if schema_id in self.id_to_schema:
            schema = self.id_to_schema[schema_id]
        else:
            schema = loads(result["schema"])
        self._cache_schema(schema, schema_id, subject, version)
        return schema_id, schema, version

    def get_version(self, subject: str, avro_schema: Any) -> Optional[int]:
        """The version of a schema under a subject (POST /subjects/{subject}).

        :param subject: the subject.
        :param avro_schema: the schema.
        :returns: the version, or None when it is not registered there or the request fails.
        """
        known = self.subject_to_schema_versions[subject].get(avro_schema, None)
        if known is not None:
            return known
        url = "/".join([self.url, "subjects", subject])
        result, code = self._send_request(url, method="POST", body={"schema": str(avro_schema)})
        if code == 404:
            log.error("Not found:" + str(code))
            return None
        if not 200 <= code <= 299:
            log.error("Unable to get version of a schema:" + str(code))
            return None
        version: int = result["version"]
        self._cache_schema(avro_schema, result["id"], subject, version)
        return version

    def test_compatibility(self, subject: str, avro_schema: Any, version: Any = "latest") -> Any:
        """Whether a schema is compatible with a version of a subject
        (POST /compatibility/subjects/{subject}/versions/{version}).

        :param subject: the subject.
        :param avro_schema: the candidate schema.
        :param version: the version to check against (default the latest).
        :returns: the registry's ``is_compatible``; False when the check could not be made
            (logged), the registry unreachable included.
        """
        url = "/".join([self.url, "compatibility", "subjects", subject, "versions", str(version)])
        try:
            result, code = self._send_request(url, method="POST", body={"schema": str(avro_schema)})
            if code == 404:
                log.error("Subject or version not found:" + str(code))
                return False
            if code == 422:
                log.error("Invalid subject or schema:" + str(code))
                return False
            if 200 <= code <= 299:
                return result.get("is_compatible")
            log.error("Unable to check the compatibility: " + str(code))
            return False
        except Exception as exc:  # noqa: BLE001 - the legacy contract: any failure is "no"
            log.error("_send_request() failed: %s", exc)
            return False

    def update_compatibility(self, level: str, subject: Optional[str] = None) -> Any:
        """Set the compatibility level, globally or of one subject (PUT /config[/{subject}]).

        :param level: NONE, FULL, FORWARD or BACKWARD.
        :param subject: the subject, or None for the global level.
        :returns: the level the registry set.
        :raises ClientError: for another level, or when the request fails.
        """
        if level not in VALID_LEVELS:
            raise ClientError("Invalid level specified: %s" % (str(level),))
        url = "/".join([self.url, "config"])
        if subject:
            url += "/" + subject
        result, code = self._send_request(url, method="PUT", body={"compatibility": level})
        if 200 <= code <= 299:
            return result["compatibility"]
        raise ClientError("Unable to update level: %s. Error code: %d" % (str(level), code))

    def get_compatibility(self, subject: Optional[str] = None) -> str:
        """The compatibility level, global or of one subject (GET /config[/{subject}]).

        :param subject: the subject, or None for the global level.
        :returns: NONE, FULL, FORWARD or BACKWARD.
        :raises ClientError: when the request fails or the registry answers another level.
        """
        url = "/".join([self.url, "config"])
        if subject:
            url = "/".join([url, subject])
        result, code = self._send_request(url)
        if not 200 <= code <= 299:
            raise ClientError("Unable to fetch compatibility level. Error code: %d" % code)
        compatibility: str = result.get("compatibilityLevel", None)
        if compatibility not in VALID_LEVELS:
            suffix = "No compatibility was returned" if compatibility is None else str(compatibility)
            raise ClientError("Invalid compatibility level received: %s" % suffix)
        return compatibility
