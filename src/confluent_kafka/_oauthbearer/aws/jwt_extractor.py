"""Reading claims from a JWT without verifying it (the broker verifies; STS signed it)."""
from __future__ import annotations

import base64
import binascii
import json
from typing import Any, Dict, Optional

__all__ = ["claims", "extract_sub", "extract_exp"]

#: Longer than any token STS issues; refuses to decode arbitrary amounts of data.
MAX_TOKEN_CHARS: int = 8192


def claims(jwt: str) -> Dict[str, Any]:
    """The payload of the compact-serialised JWT ``jwt`` (``header.payload.signature``).

    :param jwt: the token.
    :returns: the decoded JSON object.
    :raises ValueError: ``jwt`` is not a str of three base64url segments whose middle one
        decodes to a UTF-8 JSON object, or is empty or longer than :data:`MAX_TOKEN_CHARS`.
    """
    if not isinstance(jwt, str) or not jwt:
        raise ValueError("the JWT is empty" if isinstance(jwt, str) else
                         f"the JWT must be a str, not {type(jwt).__name__}")
    if len(jwt) > MAX_TOKEN_CHARS:
        raise ValueError(f"the JWT is {len(jwt)} characters long, more than {MAX_TOKEN_CHARS}")
    segments = jwt.split(".")
    if len(segments) != 3:
        raise ValueError(f"a JWT has 3 dot-separated segments, this one has {len(segments)}")
    payload = segments[1]
    if not payload or len(payload) % 4 == 1:
        raise ValueError("the JWT payload is not base64url")
    try:
        raw = base64.b64decode(payload.replace("-", "+").replace("_", "/") + "=" * (-len(payload) % 4),
                               validate=True)
        decoded = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError) as exc:  # JSONDecodeError and UnicodeDecodeError too
        raise ValueError(f"the JWT payload is not base64url-encoded UTF-8 JSON: {exc}") from exc
    if not isinstance(decoded, dict):
        raise ValueError("the JWT payload is not a JSON object")
    return decoded


def extract_sub(jwt: str) -> str:
    """The ``sub`` claim of ``jwt``: the principal the token stands for.

    :param jwt: the token.
    :returns: the subject, a non-empty str.
    :raises ValueError: the token cannot be read, or has no non-empty string ``sub``.
    """
    sub = claims(jwt).get("sub")
    if not isinstance(sub, str) or not sub:
        raise ValueError("the JWT has no 'sub' claim (a non-empty string)")
    return sub


def extract_exp(jwt: str) -> Optional[float]:
    """The ``exp`` claim of ``jwt``: when it expires, in seconds since the epoch.

    :param jwt: the token.
    :returns: the expiry, or None when the token has no ``exp`` claim.
    :raises ValueError: the token cannot be read, or its ``exp`` is not a number.
    """
    exp = claims(jwt).get("exp")
    if exp is None:
        return None
    if isinstance(exp, bool) or not isinstance(exp, (int, float)):
        raise ValueError(f"the JWT 'exp' claim must be a number, not {exp!r}")
    return float(exp)
