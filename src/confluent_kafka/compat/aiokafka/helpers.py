"""``aiokafka.helpers`` of the aiokafka facade: ``create_ssl_context``.

librdkafka makes its own TLS connections from files, so the facade cannot use an arbitrary
:class:`ssl.SSLContext`. The context this function returns remembers the files it was made from,
and the clients map them to ``ssl.ca.location``, ``ssl.certificate.location``,
``ssl.key.location`` and ``ssl.key.password``.
"""
from __future__ import annotations

import os
import ssl
from typing import Any, Callable, Dict, Optional, Union

__all__ = ["create_ssl_context"]

_PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


class FacadeSSLContext(ssl.SSLContext):
    """An SSLContext that also records the files it was made from (see :func:`create_ssl_context`)."""

    librdkafka_conf: Dict[str, str]


def _text(path: Any) -> str:
    value = os.fspath(path)
    return value.decode() if isinstance(value, bytes) else value


def create_ssl_context(*, cafile: Optional[_PathLike] = None, capath: Optional[_PathLike] = None,
                       cadata: Optional[Union[str, bytes]] = None, certfile: Optional[_PathLike] = None,
                       keyfile: Optional[_PathLike] = None,
                       password: Optional[Union[Callable[[], Union[str, bytes, bytearray]], str, bytes,
                                                bytearray]] = None) -> ssl.SSLContext:
    """A client TLS context (hostname checked, certificate required) for the facade's clients.

    :param cafile: CA certificates file (PEM).
    :param capath: directory of CA certificates.
    :param cadata: CA certificates as text; librdkafka takes it as ``ssl.ca.pem``.
    :param certfile: the client certificate (PEM).
    :param keyfile: the client certificate's private key.
    :param password: the private key's password, or a function returning it.
    :returns: an :class:`ssl.SSLContext` the facade's clients can turn into librdkafka settings.
    :raises ValueError: when ``keyfile`` is given without ``certfile``.
    """
    if keyfile is not None and certfile is None:
        raise ValueError("keyfile needs certfile")
    ctx = FacadeSSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.options |= ssl.OP_NO_SSLv2 | ssl.OP_NO_SSLv3
    ctx.verify_mode = ssl.CERT_REQUIRED
    ctx.check_hostname = True
    conf: Dict[str, str] = {}
    if cafile or capath or cadata:
        ctx.load_verify_locations(cafile, capath, cadata)
        if cafile:
            conf["ssl.ca.location"] = _text(cafile)
        elif capath:
            conf["ssl.ca.location"] = _text(capath)
        else:
            conf["ssl.ca.pem"] = cadata.decode() if isinstance(cadata, bytes) else str(cadata)
    if certfile is not None:
        ctx.load_cert_chain(certfile, keyfile, password)
        conf["ssl.certificate.location"] = _text(certfile)
        conf["ssl.key.location"] = _text(keyfile if keyfile is not None else certfile)
        if password is not None:
            secret = password() if callable(password) else password
            conf["ssl.key.password"] = secret.decode() if isinstance(secret, (bytes, bytearray)) else secret
    ctx.librdkafka_conf = conf
    return ctx
