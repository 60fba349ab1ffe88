"""Output formats of ``consume``: kcat-style format strings and JSON lines."""

from __future__ import annotations

import base64
import json
from typing import Any, Callable, Dict, List, Optional, Union

from ..cimpl import Message
from ._common import EXIT_USAGE, CliError, parse_escapes

__all__ = ["FORMAT_HELP", "compile_format", "json_line"]

FORMAT_HELP = """\
format tokens: %s value  %k key  %t topic  %p partition  %o offset  %T timestamp (ms)
  %h headers (name=value,...)  %S value length  %K key length  %% a percent sign;
  escapes \\n \\t \\r \\0 \\xHH. A null key or value prints as the --null text (default empty).
"""

_Field = Callable[[Message], bytes]


def _num(v: Optional[int]) -> bytes:
    return b"" if v is None else str(v).encode()


def _length(v: Any) -> bytes:
    return b"-1" if v is None else str(len(v)).encode()


def _headers_text(m: Message) -> bytes:
    hs = m.headers() or []
    return b",".join(name.encode() + b"=" + (b"" if value is None else value) for name, value in hs)


def compile_format(fmt: str, null: bytes) -> Callable[[Message], bytes]:
    """A function rendering one message with format string ``fmt``."""
    text = parse_escapes(fmt)
    parts: List[Union[bytes, _Field]] = []
    fields: Dict[str, _Field] = {
        "s": lambda m: null if m.value() is None else bytes(m.value() or b""),
        "k": lambda m: null if m.key() is None else bytes(m.key() or b""),
        "t": lambda m: (m.topic() or "").encode(),
        "p": lambda m: _num(m.partition()),
        "o": lambda m: _num(m.offset()),
        "T": lambda m: str(m.timestamp()[1]).encode(),
        "h": _headers_text,
        "S": lambda m: _length(m.value()),
        "K": lambda m: _length(m.key()),
    }
    literal = ""
    i = 0
    while i < len(text):
        c = text[i]
        if c != "%":
            literal += c
            i += 1
            continue
        if i + 1 >= len(text):
            raise CliError("format ends with a lone '%'", EXIT_USAGE)
        token = text[i + 1]
        i += 2
        if token == "%":
            literal += "%"
            continue
        if token not in fields:
            raise CliError(f"unknown format token %{token} (see consume --help)", EXIT_USAGE)
        if literal:
            parts.append(literal.encode())
            literal = ""
        parts.append(fields[token])
    if literal:
        parts.append(literal.encode())

    def render(m: Message) -> bytes:
        return b"".join(p if isinstance(p, bytes) else p(m) for p in parts)

    return render


def _text_or_b64(prefix: str, data: Optional[bytes], out: Dict[str, Any]) -> None:
    if data is None:
        out[prefix] = None
        return
    try:
        out[prefix] = bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        out[prefix] = None
        out[prefix + "_b64"] = base64.b64encode(bytes(data)).decode("ascii")


def json_line(m: Message) -> bytes:
    """One message as a JSON object on one line (key/value as text, or base64 in ``*_b64``)."""
    ts_type, ts = m.timestamp()
    out: Dict[str, Any] = {"topic": m.topic(), "partition": m.partition(), "offset": m.offset(),
                           "timestamp": ts if ts_type else None}
    _text_or_b64("key", m.key(), out)
    _text_or_b64("value", m.value(), out)
    hs = m.headers()
    if hs:
        headers = []
        for name, value in hs:
            h: Dict[str, Any] = {"name": name}
            _text_or_b64("value", value, h)
            headers.append(h)
        out["headers"] = headers
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
