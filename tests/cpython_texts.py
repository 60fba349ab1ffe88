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


def unexpected_keyword_text(name: str) -> str:
    """The TypeError text ``PyArg_ParseTupleAndKeywords`` gives, in this interpreter, for an
    unknown keyword argument ``name`` passed to an unnamed C function.

    :param name: the unknown keyword.
    :returns: the exception's text, e.g. "this function got an unexpected keyword argument 'x'".
    :raises AssertionError: if the call does not fail as expected.
    """
    parse = ctypes.pythonapi.PyArg_ParseTupleAndKeywords
    parse.restype = ctypes.c_int
    keywords = (ctypes.c_char_p * 2)(b"a", None)  # one optional parameter "a", NULL-terminated
    target = ctypes.py_object()
    try:
        # ctypes.pythonapi holds the GIL for the call and raises the error the function set.
        parse(ctypes.py_object(()), ctypes.py_object({name: 1}), ctypes.c_char_p(b"|O"), keywords,
              ctypes.byref(target))
    except TypeError as exc:
        return str(exc)
    raise AssertionError(f"PyArg_ParseTupleAndKeywords accepted the unknown keyword {name!r}")
