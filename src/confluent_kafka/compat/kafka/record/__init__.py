"""``kafka.record`` of the kafka-python facade: only ``kafka.record.abc``.

kafka-python encodes and decodes record batches itself (``MemoryRecords`` and the v0-v2 formats);
here librdkafka does, so those classes are not provided. The abstract classes are, for code that
names them (OpenTelemetry's kafka-python instrumentation imports ``ABCRecord`` at import time).
"""
