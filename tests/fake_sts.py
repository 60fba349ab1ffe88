"""A stand-in for AWS STS on loopback, for the AWS IAM OAUTHBEARER tests.

moto (5.2.5) has no ``GetWebIdentityToken``, so this answers that one action the way STS does
(AWS query protocol: a form-encoded POST in, XML out) to a real boto3 client pointed at it with
``sts_endpoint``. Tokens are unsigned JWTs made by :func:`make_jwt`; nothing verifies them.
"""
from __future__ import annotations

import base64
import datetime
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple
from xml.sax.saxutils import escape

# Credentials for the boto3 client (the fake does not check the signature) and no profile files.
AWS_ENV = {"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret-example",
           "AWS_CONFIG_FILE": "/nonexistent/aws-config", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/aws-creds",
           "AWS_EC2_METADATA_DISABLED": "true"}


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def make_jwt(claims: Dict[str, Any], header: Optional[Dict[str, Any]] = None) -> str:
    """An unsigned compact JWT carrying ``claims``."""
    head = header or {"alg": "ES384", "typ": "JWT"}
    return ".".join([_b64url(json.dumps(head).encode()), _b64url(json.dumps(claims).encode()),
                     _b64url(b"not-a-signature")])


Answer = Tuple[int, str]  # HTTP status, XML body


def token_answer(jwt: str, expiration: Optional[float]) -> Answer:
    """STS's answer carrying ``jwt`` (and ``Expiration``, seconds since the epoch, unless None)."""
    exp = ""
    if expiration is not None:
        when = datetime.datetime.fromtimestamp(expiration, datetime.timezone.utc)
        exp = f"<Expiration>{when.strftime('%Y-%m-%dT%H:%M:%S.%fZ')}</Expiration>"
    return 200, ('<GetWebIdentityTokenResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">'
                 f"<GetWebIdentityTokenResult><WebIdentityToken>{escape(jwt)}</WebIdentityToken>{exp}"
                 "</GetWebIdentityTokenResult><ResponseMetadata><RequestId>req-1</RequestId>"
                 "</ResponseMetadata></GetWebIdentityTokenResponse>")


def error_answer(code: str, message: str, status: int = 403) -> Answer:
    """An STS error (``AccessDenied``, ...)."""
    return status, ('<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error>'
                    f"<Type>Sender</Type><Code>{escape(code)}</Code><Message>{escape(message)}</Message>"
                    "</Error><RequestId>req-1</RequestId></ErrorResponse>")


class FakeSts:
    """Serves ``GetWebIdentityToken`` on ``url`` until :meth:`close`. ``requests`` holds each
    request's form fields; ``answer(fields)`` makes the reply (by default a token for
    ``sub=arn:aws:iam::123456789012:role/app`` valid for the requested duration)."""

    def __init__(self, answer: Optional[Callable[[Dict[str, List[str]]], Answer]] = None) -> None:
        self.requests: List[Dict[str, List[str]]] = []
        self.answer = answer or self.default_answer
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length", "0"))
                fields = urllib.parse.parse_qs(self.rfile.read(length).decode(), keep_blank_values=True)
                fake.requests.append(fields)
                if fields.get("Action") != ["GetWebIdentityToken"]:
                    status, body = error_answer("InvalidAction", f"not faked: {fields.get('Action')}", 400)
                else:
                    status, body = fake.answer(fields)
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/xml")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @staticmethod
    def default_answer(fields: Dict[str, List[str]]) -> Answer:
        now = time.time()
        duration = int(fields.get("DurationSeconds", ["300"])[0])
        jwt = make_jwt({"sub": "arn:aws:iam::123456789012:role/app", "aud": fields.get("Audience.member.1"),
                        "iat": int(now), "exp": int(now) + duration})
        return token_answer(jwt, now + duration)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def __enter__(self) -> "FakeSts":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def jwt_claims_of(jwt: str) -> Dict[str, Any]:
    """The claims of a JWT made by :func:`make_jwt` (or any unencrypted JWT)."""
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
