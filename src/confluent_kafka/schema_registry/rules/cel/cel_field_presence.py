"""The CEL program runner the rule executors use: cel-python's interpreter, plus calls of
namespaced functions (``decimals.add(a, b)``, ``variants.path(v, p)``) as the other CEL runtimes
make them, and ``has(m.f)`` false for an unset message field of a Protobuf message.

cel-python reads ``decimals.add(a, b)`` as the method ``add`` called on a variable ``decimals``.
When the receiver is a bare dotted name and the dotted name plus the method is a registered
function, the runner calls that function with the arguments instead; every other method call
(``s.startsWith("a")``, ``t.getDate()``, the macros) is cel-python's as before.
"""

from __future__ import annotations

import threading
from typing import Any, Optional

import celpy  # type: ignore[import-untyped,unused-ignore]
import lark  # type: ignore[import-untyped,unused-ignore]
from celpy import celtypes  # type: ignore[import-untyped,unused-ignore]
from celpy.evaluation import CELEvalError, Evaluator  # type: ignore[import-untyped,unused-ignore]

__all__ = ["InterpretedRunner", "in_has"]

#: Methods that are CEL macros, never namespaced functions.
_MACROS = frozenset(("map", "filter", "all", "exists", "exists_one", "reduce", "min"))


_state = threading.local()


def in_has() -> bool:
    """Whether this thread is evaluating the argument of a ``has()`` macro.

    :returns: True inside ``has(...)``.
    """
    return bool(getattr(_state, "in_has", False))


def _dotted_name(tree: Any) -> Optional[str]:
    """``a.b.c`` when ``tree`` is nothing but that chain of identifiers, else None."""
    if not isinstance(tree, lark.Tree):
        return None
    if tree.data in ("member", "primary"):
        return _dotted_name(tree.children[0]) if len(tree.children) == 1 else None
    if tree.data == "ident":
        token = tree.children[0]
        return str(token.value) if isinstance(token, lark.Token) and token.type == "IDENT" else None
    if tree.data == "member_dot":
        left, right = tree.children[0], tree.children[1]
        prefix = _dotted_name(left)
        if prefix is None or not isinstance(right, lark.Token) or right.type != "IDENT":
            return None
        return f"{prefix}.{right.value}"
    return None


def _selection(tree: Any) -> Optional[Any]:
    """The ``member_dot`` node ``tree`` consists of (through single-child wrappers), else None."""
    while isinstance(tree, lark.Tree):
        if tree.data == "member_dot":
            return tree
        if len(tree.children) != 1:
            return None
        tree = tree.children[0]
    return None


class _Evaluator(Evaluator):  # type: ignore[misc,unused-ignore]
    def macro_has_eval(self, exprlist: Any) -> Any:
        """``has(m.f)``: false for an unset singular message field of a Protobuf message (which
        still reads as null, or as its empty value), else cel-python's test."""
        outer = in_has()
        _state.in_has = True
        try:
            selection = _selection(exprlist.children[0]) if getattr(exprlist, "children", None) else None
            if selection is not None and isinstance(selection.children[1], lark.Token):
                receiver = self.visit(selection.children[0])
                unset = getattr(receiver, "unset", None)
                if isinstance(unset, set) and str(selection.children[1].value) in unset:
                    return celtypes.BoolType(False)
            return super().macro_has_eval(exprlist)
        finally:
            _state.in_has = outer

    def member_dot_arg(self, tree: Any) -> Any:
        method = tree.children[1] if len(tree.children) >= 2 else None
        if isinstance(method, lark.Token) and method.type == "IDENT" and method.value not in _MACROS:
            prefix = _dotted_name(tree.children[0])
            functions = getattr(self.activation, "functions", None)
            name = f"{prefix}.{method.value}"
            if prefix is not None and functions is not None and name in functions:
                args = list(self.visit(tree.children[2])) if len(tree.children) == 3 else []
                for arg in args:
                    if isinstance(arg, CELEvalError):
                        return arg
                return functions[name](*args)
        return super().member_dot_arg(tree)


class InterpretedRunner(celpy.InterpretedRunner):  # type: ignore[misc,unused-ignore]
    """cel-python's interpreting runner with namespaced function calls (the executors'
    ``runner_class``)."""

    def evaluate(self, context: Any) -> Any:
        """Evaluate the program.

        :param context: the CEL variables.
        :returns: the result.
        """
        return _Evaluator(ast=self.ast, activation=self.new_activation()).evaluate(context)
