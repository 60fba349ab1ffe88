"""A loopback "broker" that speaks just enough Kafka protocol for a client to authenticate
with SASL/OAUTHBEARER: ApiVersions, SaslHandshake and SaslAuthenticate.

librdkafka's mock cluster has no SASL (it does not offer SaslHandshake), and tansu wants an
identity provider to validate OAUTHBEARER tokens, so this is what shows a token on the wire:
every client-first-message is recorded (token and SASL extensions), authentication succeeds when
``accept(token)`` says so, and the request a client sends next (its first Metadata) proves that
it took the authentication as done. Nothing else is answered.
"""
from __future__ import annotations

import socket
import struct
import threading
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

API_VERSIONS, SASL_HANDSHAKE, SASL_AUTHENTICATE, METADATA = 18, 17, 36, 3
# (api key, min version, max version) offered: non-flexible SASL versions keep the parsing small.
OFFERED = [(API_VERSIONS, 0, 3), (SASL_HANDSHAKE, 0, 1), (SASL_AUTHENTICATE, 0, 1), (METADATA, 0, 4)]
SASL_AUTHENTICATION_FAILED = 58


@dataclass
class Auth:
    """One OAUTHBEARER client-first-message."""

    token: str
    extensions: Dict[str, str]
    accepted: bool


@dataclass
class Record:
    handshakes: List[str] = field(default_factory=list)
    auths: List[Auth] = field(default_factory=list)
    after_auth: List[int] = field(default_factory=list)  # api keys received after a success


def parse_client_first(message: bytes) -> Auth:
    """RFC 7628: ``gs2-header \\x01 auth=Bearer <token> \\x01 (key=value \\x01)* \\x01``."""
    parts = message.decode().split("\x01")
    token, extensions = "", {}
    for part in parts[1:]:
        if part.startswith("auth=Bearer "):
            token = part[len("auth=Bearer "):]
        elif "=" in part:
            key, _, value = part.partition("=")
            extensions[key] = value
    return Auth(token, extensions, False)


def _recv_exact(sock: socket.socket, n: int) -> Optional[bytes]:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


class FakeSaslBroker:
    """Listens on ``bootstrap`` until :meth:`close`; what clients sent is in ``record``."""

    def __init__(self, accept: Callable[[str], bool] = lambda token: True) -> None:
        self.accept = accept
        self.record = Record()
        self.changed = threading.Condition()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.1)  # accept() notices close() within this
        self.bootstrap = f"127.0.0.1:{self._listener.getsockname()[1]}"
        self._closing = False
        self._threads: List[threading.Thread] = []
        self._conns: List[socket.socket] = []
        accept_thread = threading.Thread(target=self._accept_loop, daemon=True)
        accept_thread.start()
        self._threads.append(accept_thread)

    def wait_for(self, cond: Callable[[Record], bool], timeout: float) -> bool:
        """Whether ``cond(record)`` came true within ``timeout`` seconds."""
        with self.changed:
            return self.changed.wait_for(lambda: cond(self.record), timeout)

    def _accept_loop(self) -> None:
        while not self._closing:
            try:
                conn, _ = self._listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            conn.settimeout(None)
            self._conns.append(conn)
            t = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            t.start()
            self._threads.append(t)

    def _note(self, update: Callable[[Record], None]) -> None:
        with self.changed:
            update(self.record)
            self.changed.notify_all()

    def _serve(self, conn: socket.socket) -> None:
        authenticated = False
        try:
            while True:
                size = _recv_exact(conn, 4)
                body = _recv_exact(conn, struct.unpack(">i", size)[0]) if size else None
                if body is None:
                    return
                api_key, version, correlation = struct.unpack(">hhi", body[:8])
                (client_id_len,) = struct.unpack(">h", body[8:10])
                payload = body[10 + max(client_id_len, 0):]
                if authenticated:
                    self._note(lambda r: r.after_auth.append(api_key))
                    continue  # recorded, never answered
                if api_key == API_VERSIONS:
                    reply = self._api_versions(version)
                elif api_key == SASL_HANDSHAKE:
                    (n,) = struct.unpack(">h", payload[:2])
                    mechanism = payload[2:2 + n].decode()
                    self._note(lambda r: r.handshakes.append(mechanism))
                    ok = mechanism == "OAUTHBEARER"
                    reply = struct.pack(">hi", 0 if ok else 33, 1) + struct.pack(">h", 11) + b"OAUTHBEARER"
                elif api_key == SASL_AUTHENTICATE:
                    (n,) = struct.unpack(">i", payload[:4])
                    auth = parse_client_first(payload[4:4 + n])
                    auth.accepted = bool(auth.token) and self.accept(auth.token)
                    self._note(lambda r: r.auths.append(auth))
                    if auth.accepted:
                        reply = struct.pack(">hhi", 0, -1, 0)
                        authenticated = True
                    else:
                        message = b"token refused"
                        reply = struct.pack(">hh", SASL_AUTHENTICATION_FAILED, len(message)) + message
                        reply += struct.pack(">i", 0)
                    if version >= 1:
                        reply += struct.pack(">q", 0)  # session_lifetime_ms
                else:
                    return
                frame = struct.pack(">i", correlation) + reply
                conn.sendall(struct.pack(">i", len(frame)) + frame)
        except OSError:
            return
        finally:
            conn.close()

    @staticmethod
    def _api_versions(version: int) -> bytes:
        if version >= 3:  # flexible body: compact array, tagged fields
            out = struct.pack(">hB", 0, len(OFFERED) + 1)
            out += b"".join(struct.pack(">hhhB", k, lo, hi, 0) for k, lo, hi in OFFERED)
            return out + struct.pack(">iB", 0, 0)
        out = struct.pack(">hi", 0, len(OFFERED)) + b"".join(struct.pack(">hhh", *o) for o in OFFERED)
        return out + (struct.pack(">i", 0) if version >= 1 else b"")

    def close(self) -> None:
        self._closing = True
        self._listener.close()
        for conn in self._conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for t in self._threads:
            t.join(5)

    def __enter__(self) -> "FakeSaslBroker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
