"""Errors shared by the token providers."""
from __future__ import annotations

from .aws.aws_iam_marker import AWS_IAM_MARKER_KEY, AWS_IAM_MARKER_VALUE

_CONFIG_KEY = "sasl.oauthbearer.config"

#: The pip extra that installs the AWS SDK.
AWS_EXTRA = "oauthbearer-aws"


def missing_extra() -> ImportError:
    """The ImportError for a configuration that needs boto3 when it is not installed."""
    return ImportError(
        f"Config '{AWS_IAM_MARKER_KEY}={AWS_IAM_MARKER_VALUE}' requires the optional '{AWS_EXTRA}' "
        f"extra. Install with:\n    pip install 'confluent-kafka[{AWS_EXTRA}]'", name="boto3")


def missing_config_error() -> ValueError:
    """The ValueError for the AWS IAM marker without a ``sasl.oauthbearer.config``."""
    return ValueError(
        f"'{AWS_IAM_MARKER_KEY}={AWS_IAM_MARKER_VALUE}' is set but '{_CONFIG_KEY}' is missing or empty. "
        f"The AWS IAM autowire path requires region and audience to be supplied via {_CONFIG_KEY} "
        "(e.g. \"region=us-east-1,audience=https://...\").")
