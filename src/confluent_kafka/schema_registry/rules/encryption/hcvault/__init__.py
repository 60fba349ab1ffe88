"""The ``hcvault`` KMS driver, on HashiCorp Vault's transit engine (needs ``hvac``)."""
