"""The ``aws-kms`` driver: KEKs ``aws-kms://arn:aws:kms:REGION:ACCOUNT:key/ID`` wrapped by AWS KMS.

Credentials: ``access.key.id`` and ``secret.access.key``, or ``profile``, else boto3's default
chain; ``role.arn`` (``AWS_ROLE_ARN``) with ``role.session.name`` and ``role.external.id``
assumes a role. Needs ``boto3`` (the ``rules`` extra)."""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

import tink  # type: ignore[import-untyped,unused-ignore]

from ..kms_driver_registry import _BuiltInKmsDriver, _require, _setting
from ..kms_driver_registry import KmsDriver, register_kms_driver  # noqa: F401 - upstream's module has these names

__all__ = ["AwsKmsDriver"]

_PREFIX = "aws-kms://"
_ACCESS_KEY_ID = "access.key.id"
_SECRET_ACCESS_KEY = "secret.access.key"
_PROFILE = "profile"
_ROLE_ARN = "role.arn"
_ROLE_SESSION_NAME = "role.session.name"
_ROLE_EXTERNAL_ID = "role.external.id"


class AwsKmsDriver(_BuiltInKmsDriver):
    """Makes Tink AWS KMS clients."""

    _prefix = _PREFIX

    def new_kms_client(self, conf: Dict[str, Any], key_url: Optional[str]) -> Any:
        """A client bound to ``key_url``.

        :raises tink.TinkError: for a key URL that is not an AWS key ARN.
        :raises ImportError: when boto3 is not installed.
        """
        uri = key_url if key_url is not None else _PREFIX
        region = _get_region_from_key_arn(_key_uri_to_key_arn(uri))
        boto3 = _require("boto3", "boto3")
        from tink.integration.awskms import new_client  # type: ignore[import-untyped,unused-ignore]

        key, secret, profile = conf.get(_ACCESS_KEY_ID), conf.get(_SECRET_ACCESS_KEY), conf.get(_PROFILE)
        if key is not None and secret is not None:
            session = boto3.Session(region_name=region, aws_access_key_id=key, aws_secret_access_key=secret)
        elif profile is not None:
            session = boto3.Session(region_name=region, profile_name=profile)
        else:
            session = boto3.Session(region_name=region)
        role_arn = _setting(conf, _ROLE_ARN, "AWS_ROLE_ARN")
        if role_arn is not None and os.getenv("AWS_WEB_IDENTITY_TOKEN_FILE") is None:
            from botocore.credentials import (  # type: ignore[import-untyped,unused-ignore]
                DeferredRefreshableCredentials,
                create_assume_role_refresher,
            )

            params = {"RoleArn": role_arn,
                      "RoleSessionName": _setting(conf, _ROLE_SESSION_NAME, "AWS_ROLE_SESSION_NAME")
                      or "confluent-encrypt"}
            external_id = _setting(conf, _ROLE_EXTERNAL_ID, "AWS_ROLE_EXTERNAL_ID")
            if external_id is not None:
                params["ExternalId"] = external_id
            session._session._credentials = DeferredRefreshableCredentials(
                method="sts-assume-role", refresh_using=create_assume_role_refresher(session.client("sts"), params))
        return new_client(boto3_client=session.client("kms"), key_uri=uri)


def _key_uri_to_key_arn(key_uri: str) -> str:
    if not key_uri.startswith(_PREFIX):
        raise tink.TinkError("invalid key URI")
    return key_uri[len(_PREFIX):]


def _get_region_from_key_arn(key_arn: str) -> str:
    parts = key_arn.split(":")  # arn:aws:kms:REGION:ACCOUNT:key/ID
    if len(parts) < 6:
        raise tink.TinkError("invalid key id")
    return parts[3]
