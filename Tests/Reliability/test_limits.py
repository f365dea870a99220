"""Limits that keep hostile clients from exhausting the service: header sizes and counts, body
size, and slow clients (slowloris: hundreds of connections dribbling a request) — while they
are at it, ordinary requests are still answered promptly, and the relay survives.

Knob: SLOW_CLIENTS (default 300).
"""

import json
import os
import socket
import time

import requests

from fuzz_support import API_TOKEN

SLOW_CLIENTS = int(os.environ.get("SLOW_CLIENTS", "300"))


def address(relay):
    host, port = relay.url.split("//")[1].split(":")
    return host, int(port)


def raw_request(relay, data: bytes) -> bytes:
    with socket.create_connection(address(relay), timeout=10) as s:
        s.sendall(data)
        chunks = []
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except (ConnectionResetError, socket.timeout):
            pass
        return b"".join(chunks)


def healthy(relay):
    return requests.get(f"{relay.url}/health", timeout=5).status_code == 200


def test_oversized_and_too_many_headers_are_refused(relay):
    big = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (100 * 1024) + b"\r\n\r\n"
    many = b"GET /health HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(500)) + b"\r\n"
    for data in (big, many):
        answer = raw_request(relay, data)
        assert answer == b"" or answer.split(b" ")[1] in (b"400", b"431"), answer[:100]
    assert healthy(relay)


def test_a_body_over_the_limit_is_413_with_a_sendbird_error(relay):
    r = requests.put(f"{relay.url}/v3/users/u1/push_preference", headers={"Api-Token": API_TOKEN},
                     data=b"{" + b" " * (2 * 1024 * 1024) + b"}", timeout=30)
    assert r.status_code == 413
    body = r.json()
    assert body["error"] is True and isinstance(body["code"], int) and body["message"]
    assert healthy(relay)


def test_slow_clients_do_not_starve_the_others(relay):
    slow = []
    try:
        for _ in range(SLOW_CLIENTS):
            s = socket.create_connection(address(relay), timeout=10)
            s.sendall(b"POST /webhooks/sendbird HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n")
            slow.append(s)
        # Keep them dribbling while ordinary clients are served.
        latencies = []
        for round_ in range(20):
            for s in slow[round_ % 10::10]:
                try:
                    s.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    pass
            started = time.monotonic()
            r = requests.get(f"{relay.url}/v3/users/u1/push_preference", headers={"Api-Token": API_TOKEN}, timeout=10)
            latencies.append(time.monotonic() - started)
            assert r.status_code in (200, 400), r.text
        latencies.sort()
        print(f"\nlimits: {SLOW_CLIENTS} slow clients held open; ordinary requests p50 "
              f"{latencies[len(latencies) // 2] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
        assert latencies[-1] < 2.0
    finally:
        for s in slow:
            s.close()
    assert healthy(relay)
    assert relay.process.poll() is None
