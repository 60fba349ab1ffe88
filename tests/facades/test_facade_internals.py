"""What frameworks reach for beyond the facades' APIs, in unchanged programs under ``python -m
confluent_kafka.compat run``: aiokafka's ``AIOKafkaProducer._partition()`` right after a send (the
send learned the topic's partitions, as aiokafka's does), and the modules of aiokafka's and
kafka-python's internals the facades lack, which fail with an ImportError that names the facade
and its docs page."""
from __future__ import annotations

import pathlib
import textwrap
from typing import Any, Callable

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

PARTITION_AFTER_SEND = textwrap.dedent("""
    import asyncio
    import sys

    from aiokafka import AIOKafkaProducer

    BOOTSTRAP, TOPIC = sys.argv[1], sys.argv[2]

    async def main():
        producer = AIOKafkaProducer(bootstrap_servers=BOOTSTRAP)
        await producer.start()  # before the topic exists: the first send creates it
        fut = await producer.send(TOPIC, b"first", key=b"key-0")
        print(producer._partition(TOPIC, None, b"key-0", b"first", b"key-0", b"first") == (await fut).partition)
        chosen = []
        for i in range(1, 20):
            key = b"key-%d" % i
            md = await producer.send_and_wait(TOPIC, b"v", key=key)
            chosen.append((producer._partition(TOPIC, None, key, b"v", key, b"v"), md.partition))
        print(all(mine == sent for mine, sent in chosen), len({sent for _, sent in chosen}) > 1)
        print(sorted(await producer.partitions_for(TOPIC)))
        await producer.stop()

    asyncio.run(main())
""")


@pytest.mark.mock
def test_partition_right_after_a_send_is_the_sends(mock_cluster: Any, unique_topic: str,
                                                   run_unchanged: Callable[..., Any]) -> None:
    """The mock cluster creates the topic on the first send, with 4 partitions: the facade's
    _partition() picks, for each key, the partition librdkafka sent the record to."""
    proc = run_unchanged(PARTITION_AFTER_SEND, mock_cluster.bootstrap_servers, unique_topic)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == ["True", "True True", "[0, 1, 2, 3]"]


MISSING_MODULES = textwrap.dedent("""
    import aiokafka.structs
    import kafka.errors
    from aiokafka.consumer.group_coordinator import GroupCoordinator

    for statement in ["import aiokafka.cluster", "from aiokafka.protocol.metadata import MetadataRequest",
                      "import aiokafka.conn",
                      "from aiokafka.coordinator.protocol import ConsumerProtocolMemberMetadata",
                      "import kafka.cluster", "from kafka.protocol.admin import CreateTopicsRequest"]:
        try:
            exec(statement)
        except ImportError as exc:
            text = str(exc)
            print(type(exc).__name__, exc.name, text.startswith(f"No module named {exc.name!r}: the "),
                  "facade (confluent_kafka.compat." in text,
                  "docs/aiokafka.md" in text, "docs/kafka_python.md" in text)
        else:
            print("imported", statement)
""")


def test_missing_internal_module_names_the_facade_and_its_page(run_unchanged: Callable[..., Any]) -> None:
    proc = run_unchanged(MISSING_MODULES)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == [
        "ModuleNotFoundError aiokafka.cluster True True True False",
        "ModuleNotFoundError aiokafka.protocol True True True False",
        "ModuleNotFoundError aiokafka.conn True True True False",
        "ModuleNotFoundError aiokafka.coordinator.protocol True True True False",
        "ModuleNotFoundError kafka.cluster True True False True",
        "ModuleNotFoundError kafka.protocol True True False True",
    ]


def test_the_pages_have_the_sections_the_errors_name() -> None:
    """The error points to a section by its title: the title must be there."""
    from confluent_kafka.compat.__main__ import DOCS

    for head, where in DOCS.items():
        page, _, quoted = where.partition(", ")
        title = quoted.strip('"')
        assert f"\n## {title}\n" in (ROOT / page).read_text(), head
