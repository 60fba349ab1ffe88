"""The ``azure-kms`` KMS driver (needs ``azure-identity`` and ``azure-keyvault-keys``)."""
