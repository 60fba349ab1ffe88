"""Start and stop a throwaway S3 endpoint (``moto_server`` from PyPI ``moto[server]``) on a free
loopback port, for tansu's ``s3://`` storage: the storage that survives a broker restart.

    with S3Server() as s3:
        s3.create_bucket("tansu")
        broker = TansuBroker(storage="s3://tansu/", env=s3.env())
"""
from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from tansu_broker import _log_tail, _terminate, free_port

START_TIMEOUT = 30.0  # moto imports a lot on start-up


def moto_server_command() -> list:
    """How to run moto_server: the script next to this Python, else the one on PATH."""
    here = pathlib.Path(sys.executable).parent / "moto_server"
    if here.is_file():
        return [str(here)]
    found = shutil.which("moto_server")
    if found:
        return [found]
    raise RuntimeError("moto_server not found: install the test extras (pip install -e '.[test]')")


class S3Server:
    """One moto_server process serving S3 on 127.0.0.1:<port>, in memory."""

    ACCESS_KEY = "test-access-key"
    SECRET_KEY = "test-secret-key"
    REGION = "us-east-1"

    def __init__(self, log_dir: str | os.PathLike | None = None):
        self.log_dir = pathlib.Path(log_dir or tempfile.mkdtemp(prefix="moto-"))
        self.log_path = self.log_dir / "moto.log"
        self.port: int | None = None
        self.proc: subprocess.Popen | None = None

    @property
    def endpoint(self) -> str:
        if self.port is None:
            raise RuntimeError("S3 server not started")
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict:
        """The environment tansu's S3 storage reads its endpoint and credentials from."""
        return {"AWS_ENDPOINT": self.endpoint, "AWS_ALLOW_HTTP": "true",
                "AWS_ACCESS_KEY_ID": self.ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": self.SECRET_KEY,
                "AWS_DEFAULT_REGION": self.REGION}

    def start(self) -> "S3Server":
        port = free_port()
        cmd = moto_server_command() + ["-H", "127.0.0.1", "-p", str(port)]
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log,
                                         stderr=subprocess.STDOUT)
        self.port = port
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"moto_server exited with {self.proc.returncode}:\n"
                                   + _log_tail(self.log_path))
            try:
                urllib.request.urlopen(self.endpoint + "/", timeout=1).close()
                return self
            except urllib.error.HTTPError:
                return self  # an HTTP answer of any kind: it is serving
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"moto_server did not answer within {START_TIMEOUT:.0f} s:\n"
                           + _log_tail(self.log_path))

    def create_bucket(self, name: str) -> None:
        req = urllib.request.Request(f"{self.endpoint}/{name}", method="PUT")
        urllib.request.urlopen(req, timeout=10).close()

    def stop(self) -> None:
        if self.proc is not None:
            _terminate(self.proc)
            self.proc = None

    def __enter__(self) -> "S3Server":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
