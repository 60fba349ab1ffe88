"""Facades: the kafka-python and aiokafka APIs over this package's C core.

``confluent_kafka.compat.kafka`` behaves like ``kafka`` (kafka-python 3.0) and
``confluent_kafka.compat.aiokafka`` like ``aiokafka``. ``python -m confluent_kafka.compat run
app.py`` runs an unmodified program with ``import kafka`` / ``import aiokafka`` resolved to them
(see docs/migration.md).
"""
