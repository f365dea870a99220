"""Connections and descriptors: thousands of idle clients cannot lock out Sendbird's webhook
calls or starve the relay of descriptors. The real `push-relay serve` (http.max_connections
capped) and `apns-mock`; IDLE_CLIENTS sockets are connected and held open — half send nothing,
half send half a request head, like keep-alive leftovers and a slowloris — while fresh idle
ones keep arriving. Meanwhile signed webhook events, each on a NEW connection, must all be
answered 200 in time and their pushes must reach the mock; the relay's open descriptors stay
below max_connections plus a fixed margin, and it raised its own soft RLIMIT_NOFILE to fit.

Knobs: IDLE_CLIENTS (default 5000), MAX_CONNECTIONS (default 1000), WEBHOOKS (default 60).
"""

import os
import random
import resource
import socket
import threading
import time
from pathlib import Path

import pytest
import requests

from cluster import MOCK_BIN, RELAY_BIN, Cluster, payload_message_id, post_signed_event

IDLE_CLIENTS = int(os.environ.get("IDLE_CLIENTS", "5000"))
MAX_CONNECTIONS = int(os.environ.get("MAX_CONNECTIONS", "1000"))
WEBHOOKS = int(os.environ.get("WEBHOOKS", "60"))
# Sockets the relay may hold beyond max_connections: accepted and not yet admitted, or being
# closed (ConnectionGate.inTransit); its listener pauses beyond that.
IN_TRANSIT = 64
# What DescriptorBudget reserves for everything else (SQLite, APNs, event loops, margin).
RESERVE = 256
HALF_REQUEST = b"POST /webhooks/sendbird HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\n"


def open_descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def soft_nofile(pid: int) -> int:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError("no Max open files line")


def address(url: str):
    host, port = url.split("//")[1].split(":")
    return host, int(port)


def accept_queue(port: int) -> int:
    """Connections waiting in the relay's listen backlog (not accepted yet): the receive queue
    of the listening socket in /proc/net/tcp."""
    local = f"0100007F:{port:04X}"
    with open("/proc/net/tcp") as table:
        for line in table:
            fields = line.split()
            if fields[1] == local and fields[3] == "0A":  # 0A: LISTEN
                return int(fields[4].split(":")[1], 16)
    return 0


class IdleClients:
    """Plain sockets that connect and then send nothing (or half a head), held open. No fixed
    rate: connecting pauses while more than 8 connections wait in the relay's listen backlog
    (a full backlog drops SYNs, which clients retry only after a second: that would measure the
    kernel's retry timer, not the relay; and a webhook's connection waits behind those queued)."""

    def __init__(self, target):
        self.target = target
        self.sockets = []
        self.connected = 0

    def connect_one(self):
        if self.connected % 4 == 0:
            deadline = time.monotonic() + 30
            while accept_queue(self.target[1]) > 8:
                assert time.monotonic() < deadline, "the relay stopped accepting connections"
                time.sleep(0.002)
        s = socket.create_connection(self.target, timeout=30)
        if self.connected % 2:
            s.sendall(HALF_REQUEST)
        s.setblocking(False)
        self.sockets.append(s)
        self.connected += 1

    def connect(self, count: int):
        for _ in range(count):
            self.connect_one()

    def closed_by_relay(self) -> int:
        """How many of the held sockets the relay has closed (EOF or reset)."""
        closed = 0
        for s in self.sockets:
            try:
                if s.recv(1, socket.MSG_PEEK) == b"":
                    closed += 1
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        return closed

    def close(self):
        for s in self.sockets:
            s.close()
        self.sockets.clear()


@pytest.fixture
def cluster(tmp_path):
    if not RELAY_BIN.exists() or not MOCK_BIN.exists():
        pytest.skip("build first (scripts/test does)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = IDLE_CLIENTS + 2 * MAX_CONNECTIONS + 1000
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"RLIMIT_NOFILE hard limit {hard} is below the {needed} this test needs")
    # The relay starts with systemd's default soft limit (1024, below what max_connections
    # needs) and must raise it itself; this process then raises its own for the idle clients.
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 1024), hard))
    try:
        cluster = Cluster(tmp_path, extra_config=f"http: {{max_connections: {MAX_CONNECTIONS}}}\n")
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, needed), hard))
    try:
        yield cluster
    finally:
        cluster.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))




