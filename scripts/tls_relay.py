"""A TLS-terminating relay on loopback: accepts TLS on one port and forwards the plaintext to
another. It gives the test broker a TLS listener: tansu 0.6's CLI refuses ``--cert`` together
with ``--key`` ("cannot be used with"), and either alone leaves its listener plaintext.

    with TlsRelay(target_port=9092, cert="server.pem", key="server.key") as relay:
        ...  # clients connect with TLS to 127.0.0.1:relay.port
"""
from __future__ import annotations

import socket
import ssl
import threading
from typing import List, Optional

BUFFER = 65536


class TlsRelay:
    """Listens on 127.0.0.1:``port`` (a free one unless given) and relays each TLS connection
    to 127.0.0.1:``target_port`` in plaintext, one pair of threads per connection."""

    def __init__(self, target_port: int, cert: str, key: str, port: int = 0):
        self.target_port = target_port
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(cert, key)
        self.listener = socket.create_server(("127.0.0.1", port))
        self.port: int = self.listener.getsockname()[1]
        self.handshake_failures = 0  # clients that gave up on the TLS handshake
        self._conns: List[socket.socket] = []
        self._threads: List[threading.Thread] = []
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._acceptor: Optional[threading.Thread] = None

    def start(self) -> "TlsRelay":
        self._acceptor = threading.Thread(target=self._accept_loop, name="tls-relay", daemon=True)
        self._acceptor.start()
        return self

    def _accept_loop(self) -> None:
        while not self._stopped.is_set():
            try:
                raw, _ = self.listener.accept()
            except OSError:
                return  # listener closed by stop()
            self._spawn(self._serve, raw)

    def _spawn(self, fn, *args) -> None:  # type: ignore[no-untyped-def]
        t = threading.Thread(target=fn, args=args, daemon=True)
        with self._lock:
            self._threads.append(t)
        t.start()

    def _serve(self, raw: socket.socket) -> None:
        raw.settimeout(10)
        try:
            tls = self.context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            self.handshake_failures += 1
            raw.close()
            return
        tls.settimeout(None)
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=10)
        except OSError:
            tls.close()
            return
        upstream.settimeout(None)
        with self._lock:
            self._conns += [tls, upstream]
        self._spawn(self._pump, upstream, tls)
        self._pump(tls, upstream)

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(BUFFER)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def stop(self) -> None:
        self._stopped.set()
        self.listener.close()
        with self._lock:
            conns, threads = list(self._conns), list(self._threads)
        for s in conns:
            try:
                s.close()
            except OSError:
                pass
        for t in threads + ([self._acceptor] if self._acceptor else []):
            t.join(10)

    def __enter__(self) -> "TlsRelay":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
