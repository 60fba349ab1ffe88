"""The path language of ``variants.path(v, path)``, a small subset of JSONPath:

* ``$``: the value itself;
* ``.name``: an object's field, ``name`` an identifier (a letter or ``_``, then letters, digits
  and ``_``, Unicode letters and digits included);
* ``["key"]`` or ``['key']``: an object's field by any key; inside the quotes, a backslash escapes
  only a backslash or the quote itself;
* ``[n]``: an array's element, ``n`` a non-negative int32.

A segment that does not resolve (no such field, out of range, an object where an array was
expected) makes the whole walk None; a malformed path is a :class:`ValueError`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import List, Optional, Tuple, Union

from ...confluent.type.variant_utils import Variant, VariantType

__all__ = ["walk", "parse"]

#: ("field", key) or ("index", position).
Segment = Tuple[str, Union[str, int]]


def walk(root: Variant, path: str) -> Optional[Variant]:
    """Follow ``path`` from ``root``.

    :param root: the value.
    :param path: the path.
    :returns: the value found, or None when a segment does not resolve.
    :raises ValueError: for a malformed path.
    """
    node: Optional[Variant] = root
    for kind, arg in parse(path):
        if node is None:
            return None
        if kind == "field":
            node = node.get_field_by_key(str(arg)) if node.get_type() == VariantType.OBJECT else None
        else:
            node = node.get_element_at_index(int(arg)) if node.get_type() == VariantType.ARRAY else None
    return node


@lru_cache(maxsize=1000)
def parse(path: str) -> Tuple[Segment, ...]:
    """The segments of ``path`` (cached: rules pass the same literal path for every record).

    :param path: the path.
    :returns: the segments.
    :raises ValueError: for a malformed path.
    """
    if not path.startswith("$"):
        raise ValueError(f"variant path must start with '$', got: {path}")
    segments: List[Segment] = []
    i, n = 1, len(path)
    while i < n:
        c = path[i]
        if c == ".":
            i += 1
            start = i
            if i >= n or not (path[i].isalpha() or path[i] == "_"):
                raise ValueError(f"expected an identifier after '.' in variant path: {path}")
            while i < n and (path[i].isalnum() or path[i] == "_"):
                i += 1
            segments.append(("field", path[start:i]))
        elif c == "[":
            i += 1
            if i >= n:
                raise ValueError(f"unexpected end after '[' in variant path: {path}")
            if path[i] in "\"'":
                key, i = _quoted(path, i)
                segments.append(("field", key))
            else:
                if path[i] == "-":
                    raise ValueError(f"negative indices are not supported in variant path: {path}")
                start = i
                while i < n and "0" <= path[i] <= "9":
                    i += 1
                if i == start:
                    raise ValueError(f"expected an integer index in variant path: {path}")
                index = int(path[start:i])
                if index > 2 ** 31 - 1:
                    raise ValueError(f"index out of int range in variant path: {path}")
                segments.append(("index", index))
            if i >= n or path[i] != "]":
                raise ValueError(f"expected ']' in variant path: {path}")
            i += 1
        else:
            raise ValueError(f"unexpected character '{c}' in variant path: {path}")
    return tuple(segments)


def _quoted(path: str, i: int) -> Tuple[str, int]:
    """The key of the quoted segment starting at ``path[i]`` (the quote), and the index after it."""
    quote = path[i]
    i += 1
    out: List[str] = []
    while i < len(path):
        c = path[i]
        i += 1
        if c == quote:
            return "".join(out), i
        if c == "\\":
            if i >= len(path):
                raise ValueError(f"unterminated escape in quoted key of variant path: {path}")
            escaped = path[i]
            i += 1
            if escaped not in ("\\", quote):
                raise ValueError(f"only \\\\ and \\{quote} may be escaped in a quoted key of variant path: {path}")
            out.append(escaped)
        else:
            out.append(c)
    raise ValueError(f"unterminated quoted key in variant path: {path}")
