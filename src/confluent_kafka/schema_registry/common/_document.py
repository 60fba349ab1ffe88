"""The base of the registry's JSON-document values (schemas, rules, KEKs, DEKs...), and the
helper their ``to_dict`` methods write with."""

from __future__ import annotations

from typing import Any, ClassVar, Dict, Type, TypeVar

T = TypeVar("T")


def _put(out: Dict[str, Any], key: str, value: Any) -> None:
    """Set ``out[key]`` unless ``value`` is None (the registry's documents leave unset fields out)."""
    if value is not None:
        out[key] = value


class _Document:
    """A value the registry sends or takes as a JSON document. Each subclass writes both methods;
    their documentation is this class's (``help()`` and the API pages show it on each)."""

    __slots__ = ()  # the attrs subclasses stay slotted

    def to_dict(self) -> Dict[str, Any]:
        """This object as the registry's JSON document (camelCase keys; unset fields left out).

        :returns: the document.
        """
        raise NotImplementedError

    @classmethod
    def from_dict(cls: Type[T], src_dict: Dict[str, Any]) -> T:
        """The object of a registry's JSON document.

        :param src_dict: the document.
        :returns: the object.
        """
        raise NotImplementedError


class _Mapping(_Document):
    """A document that is a single map, kept in the attrs field named by ``_field``. (Each
    subclass writes its own ``__hash__``: attrs would leave an inherited one out.)"""

    __slots__ = ()
    _field: ClassVar[str]

    def to_dict(self) -> Dict[str, Any]:
        return dict(getattr(self, self._field))

    @classmethod
    def from_dict(cls: Type[T], src_dict: Dict[str, Any]) -> T:
        return cls(**{cls._field: dict(src_dict)})  # type: ignore[attr-defined]
