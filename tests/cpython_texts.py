"""The running interpreter's own wording of argument errors, for tests that compare exact texts.

The C extension (like upstream's) parses arguments with ``PyArg_ParseTupleAndKeywords`` and a
format without a function name, so CPython itself words the errors, and that wording changes
between versions: an unknown keyword is "'x' is an invalid keyword argument for this function"
up to 3.12 and "this function got an unexpected keyword argument 'x'" from 3.13 on. Rather than
a table of versions, these helpers ask the interpreter: they call ``PyArg_ParseTupleAndKeywords``
through ctypes with the same kind of format and return the message it raises.
"""

from __future__ import annotations

import ctypes
from typing import Sequence


# PyArg_ParseTupleAndKeywords(args, kwargs, format, kwlist, ...): the fixed parameters are
# declared, so ctypes passes the output pointers after them as C variadic arguments (which
# matters where those go elsewhere than fixed ones, as on Apple's arm64).
_PARSE = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.py_object, ctypes.c_char_p,
                           ctypes.POINTER(ctypes.c_char_p))(("PyArg_ParseTupleAndKeywords", ctypes.pythonapi))


def unexpected_keyword_text(name: str, keywords: Sequence[str] = ("a",)) -> str:
    """The TypeError text ``PyArg_ParseTupleAndKeywords`` gives, in this interpreter, for an
    unknown keyword argument ``name`` passed to an unnamed C function whose parameters are
    ``keywords`` (from 3.13 on it suggests the closest of them: "Did you mean 'y'?").

    :param name: the unknown keyword.
    :param keywords: the function's parameter names, in order (all optional here).
    :returns: the exception's text, e.g. "this function got an unexpected keyword argument 'x'".
    :raises AssertionError: if the call does not fail as expected.
    """
    assert name not in keywords
    kwlist = (ctypes.c_char_p * (len(keywords) + 1))(*(k.encode() for k in keywords), None)
    targets = [ctypes.py_object() for _ in keywords]
    try:
        # A PYFUNCTYPE function holds the GIL for the call and raises the error it set.
        _PARSE((), {name: 1}, b"|" + b"O" * len(keywords), kwlist, *(ctypes.byref(t) for t in targets))
    except TypeError as exc:
        return str(exc)
    raise AssertionError(f"PyArg_ParseTupleAndKeywords accepted the unknown keyword {name!r}")
