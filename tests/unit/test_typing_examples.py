"""mypy --strict over what users copy: examples/, the documentation's Python examples, and
typed use of the serialization API (misuse must be reported)."""

from __future__ import annotations

import pathlib
import textwrap
from typing import List

import pytest

from typing_helpers import REPO, mypy_strict, mypy_strict_source, page_block_files, python_blocks

pytest.importorskip("mypy")

DOC_PAGES: List[pathlib.Path] = sorted(p for p in (REPO / "docs").glob("**/*.md") if python_blocks(p))


def test_examples_are_strict_clean(tmp_path: pathlib.Path) -> None:
    examples = sorted((REPO / "examples").glob("*.py"))
    assert examples
    result = mypy_strict(examples, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("page", DOC_PAGES, ids=[p.name for p in DOC_PAGES])
def test_doc_examples_are_strict_clean(page: pathlib.Path, tmp_path: pathlib.Path) -> None:
    # One mypy run per page, each block a module of its own (errors read <page>_<block line>.py:<page line>).
    result = mypy_strict(page_block_files(page, tmp_path), tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_python_blocks_are_found(tmp_path: pathlib.Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("# T\n\n```python\nx = 1\n```\n\n```{code-block} python\nbroker()\n```\n\n"
                    "````python\ny = '```'\n````\n")
    assert python_blocks(page) == [(4, "x = 1\n"), (12, "y = '```'\n")]
    files = page_block_files(page, tmp_path)
    assert [f.name for f in files] == ["p_4.py", "p_12.py"]
    assert files[1].read_text().splitlines()[11] == "y = '```'"  # the page's line 12


SAMPLE = textwrap.dedent(
    """
    from typing import Any, Dict, List, Optional
    from confluent_kafka import DeserializingConsumer, KafkaError, Message, SerializingProducer
    from confluent_kafka.error import ConsumeError, KeySerializationError, ValueDeserializationError
    from confluent_kafka.serialization import (Deserializer, IntegerSerializer, JsonDeserializer,
                                               JsonSerializer, MessageField, SerializationContext,
                                               SerializationError, StringDeserializer, StringSerializer)

    class Upper(Deserializer):
        def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
            return None if value is None else value.decode().upper()

    def on_delivery(err: Optional[KafkaError], msg: Message) -> None:
        print(err, msg.offset())

    p = SerializingProducer({"bootstrap.servers": "127.0.0.1:1", "key.serializer": StringSerializer(),
                             "value.serializer": JsonSerializer(sort_keys=True)})
    try:
        p.produce("t", key="k", value={"a": 1}, headers=[("h", b"1")], on_delivery=on_delivery)
    except KeySerializationError as e:
        code: int = e.code
        cause: Optional[BaseException] = e.exception
    p.flush(1.0)
    c = DeserializingConsumer({"group.id": "g", "value.deserializer": JsonDeserializer(),
                               "key.deserializer": Upper()})
    try:
        m = c.poll(1.0)
        batch: List[Message] = c.consume(10, timeout=1.0)
        for msg in c:
            data: Any = msg.value()
    except ValueDeserializationError as e:
        bad: Optional[Message] = e.kafka_message
    except ConsumeError as e:
        print(e.name)
    c.close()
    n: Optional[bytes] = IntegerSerializer()(5, SerializationContext("t", MessageField.KEY))
    s: Optional[str] = StringDeserializer("latin-1")(b"x")
    try:
        pass
    except SerializationError:
        pass
    """
)

BAD = textwrap.dedent(
    """
    from confluent_kafka import DeserializingConsumer
    from confluent_kafka.serialization import SerializationContext, StringSerializer
    StringSerializer(codec=8)
    SerializationContext("t")
    DeserializingConsumer({"group.id": "g"}).consume("ten")
    """
)


def test_typed_serialization_usage_passes(tmp_path: pathlib.Path) -> None:
    result = mypy_strict_source(SAMPLE, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_serialization_misuse_is_reported(tmp_path: pathlib.Path) -> None:
    result = mypy_strict_source(BAD, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'Argument "codec" to "StringSerializer" has incompatible type "int"' in result.stdout
    assert 'Missing positional argument "field"' in result.stdout
    assert 'Argument 1 to "consume" of "DeserializingConsumer" has incompatible type "str"' in result.stdout
