"""The ``gcp-kms`` KMS driver (needs ``google-cloud-kms``)."""
