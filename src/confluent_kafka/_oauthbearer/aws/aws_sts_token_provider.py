"""Tokens for SASL/OAUTHBEARER from AWS STS ``GetWebIdentityToken``.

STS returns a JWT signed by AWS for the caller's own IAM identity (from boto3's usual credential
chain: environment, profile, instance or task role, ...), so no secret is configured here.
"""
from __future__ import annotations

import datetime
import logging
from typing import Any, Dict, Optional, Tuple

from .._errors import missing_extra
from . import jwt_extractor
from .aws_oauthbearer_config import AWS_DEBUG_CONSOLE, AwsOAuthBearerConfig

try:
    import boto3  # type: ignore[import-untyped,unused-ignore]
except ImportError as exc:  # the optional dependency is not installed
    raise missing_extra() from exc

__all__ = ["AwsStsTokenProvider", "MINIMUM_BOTO3_VERSION"]

#: The first boto3 whose STS client has ``get_web_identity_token`` (pinned by the
#: ``oauthbearer-aws`` extra).
MINIMUM_BOTO3_VERSION = "1.42.25"


class AwsStsTokenProvider:
    """Fetches a new JWT from STS each time librdkafka asks for a token.

    :param config: what to ask STS for.
    :param sts_client: an STS client to use instead of making one (tests pass a stubbed one).
    :raises TypeError: ``config`` is None.
    :raises ImportError: the installed boto3/botocore has no ``GetWebIdentityToken``.
    """

    def __init__(self, config: AwsOAuthBearerConfig, sts_client: Optional[Any] = None) -> None:
        if config is None:
            raise TypeError("config must not be None")
        self._config = config
        if config.aws_debug == AWS_DEBUG_CONSOLE:
            # Process-wide, as the user asked for: botocore's request and credential logs.
            boto3.set_stream_logger("botocore", logging.DEBUG)
        if sts_client is None:
            options: Dict[str, Any] = {"region_name": config.region}
            if config.sts_endpoint:
                options["endpoint_url"] = config.sts_endpoint
            sts_client = boto3.Session(region_name=config.region).client("sts", **options)
            if not hasattr(sts_client, "get_web_identity_token"):
                raise ImportError(
                    f"The AWS IAM OAUTHBEARER path requires boto3>={MINIMUM_BOTO3_VERSION} (for the STS "
                    f"GetWebIdentityToken operation), but found boto3 {getattr(boto3, '__version__', '?')}. "
                    "Upgrade with: pip install -U 'confluent-kafka[oauthbearer-aws]'.")
        self._sts = sts_client

    def token(self, oauthbearer_config: str = "") -> Tuple[str, float, str, Dict[str, str]]:
        """A fresh token, in the form ``oauth_cb`` returns it.

        :param oauthbearer_config: what librdkafka passes to ``oauth_cb`` (the configuration
            string, already read when the provider was made): ignored.
        :returns: ``(jwt, expiry, principal, extensions)``: the expiry in seconds since the epoch
            (STS's ``Expiration``, or the token's own ``exp`` when earlier or when STS gave none),
            the principal from the token's ``sub`` claim, the configured SASL extensions.
        :raises botocore.exceptions.ClientError: STS refused (``AccessDenied``, ...).
        :raises ValueError: the answer holds no token, or neither it nor the token says when it
            expires.
        """
        cfg = self._config
        request: Dict[str, Any] = {"Audience": [cfg.audience], "SigningAlgorithm": cfg.signing_algorithm,
                                   "DurationSeconds": cfg.duration_seconds}
        if cfg.tags:
            request["Tags"] = [{"Key": k, "Value": v} for k, v in cfg.tags.items()]
        answer = self._sts.get_web_identity_token(**request)
        jwt = answer.get("WebIdentityToken")
        if not isinstance(jwt, str) or not jwt:
            raise ValueError("STS answered GetWebIdentityToken without a WebIdentityToken")
        expiries = []
        expiration = answer.get("Expiration")
        if isinstance(expiration, datetime.datetime):
            if expiration.tzinfo is None:  # botocore parses to UTC; be safe with a naive one
                expiration = expiration.replace(tzinfo=datetime.timezone.utc)
            expiries.append(expiration.timestamp())
        exp = jwt_extractor.extract_exp(jwt)
        if exp is not None:
            expiries.append(exp)
        if not expiries:
            raise ValueError("STS answered GetWebIdentityToken without an Expiration, and the token "
                             "has no 'exp' claim: cannot tell when to refresh it")
        principal = jwt_extractor.extract_sub(jwt)
        # A dict even when empty: oauth_cb's fourth item must be one.
        return jwt, min(expiries), principal, dict(cfg.sasl_extensions or {})
