"""Confluent's own Protobuf types (``confluent/meta.proto``, ``confluent/type/decimal.proto``,
``confluent/type/variant.proto``), importable under upstream's module paths. Each module builds
its file descriptor at import time and adds it to protobuf's default descriptor pool, as
generated ``_pb2`` modules do; the descriptors are the ones other Confluent clients use, so
schemas importing these files resolve everywhere."""
