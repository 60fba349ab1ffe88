"""SASL/OAUTHBEARER tokens from AWS STS ``GetWebIdentityToken`` for the client's IAM identity.

Selected by configuration, never imported by applications::

    "sasl.mechanisms": "OAUTHBEARER",
    "sasl.oauthbearer.method": "oidc",
    "sasl.oauthbearer.metadata.authentication.type": "aws_iam",
    "sasl.oauthbearer.config": "region=us-east-1,audience=https://kafka.example.com",
    "sasl.oauthbearer.extensions": "logicalCluster=lkc-123",   # optional

Needs boto3: ``pip install 'confluent-kafka[oauthbearer-aws]'``.
"""
