"""The configuration entry that selects AWS IAM tokens for SASL/OAUTHBEARER.

``conf.c`` (``conf_prepare_oauthbearer``) spells the same two strings; a unit test keeps them in
step.
"""
from __future__ import annotations

__all__ = ["AWS_IAM_MARKER_KEY", "AWS_IAM_MARKER_VALUE"]

#: The librdkafka property whose value selects the metadata-based token source.
AWS_IAM_MARKER_KEY: str = "sasl.oauthbearer.metadata.authentication.type"

#: The value of :data:`AWS_IAM_MARKER_KEY` served by this package with AWS STS.
AWS_IAM_MARKER_VALUE: str = "aws_iam"
