"""SASL/OAUTHBEARER token sources served in Python, selected by configuration.

librdkafka 2.14 does not know ``sasl.oauthbearer.metadata.authentication.type=aws_iam`` (newer
librdkafka hands such tokens to the language binding anyway). The client constructors (conf.c)
call :func:`prepare_config` when that entry is present; it checks the related settings and
replaces the entry with an ``oauth_cb`` that fetches tokens from AWS STS, so librdkafka sees an
ordinary OAUTHBEARER configuration with a token callback.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

from ._errors import missing_config_error, missing_extra
from .aws.aws_iam_marker import AWS_IAM_MARKER_KEY, AWS_IAM_MARKER_VALUE

__all__ = ["prepare_config"]

_METHOD_KEY = "sasl.oauthbearer.method"
_CONFIG_KEY = "sasl.oauthbearer.config"
_EXTENSIONS_KEY = "sasl.oauthbearer.extensions"


def _take_marker(conf: Dict[str, Any]) -> bool:
    """Remove the AWS IAM marker from ``conf`` (or from a copy of its ``default.topic.config``,
    never the caller's own dict); whether it was there."""
    if conf.get(AWS_IAM_MARKER_KEY) == AWS_IAM_MARKER_VALUE:
        del conf[AWS_IAM_MARKER_KEY]
        return True
    nested = conf.get("default.topic.config")
    if isinstance(nested, dict) and nested.get(AWS_IAM_MARKER_KEY) == AWS_IAM_MARKER_VALUE:
        conf["default.topic.config"] = {k: v for k, v in nested.items() if k != AWS_IAM_MARKER_KEY}
        return True
    return False


def _method_text(value: Any) -> str:
    if value is None:
        return "<unset>"
    return repr(value) if isinstance(value, str) else "<non-string>"


def prepare_config(conf: Dict[str, Any]) -> None:
    """Serve ``sasl.oauthbearer.metadata.authentication.type=aws_iam`` in Python.

    ``conf`` is the constructor's own merged copy of the configuration and is changed in place:
    the marker goes, ``sasl.oauthbearer.method`` goes (librdkafka's ``oidc`` method would want a
    token endpoint), and ``oauth_cb`` becomes the AWS STS token provider, unless the application
    gave its own ``oauth_cb``, which then serves the tokens.

    :param conf: the configuration dict (merged, str keys).
    :raises ValueError: ``sasl.oauthbearer.method`` is not ``oidc``, ``sasl.oauthbearer.config``
        is missing or empty, or either AWS setting is invalid.
    :raises ImportError: boto3 (the ``oauthbearer-aws`` extra) is not installed or too old.
    """
    if not _take_marker(conf):
        return
    method = conf.pop(_METHOD_KEY, None)
    if conf.get("oauth_cb") is not None:
        return
    if method != "oidc":
        raise ValueError(
            f"'{AWS_IAM_MARKER_KEY}={AWS_IAM_MARKER_VALUE}' requires '{_METHOD_KEY}=oidc'. Current value: "
            f"{_method_text(method)}. method=oidc is mandatory for the AWS IAM authentication path.")
    settings = conf.get(_CONFIG_KEY)
    if not isinstance(settings, str) or not settings:
        raise missing_config_error()
    extensions: Optional[Any] = conf.get(_EXTENSIONS_KEY)
    try:
        import boto3  # type: ignore[import-untyped,unused-ignore]  # noqa: F401 (a missing extra)
    except ImportError as exc:
        raise missing_extra() from exc
    from .aws.aws_autowire import create_handler

    conf["oauth_cb"] = create_handler(settings, None if extensions is None else str(extensions))
