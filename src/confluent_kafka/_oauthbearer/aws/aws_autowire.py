"""Turns the AWS IAM configuration into the ``oauth_cb`` that serves its tokens.

:func:`confluent_kafka._oauthbearer.prepare_config` (run by the client constructors when
``sasl.oauthbearer.metadata.authentication.type=aws_iam``) calls :func:`create_handler`.
Importing this module needs boto3 (the ``oauthbearer-aws`` extra).
"""
from __future__ import annotations

from typing import Callable, Dict, Optional, Tuple

from .._errors import missing_config_error
from . import sasl_extensions_parser
from .aws_oauthbearer_config import AwsOAuthBearerConfig
from .aws_sts_token_provider import AwsStsTokenProvider

__all__ = ["create_handler", "OAuthBearerCallback"]

#: What ``oauth_cb`` is: the configuration string in, ``(token, expiry, principal, extensions)`` out.
OAuthBearerCallback = Callable[[str], Tuple[str, float, str, Dict[str, str]]]


def create_handler(sasl_oauthbearer_config: str,
                   sasl_oauthbearer_extensions: Optional[str]) -> OAuthBearerCallback:
    """The token callback for the given ``sasl.oauthbearer.config`` and
    ``sasl.oauthbearer.extensions`` values.

    :param sasl_oauthbearer_config: the AWS settings (see :mod:`.aws_oauthbearer_config`).
    :param sasl_oauthbearer_extensions: SASL extensions as ``key=value,...``, or None.
    :returns: a callable for ``oauth_cb``; each call fetches a new token from STS.
    :raises ValueError: the configuration is missing, empty or invalid.
    :raises ImportError: boto3 is too old for ``GetWebIdentityToken``.
    """
    if not sasl_oauthbearer_config:
        raise missing_config_error()
    extensions = sasl_extensions_parser.parse(sasl_oauthbearer_extensions)
    config = AwsOAuthBearerConfig.parse(sasl_oauthbearer_config, extensions)
    return AwsStsTokenProvider(config).token
