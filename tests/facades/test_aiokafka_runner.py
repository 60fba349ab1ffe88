"""aiokafka's getting-started programs, unmodified, under ``python -m confluent_kafka.compat run``."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.integration

SRC = str(pathlib.Path(__file__).resolve().parents[2] / "src")

# The seed's producer and consumer examples; the broker and topic come from argv instead of being
# written into the program, and the consumer stops after one record instead of looping forever.
PROGRAM = textwrap.dedent("""
    import asyncio
    import sys

    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
    from aiokafka.errors import KafkaError
    from aiokafka.structs import TopicPartition

    BOOTSTRAP, TOPIC = sys.argv[1], sys.argv[2]

    async def send_one():
        producer = AIOKafkaProducer(bootstrap_servers=BOOTSTRAP)
        await producer.start()
        try:
            await producer.send_and_wait(TOPIC, b"Super message", partition=0)
        finally:
            await producer.stop()

    async def consume():
        consumer = AIOKafkaConsumer(TOPIC, bootstrap_servers=BOOTSTRAP, group_id="my-group-" + TOPIC,
                                    auto_offset_reset="earliest", session_timeout_ms=6000,
                                    heartbeat_interval_ms=1000)
        await consumer.start()
        try:
            async for msg in consumer:
                print("consumed:", msg.topic == TOPIC, msg.partition, msg.offset, msg.key, msg.value)
                break
        finally:
            await consumer.stop()

    asyncio.run(send_one())
    asyncio.run(consume())
    print(AIOKafkaProducer.__module__, issubclass(KafkaError, RuntimeError), TopicPartition(TOPIC, 0)[1])
""")


def test_unmodified_aiokafka_program_runs_on_the_facade(kafka_bootstrap: str, unique_topic: str,
                                                        tmp_path: pathlib.Path) -> None:
    (tmp_path / "app.py").write_text(PROGRAM)
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "confluent_kafka.compat", "run", "app.py", kafka_bootstrap,
                           unique_topic], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == [
        "consumed: True 0 0 None b'Super message'",
        "confluent_kafka.compat.aiokafka.producer.producer True 0",
    ]
