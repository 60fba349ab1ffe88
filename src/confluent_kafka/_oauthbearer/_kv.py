"""Splitting librdkafka-style ``key=value`` lists, as librdkafka itself splits them.

librdkafka reads list-valued properties (``sasl.oauthbearer.extensions`` among them) field by
field: a backslash makes the next character literal (``\\t``, ``\\n``, ``\\r`` and ``\\0`` stand
for TAB, LF, CR and NUL), unescaped whitespace at the start of a field is dropped, whitespace at
its end is dropped even when escaped, and empty fields are skipped. A field is split into key and
value at its first ``=``. Parsing the same way here keeps a value such as an escaped comma
meaning what it would mean to librdkafka.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

__all__ = ["split_fields", "key_values"]

_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "0": "\0"}
# C's isspace() in the "C" locale: not str.isspace(), which also accepts Unicode spaces.
_SPACE = frozenset(" \t\n\v\f\r")


def split_fields(raw: str, sep: str = ",") -> List[str]:
    """The non-empty fields of ``raw`` separated by the character ``sep``.

    :param raw: the property value.
    :param sep: the separator (one character).
    :returns: the fields, unescaped and trimmed, empty ones left out.
    :raises TypeError: ``raw`` is not a str.
    """
    if not isinstance(raw, str):
        raise TypeError(f"expected a str, not {type(raw).__name__}")
    fields: List[str] = []
    current: List[str] = []
    escaped = False

    def finish() -> None:
        while current and current[-1] in _SPACE:
            current.pop()
        if current:
            fields.append("".join(current))
        current.clear()

    for ch in raw:
        if escaped:
            current.append(_ESCAPES.get(ch, ch))
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == sep:
            finish()
        elif ch in _SPACE and not current:
            continue
        else:
            current.append(ch)
    finish()  # a dangling backslash escapes nothing and is dropped
    return fields


def key_values(raw: str, sep: str = ",", what: Optional[str] = None) -> List[Tuple[str, str]]:
    """The ``(key, value)`` pairs of ``raw``, in order (duplicates kept).

    :param raw: the property value.
    :param sep: the field separator.
    :param what: the property's name, for the error message.
    :returns: one pair per non-empty field, split at its first ``=``.
    :raises ValueError: a field has no ``=`` or an empty key.
    """
    pairs: List[Tuple[str, str]] = []
    for field in split_fields(raw, sep):
        key, eq, value = field.partition("=")
        if not eq or not key:
            where = f" in {what}" if what else ""
            raise ValueError(f"Malformed entry '{field}'{where} (expected key=value).")
        pairs.append((key, value))
    return pairs
