"""The functions CEL rules get besides CEL's own: string checks (``isEmail``, ``isHostname``,
``isIpv4``, ``isIpv6``, ``isUri``, ``isUriRef``, ``isUuid``), ``format``, and the decimal,
timestamp and variant libraries (``decimal_funcs``, ``timestamp_funcs``, ``variant_funcs``)."""

from __future__ import annotations

import ipaddress
import json
import uuid
from email.utils import parseaddr
from typing import Any, Callable, Dict, Optional, Union
from urllib.parse import urlparse

from celpy import celtypes  # type: ignore[import-untyped,unused-ignore]
from celpy.evaluation import CELEvalError  # type: ignore[import-untyped,unused-ignore]

__all__ = ["EXTRA_FUNCS", "make_extra_funcs", "validate_email", "validate_ip", "validate_uuid",
           "validate_host_and_port", "validate_port"]


def _hostname_ok(host: str) -> bool:
    if not host or len(host) > 253:
        return False
    if host.endswith("."):
        host = host[:-1]
    labels = host.split(".")
    for label in labels:
        if not 0 < len(label) <= 63 or label[0] == "-" or label[-1] == "-":
            return False
        if any(not (c.isascii() and (c.isalnum() or c == "-")) for c in label):
            return False
    # The last label of a host name is never all digits (that would be an address).
    return not labels[-1].isdigit()


def validate_email(addr: str) -> bool:
    """Whether ``addr`` is a plain ``local@host`` address.

    :param addr: the text.
    :returns: True when it is.
    """
    if parseaddr(addr)[1] != addr or len(addr) > 254:
        return False
    parts = addr.split("@")
    return len(parts) == 2 and len(parts[0]) <= 64 and _hostname_ok(parts[1])


def validate_ip(val: Union[str, bytes], version: Optional[int] = None) -> bool:
    """Whether ``val`` is an IP address (of ``version`` 4 or 6 when given).

    :param val: the text.
    :param version: 4, 6 or None for either.
    :returns: True when it is.
    :raises CELEvalError: for another version.
    """
    kinds: Dict[Optional[int], Callable[[Any], Any]] = {None: ipaddress.ip_address, 4: ipaddress.IPv4Address,
                                                        6: ipaddress.IPv6Address}
    if version not in kinds:
        raise CELEvalError("invalid argument, expected 4 or 6")
    try:
        kinds[version](val)
        return True
    except ValueError:
        return False


def validate_port(val: str) -> bool:
    """Whether ``val`` is a port number.

    :param val: the text.
    :returns: True when it is.
    """
    try:
        return int(val) <= 65535
    except ValueError:
        return False


def validate_host_and_port(string: str, *, port_required: bool) -> bool:
    """Whether ``string`` is ``host[:port]`` (a host name, an IPv4 address or a bracketed IPv6).

    :param string: the text.
    :param port_required: whether the port must be there.
    :returns: True when it is.
    """
    if not string:
        return False
    colon = string.rfind(":")
    if string[0] == "[":
        end = string.find("]")
        if end + 1 == len(string):
            return not port_required and validate_ip(string[1:end], 6)
        if end + 1 == colon:
            return validate_ip(string[1:end]) and validate_port(string[colon + 1:])
        return False
    if colon == -1:
        return not port_required and (_hostname_ok(string) or validate_ip(string, 4))
    host, port = string[:colon], string[colon + 1:]
    return (_hostname_ok(host) or validate_ip(host, 4)) and validate_port(port)


def validate_uuid(val: str) -> bool:
    """Whether ``val`` is a UUID.

    :param val: the text.
    :returns: True when it is.
    """
    try:
        uuid.UUID(val)
        return True
    except ValueError:
        return False


def _text_arg(value: Any, what: str = "string") -> None:
    if not isinstance(value, celtypes.StringType):
        raise CELEvalError(f"invalid argument, expected {what}")


def is_ipv4(val: Any) -> Any:
    """CEL ``isIpv4(s)``."""
    if not isinstance(val, (celtypes.StringType, celtypes.BytesType)):
        raise CELEvalError("invalid argument, expected string or bytes")
    return celtypes.BoolType(validate_ip(val, 4))


def is_ipv6(val: Any) -> Any:
    """CEL ``isIpv6(s)``."""
    if not isinstance(val, (celtypes.StringType, celtypes.BytesType)):
        raise CELEvalError("invalid argument, expected string or bytes")
    return celtypes.BoolType(validate_ip(val, 6))


def is_email(string: Any) -> Any:
    """CEL ``isEmail(s)``."""
    _text_arg(string)
    return celtypes.BoolType(validate_email(string))


