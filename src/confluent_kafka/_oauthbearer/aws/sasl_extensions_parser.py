"""``sasl.oauthbearer.extensions``: the SASL extensions (RFC 7628) sent with every token."""
from __future__ import annotations

from typing import Dict, Optional

from .._kv import key_values

__all__ = ["CONFIG_KEY", "parse"]

#: The property holding the extensions, ``key=value`` pairs separated by commas.
CONFIG_KEY: str = "sasl.oauthbearer.extensions"


def parse(raw: Optional[str]) -> Optional[Dict[str, str]]:
    """The extensions in ``raw`` as a dict (a repeated key keeps its last value).

    :param raw: the property value, or None when it is not set.
    :returns: the extensions, or None when there are none.
    :raises ValueError: an entry is not ``key=value`` or its key is empty.
    """
    if not raw:
        return None
    return dict(key_values(raw, ",", CONFIG_KEY)) or None
