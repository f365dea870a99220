"""Clients that never read: the real `push-relay serve` (a small http.max_connections, a short
http.send_timeout) and `apns-mock`. Twice max_connections clients each pipeline requests for the
70 KB OpenAPI document and never read a byte of the answers; one the relay closes comes back at
once. Throughout, a well-behaved client's signed webhooks, each on a new connection, are answered
200 within a few seconds (their pushes reach the mock), and /health answers too: a connection
whose client does not read its answers is closed at the send timeout, and at the cap the one not
reading the longest makes room for a new one.

Before, a connection whose request had been read counted as busy, had no write deadline and was
never chosen to make room: such clients kept every new connection out, webhooks included.

The attackers pace themselves (a pass over their sockets every 50 ms) and the bounds only bound a
failure: on a slower machine the flood weighs less, it does not fail the test.
"""

import errno
import os
import random
import socket
import threading
import time

import pytest
import requests

from cluster import MOCK_BIN, RELAY_BIN, Cluster, post_signed_event

MAX_CONNECTIONS = 32
ATTACKERS = int(os.environ.get("NONREADING_ATTACKERS", str(2 * MAX_CONNECTIONS)))
SEND_TIMEOUT = 2
DURATION = float(os.environ.get("NONREADING_DURATION", "20"))
# A webhook kept waiting this long was kept out: "a few seconds".
KEPT_OUT = 5.0
PIPELINED = b"GET /openapi.yaml HTTP/1.1\r\nHost: relay\r\n\r\n" * 64


def address(url: str):
    host, port = url.split("//")[1].split(":")
    return host, int(port)


class NonReaders:
    """`count` sockets that send pipelined requests and never read, each reopened when closed."""

    def __init__(self, target, count: int):
        self.target = target
        self.count = count
        self.stop = threading.Event()
        self.reopened = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # A small receive window: the relay's answers back up at once.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        sock.connect_ex(self.target)
        return sock

    def _run(self):
        sockets = [self._open() for _ in range(self.count)]
        while not self.stop.is_set():
            for index, sock in enumerate(sockets):
                try:
                    sock.send(PIPELINED)
                except (BlockingIOError, InterruptedError):
                    continue  # connecting, or the relay stopped reading: still held
                except OSError as error:
                    if error.errno in (errno.ENOTCONN,):
                        continue
                    sock.close()  # closed by the relay: come back at once
                    sockets[index] = self._open()
                    self.reopened += 1
            time.sleep(0.05)
        for sock in sockets:
            sock.close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=30)


def until_answered(attempt):
    """Like Sendbird (and any HTTP client pool): a request whose connection was closed before an
    answer is sent again at once. Returns (the response, seconds from the first try, tries)."""
    began, tries = time.monotonic(), 0
    while True:
        tries += 1
        try:
            return attempt(), time.monotonic() - began, tries
        except requests.ConnectionError:
            if time.monotonic() - began > 60:
                raise


def metric_sum(text: str, name: str, **labels) -> float:
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + "{") and all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


@pytest.mark.skipif(not (RELAY_BIN.exists() and MOCK_BIN.exists()), reason="build first (scripts/test does)")
def test_clients_that_never_read_cannot_keep_webhooks_out(tmp_path):
    cluster = Cluster(tmp_path, extra_config=f"http: {{max_connections: {MAX_CONNECTIONS}, send_timeout: {SEND_TIMEOUT}s}}\n")
    try:
        cluster.register_users()
        latencies, want, retries = [], set(), 0
        with NonReaders(address(cluster.url), ATTACKERS) as attackers:
            time.sleep(1)  # the flood is at the cap
            message_id = 8_000_000
            ends = time.monotonic() + DURATION
            while time.monotonic() < ends:
                # A retry sends the same body (its members drawn from the message id): the relay
                # may have taken the first before its connection was closed, and then answers the
                # retry as a duplicate, pushing to the first body's members.
                (status, text, _, tokens), latency, tries = until_answered(
                    lambda: post_signed_event(cluster.url, message_id, random.Random(message_id), timeout=30))
                assert status == 200, text
                latencies.append(latency)
                retries += tries - 1
                want |= {(message_id, t) for t in tokens}
                message_id += 1
                health, latency, tries = until_answered(lambda: requests.get(f"{cluster.url}/health", timeout=30))
                assert health.status_code == 200
                latencies.append(latency)
                retries += tries - 1
            reopened = attackers.reopened
        metrics = requests.get(f"{cluster.url}/metrics", timeout=10).text
        shed = metric_sum(metrics, "pushrelay_http_connections_limited_total", action="closed_not_reading")
        timed_out = metric_sum(metrics, "pushrelay_http_request_timeouts_total", stage="send")
        latencies.sort()
        print(f"\nnon-reading clients: {len(latencies)} webhooks answered 200 while {ATTACKERS} clients never read "
              f"(reconnected {reopened} times); {retries} sent again after their connection was closed; latency median {latencies[len(latencies) // 2]:.3f} s, "
              f"max {latencies[-1]:.3f} s; closed at the cap {shed:.0f}, at the send timeout {timed_out:.0f}")
        assert latencies[-1] < KEPT_OUT, latencies[-5:]
        assert shed + timed_out > 0, "the flood never reached the relay's limits"
        assert cluster.wait_delivered(want, deadline_s=120), f"never delivered: {sorted(want - cluster.delivered())[:10]}"
    finally:
        cluster.stop()
