"""``confluent.types``: the former path of ``confluent.type.Decimal``, kept for schemas that
still import ``confluent/types/decimal.proto``."""
