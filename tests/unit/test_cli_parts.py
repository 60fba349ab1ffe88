"""The command-line tool's building blocks in-process: escapes, format strings, JSON lines,
the pipe hand-off of an embedded cluster, colour decisions."""

from __future__ import annotations

import io
import json
import os

import pytest

from confluent_kafka import Message
from confluent_kafka.cli._common import CliError, parse_escapes
from confluent_kafka.cli._format import compile_format, json_line
from confluent_kafka.cli._handoff import HandoffReader, HandoffWriter
from confluent_kafka.cli._output import colour_wanted
from confluent_kafka.cli.produce import _chunks

MSG = Message(topic="t", partition=2, offset=40, key=b"k", value=b"hello", headers=[("a", b"1"), ("b", None)],
              timestamp=(1, 1_700_000_000_123))


@pytest.mark.parametrize("text, expected", [
    (r"\n", "\n"), (r"a\tb", "a\tb"), (r"\\n", "\\n"), (r"\x41\x7e", "A~"), (r"\0", "\0"),
    (r"\q", r"\q"), ("\\", "\\"), (r"\x4", r"\x4"),
])
def test_escapes(text: str, expected: str) -> None:
    assert parse_escapes(text) == expected


def test_format_tokens() -> None:
    render = compile_format(r"%t/%p/%o %k=%s %h %K %S %T %%\n", b"NULL")
    assert render(MSG) == b"t/2/40 k=hello a=1,b= 1 5 1700000000123 %\n"
    assert compile_format("%k|%s", b"NULL")(Message(topic="t")) == b"NULL|NULL"
    assert compile_format("%K %S", b"")(Message(topic="t")) == b"-1 -1"


@pytest.mark.parametrize("fmt", ["%", "%x", "abc%"])
def test_bad_format_is_a_usage_error(fmt: str) -> None:
    with pytest.raises(CliError) as ei:
        compile_format(fmt, b"")
    assert ei.value.code == 2


def test_json_line_text_and_binary() -> None:
    obj = json.loads(json_line(MSG))
    assert obj == {"topic": "t", "partition": 2, "offset": 40, "timestamp": 1_700_000_000_123, "key": "k",
                   "value": "hello", "headers": [{"name": "a", "value": "1"}, {"name": "b", "value": None}]}
    obj = json.loads(json_line(Message(topic="t", value=b"\x00\xff")))
    assert obj["value"] is None and obj["value_b64"] == "AP8=" and obj["key"] is None and obj["timestamp"] is None


def test_chunks_split_across_reads() -> None:
    class Trickle(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self.data = data

        def read(self, n: int = -1) -> bytes:
            out, self.data = self.data[:3], self.data[3:]
            return out

    assert list(_chunks(Trickle(b"ab||cd||||e||"), b"||", 3)) == [b"ab", b"cd", b"", b"e"]  # type: ignore[arg-type]
    assert list(_chunks(io.BytesIO(b"1\n2\n3"), b"\n")) == [b"1", b"2", b"3"]
    assert list(_chunks(io.BytesIO(b""), b"\n")) == []


def test_handoff_over_a_pipe() -> None:
    r, w = os.pipe()
    try:
        writer = HandoffWriter(w)
        assert writer.announce("127.0.0.1:9999")
        reader = HandoffReader.from_fd(r, timeout=5)
        assert reader is not None and reader.bootstrap == "127.0.0.1:9999"
        assert not reader.producer_done()
        assert writer.done(12)
        assert reader.producer_done() and reader.produced == 12
    finally:
        os.close(r)
        os.close(w)


def test_handoff_reader_ignores_other_input() -> None:
    r, w = os.pipe()
    os.write(w, b"plain data\n")
    os.close(w)
    try:
        assert HandoffReader.from_fd(r, timeout=5) is None
    finally:
        os.close(r)
    devnull = os.open(os.devnull, os.O_RDONLY)
    try:
        assert HandoffReader.from_fd(devnull, timeout=5) is None  # not a pipe
    finally:
        os.close(devnull)


def test_handoff_producer_gone_without_done() -> None:
    r, w = os.pipe()
    HandoffWriter(w).announce("127.0.0.1:1")
    reader = HandoffReader.from_fd(r, timeout=5)
    os.close(w)
    try:
        assert reader is not None and reader.producer_done() and reader.produced is None
    finally:
        os.close(r)


def test_handoff_writer_notices_a_closed_reader() -> None:
    r, w = os.pipe()
    os.close(r)
    try:
        writer = HandoffWriter(w)
        writer.wait_for_reader_to_close()  # returns at once
        assert not writer.done(1)
    finally:
        os.close(w)


def test_colour_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    for var in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(var, raising=False)
    assert colour_wanted(Tty()) and not colour_wanted(io.StringIO())
    assert colour_wanted(io.StringIO(), "always") and not colour_wanted(Tty(), "never")
    monkeypatch.setenv("TERM", "dumb")
    assert not colour_wanted(Tty())
    monkeypatch.delenv("TERM")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted(Tty()) and colour_wanted(Tty(), "always")
