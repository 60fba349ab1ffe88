"""The broker's own round trip for 'produce, one at a time, acked'; prints one JSON object.

No client library: one connection, a plain blocking socket, and the same one-record
ProduceRequest (acks=all, linger 0, the record batch encoded once) sent N times, each answer read
before the next request goes out. Its msgs/s is what the broker and the loopback allow a
request/response program at best, below every client's own work: the ceiling of that row.

Runs in the peers' virtualenv (.bench-venv): aiokafka's wire encoders make the request (its
version-7 ProduceRequest and a version-2 record batch); nothing of aiokafka's client runs, and
nothing of this repository is imported.

    python bench/round_trip_floor.py --bootstrap H:P --topic T -n N [--size 100]
"""
import argparse
import json
import socket
import struct
import sys
import time

import aiokafka
from aiokafka.protocol.produce import ProduceRequest_v7
from aiokafka.record.default_records import DefaultRecordBatchBuilder

WARM_UP = 100  # requests before the clock starts (the first auto-creates the topic)


def request_bytes(topic: str, size: int, correlation_id: int) -> bytes:
    """A size-prefixed ProduceRequest v7 of one record of `size` bytes to partition 0."""
    builder = DefaultRecordBatchBuilder(2, 0, is_transactional=0, producer_id=-1, producer_epoch=-1,
                                        base_sequence=0, batch_size=size + 1024)
    builder.append(0, timestamp=None, key=None, value=b"v" * size, headers=[])
    req = ProduceRequest_v7(None, -1, 30000, [(topic, [(0, bytes(builder.build()))])])
    body = req.build_request_header(correlation_id, "round-trip-floor").encode() + req.encode()
    return struct.pack(">i", len(body)) + body


def recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("the broker closed the connection")
        buf += chunk
    return bytes(buf)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--topic", required=True)
    ap.add_argument("-n", type=int, required=True)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--timeout", type=float, default=300.0)
    args = ap.parse_args()
    host, port = args.bootstrap.rsplit(":", 1)
    request = request_bytes(args.topic, args.size, 1)
    t_start = time.perf_counter()
    with socket.create_connection((host, int(port)), timeout=args.timeout) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def round_trip() -> None:
            sock.sendall(request)
            (length,) = struct.unpack(">i", recv_exact(sock, 4))
            recv_exact(sock, length)

        for _ in range(WARM_UP):
            round_trip()
        startup = time.perf_counter() - t_start
        cpu0, t0 = time.process_time(), time.perf_counter()
        for _ in range(args.n):
            round_trip()
        seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    json.dump({"module": aiokafka.__file__, "version": f"plain socket (aiokafka {aiokafka.__version__} encoders)",
               "librdkafka": "-", "messages": args.n, "size": args.size, "bytes": args.n * args.size,
               "seconds": seconds, "cpu_seconds": cpu, "startup_seconds": startup, "errors": 0}, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
