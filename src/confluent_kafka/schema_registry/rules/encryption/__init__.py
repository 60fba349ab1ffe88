"""Field-level and payload encryption rules (``ENCRYPT``, ``ENCRYPT_PAYLOAD``): data keys (DEKs)
kept, wrapped by a key-encryption key (KEK) of a KMS, in the Schema Registry's DEK registry
(:mod:`.dek_registry`), and KMS drivers for a local secret (:mod:`.localkms`), AWS, Azure, GCP
and HashiCorp Vault. Needs the ``rules`` extra."""