def test_idle_clients_cannot_lock_out_webhooks_or_exhaust_descriptors(cluster):
    relay_pid = cluster.relay.pid
    target = address(cluster.url)
    rng = random.Random(4)
    assert soft_nofile(relay_pid) >= MAX_CONNECTIONS + IN_TRANSIT + RESERVE, "the relay did not raise its descriptor limit"
    cluster.register_users()
    # Steady state: one event through, so the APNs connection and SQLite readers are open.
    status, text, _, tokens = post_signed_event(cluster.url, 1, rng)
    assert status == 200, text
    want = {(1, t) for t in tokens}
    baseline = open_descriptors(relay_pid)

    idle = IdleClients(target)
    churn = IdleClients(target)
    peak = {"fds": baseline}
    stop = threading.Event()
    errors = []

    def watch_descriptors():
        while not stop.is_set():
            peak["fds"] = max(peak["fds"], open_descriptors(relay_pid))
            stop.wait(0.02)

    def keep_arriving():
        # Fresh idle clients keep coming while the webhooks are served: each one arrives at the
        # cap, so the relay must keep choosing what to close.
        try:
            while not stop.is_set():
                churn.connect_one()
                if len(churn.sockets) > 500:
                    churn.sockets.pop(0).close()
        except OSError as error:
            errors.append(f"churn: {error}")

    watcher = threading.Thread(target=watch_descriptors, daemon=True)
    watcher.start()
    try:
        started = time.monotonic()
        idle.connect(IDLE_CLIENTS)
        connect_seconds = time.monotonic() - started
        assert cluster.relay.poll() is None

        arrivals = threading.Thread(target=keep_arriving, daemon=True)
        arrivals.start()
        latencies = []
        for message_id in range(2, 2 + WEBHOOKS):
            status, text, latency, tokens = post_signed_event(cluster.url, message_id, rng)
            assert status == 200, f"event {message_id}: {status} {text}"
            assert latency < 5, f"event {message_id} answered after {latency:.1f} s, beyond Sendbird's 5 s"
            latencies.append(latency)
            want |= {(message_id, t) for t in tokens}
        arrived_during = churn.connected
        stop.set()
        arrivals.join(timeout=30)
        watcher.join(timeout=30)
        assert not errors, errors

        # Every push of every answered event reaches the mock.
        deadline = time.monotonic() + 30
        while True:
            got = {(payload_message_id(r), r["deviceToken"]) for r in cluster.recorded()}
            if want <= got:
                break
            assert time.monotonic() < deadline, f"{len(want - got)} of {len(want)} pushes never reached the mock"
            time.sleep(0.1)

        # The relay closed the surplus idle connections rather than holding them.
        deadline = time.monotonic() + 30
        while (closed := idle.closed_by_relay()) < IDLE_CLIENTS - MAX_CONNECTIONS:
            assert time.monotonic() < deadline, f"only {closed} of {IDLE_CLIENTS} idle clients were closed"
            time.sleep(0.1)
        fds = open_descriptors(relay_pid)
        # Baseline (SQLite, APNs, event loops) + the HTTP sockets, + 32 for SQLite readers or an
        # APNs reconnect opened meanwhile.
        limit = baseline + MAX_CONNECTIONS + IN_TRANSIT + 32
        assert peak["fds"] <= limit, f"{peak['fds']} descriptors open (baseline {baseline}, limit {limit})"
        assert cluster.relay.poll() is None
        assert requests.get(f"{cluster.url}/health", timeout=10).status_code == 200

        latencies.sort()
        print(f"\nconnections: {IDLE_CLIENTS} idle clients connected in {connect_seconds:.1f} s and held open "
              f"(max_connections {MAX_CONNECTIONS}; {closed} closed by the relay, {arrived_during} more arrived "
              f"during the webhooks); {WEBHOOKS} webhooks on new connections all 200, p50 "
              f"{latencies[len(latencies) // 2] * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms; "
              f"{len(want)} pushes all at the mock; relay descriptors {baseline} before, peak {peak['fds']}, "
              f"{fds} after; soft RLIMIT_NOFILE raised to {soft_nofile(relay_pid)}")
    finally:
        stop.set()
        idle.close()
        churn.close()