def is_uri(string: Any) -> Any:
    """CEL ``isUri(s)``: an absolute URI with a scheme, a host and a path."""
    _text_arg(string)
    url = urlparse(string)
    return celtypes.BoolType(bool(url.scheme and url.netloc and url.path))


def is_uri_ref(string: Any) -> Any:
    """CEL ``isUriRef(s)``: a URI or a relative reference."""
    _text_arg(string)
    url = urlparse(string)
    return celtypes.BoolType(not (not (url.scheme and url.path) and url.fragment))


def is_hostname(string: Any) -> Any:
    """CEL ``isHostname(s)``."""
    _text_arg(string)
    return celtypes.BoolType(_hostname_ok(string))


def is_uuid(string: Any) -> Any:
    """CEL ``isUuid(s)``."""
    _text_arg(string)
    return celtypes.BoolType(validate_uuid(string))


def _format_one(spec: str, arg: Any) -> str:
    if spec == "s":
        # As upstream's client renders them: Python's spelling of booleans and null, bytes as
        # hex, lists with quoted strings.
        if isinstance(arg, celtypes.BytesType):
            return bytes(arg).hex()
        if isinstance(arg, celtypes.BoolType):
            return str(bool(arg))
        if arg is None:
            return "None"
        if isinstance(arg, (list, celtypes.ListType)):
            return "[" + ", ".join(json.dumps(str(a)) if isinstance(a, str) else _format_one("s", a)
                                   for a in arg) + "]"
        return str(arg)
    if spec == "d":
        if not isinstance(arg, (celtypes.IntType, celtypes.UintType)):
            raise CELEvalError("error during formatting: decimal clause can only be used on integers")
        return str(int(arg))
    if spec in ("x", "X", "o", "b"):
        if isinstance(arg, (celtypes.StringType, celtypes.BytesType)):
            raw = arg.encode("utf-8") if isinstance(arg, str) else bytes(arg)
            text = raw.hex()
            return text.upper() if spec == "X" else text
        number = int(arg)
        return format(number, spec)
    if spec.endswith(("f", "e")):
        precision = int(spec[1:-1]) if spec.startswith(".") else 6
        return format(float(arg), f".{precision}{spec[-1]}")
    raise CELEvalError(f"error during formatting: unrecognized formatting clause {spec!r}")


def _format(fmt: Any, args: Any) -> Any:
    """CEL ``"...".format([args])``: ``%s``, ``%d``, ``%x``/``%X``, ``%o``, ``%b``, ``%f``,
    ``%e`` (with ``.N`` precision) and ``%%``."""
    if not isinstance(fmt, celtypes.StringType):
        raise CELEvalError("format() needs a string")
    if not isinstance(args, (list, celtypes.ListType)):
        raise CELEvalError("format() needs a list of arguments")
    out, i, n, used = [], 0, len(fmt), 0
    while i < n:
        c = fmt[i]
        i += 1
        if c != "%":
            out.append(c)
            continue
        if i < n and fmt[i] == "%":
            out.append("%")
            i += 1
            continue
        start = i
        while i < n and (fmt[i] == "." or fmt[i].isdigit()):
            i += 1
        if i >= n:
            raise CELEvalError("error during formatting: unterminated formatting clause")
        spec = fmt[start:i + 1]
        i += 1
        if used >= len(args):
            raise CELEvalError(f"index {used} out of range")
        out.append(_format_one(spec, args[used]))
        used += 1
    return celtypes.StringType("".join(out))


def make_extra_funcs(locale: str = "en_US") -> Dict[str, Callable[..., Any]]:
    """The functions added to CEL for rules.

    :param locale: kept for upstream's signature; formatting is locale-independent.
    :returns: the functions by CEL name.
    """
    from .decimal_funcs import DECIMAL_FUNCS, DECIMAL_OPERATOR_FUNCS
    from .timestamp_funcs import TIMESTAMP_FUNCS
    from .variant_funcs import VARIANT_FUNCS

    funcs: Dict[str, Callable[..., Any]] = {
        "format": _format,
        "isIpv4": is_ipv4,
        "isIpv6": is_ipv6,
        "isEmail": is_email,
        "isUri": is_uri,
        "isUriRef": is_uri_ref,
        "isHostname": is_hostname,
        "isUuid": is_uuid,
    }
    # The decimal, timestamp and variant libraries (``string``, ``double``, ``timestamp`` and
    # the equality operators among them, replacing celpy's own).
    for library in (DECIMAL_FUNCS, DECIMAL_OPERATOR_FUNCS, TIMESTAMP_FUNCS, VARIANT_FUNCS):
        funcs.update(library)
    return funcs


EXTRA_FUNCS = make_extra_funcs("en_US")
