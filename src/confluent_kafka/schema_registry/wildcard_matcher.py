"""Matching dotted field names against the wildcard patterns of schema metadata tags."""

from __future__ import annotations

import functools
import re

__all__ = ["wildcard_match"]


def wildcard_match(text: str, matcher: str) -> bool:
    """Whether the dotted name ``text`` matches ``matcher``.

    ``?`` stands for one character and ``*`` for any run of characters inside one dotted
    segment; ``**`` crosses segments. A backslash makes the next character literal.

    :param text: a fully qualified name such as ``com.example.User.email``.
    :param matcher: the pattern, such as ``**.email`` or ``com.*.User.*``.
    :returns: True when the whole of ``text`` matches.
    """
    return _compiled(matcher).fullmatch(text) is not None


@functools.lru_cache(maxsize=1024)
def _compiled(matcher: str) -> "re.Pattern[str]":
    return re.compile(_to_regex(matcher, "."))


def _to_regex(pattern: str, sep: str) -> str:
    # "**.*" means the same as "**" (any run, across segments).
    src = pattern.replace("**" + sep + "*", "**")
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        i += 1
        if c == "*":
            if i < n and src[i] == "*":
                out.append(".*")
                i += 1
            else:
                out.append("[^" + re.escape(sep) + "]*")
        elif c == "?":
            out.append("[^" + re.escape(sep) + "]")
        elif c == "\\":
            # The next character is literal; a trailing backslash is a literal backslash.
            if i + 1 < n:
                out.append(re.escape("\\") + re.escape(src[i]))
                i += 1
            else:
                out.append(re.escape("\\"))
        elif c in ".+{}()|^$":
            out.append("\\" + c)
        else:
            out.append(c)
    return "".join(out)
