"""The ``local-kms`` KMS driver: a KEK derived from a secret, for development and tests."""
