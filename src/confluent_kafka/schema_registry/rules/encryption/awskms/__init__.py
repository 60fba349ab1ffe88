"""The ``aws-kms`` KMS driver (needs ``boto3``)."""
