"""Slow clients: trickled heads and trickled bodies cannot lock out Sendbird's webhook calls.
The real `push-relay serve` (a small http.max_connections and short header/body deadlines) and
`apns-mock`.

1. Deadlines: fewer slow clients than the cap (nothing is shed), each trickling a byte at a
   time, half of them a request head and half a body behind a well-formed, signed-looking
   webhook head. Every one is answered 408 and closed by its deadline — never before it, and
   within it plus a margin that only bounds a failure — although bytes keep arriving.
2. A flood: SLOW_FACTOR times max_connections slow clients of both kinds, each coming back a
   second after the relay closes it, so the relay sits at its cap, shedding, throughout.
   Meanwhile a well-behaved client's signed webhooks, each on a new connection and spread over
   the flood, are all answered 200 and their pushes reach the mock; the relay's descriptors
   stay below max_connections plus a fixed margin; no slow connection outlives its deadline by
   more than the margin; and the relay's log has no error line per aborted request, only the
   throttled info line (at most one per 10 s).

The pauses (a byte every 0.25 s; back a second after being closed) are how these clients
behave, not a load to keep up: on a slower machine they only weigh more lightly. The margins
bound failures only.

Knobs: SLOW_MAX_CONNECTIONS (64), SLOW_FACTOR (6), SLOW_WEBHOOKS (20), SLOW_HEADER_TIMEOUT (2),
SLOW_BODY_TIMEOUT (3) and SLOW_RECONNECT (1) seconds.
"""

import collections
import errno
import os
import random
import re
import resource
import selectors
import socket
import threading
import time

import pytest
import requests

from cluster import MOCK_BIN, RELAY_BIN, Cluster, post_signed_event

MAX_CONNECTIONS = int(os.environ.get("SLOW_MAX_CONNECTIONS", "64"))
FACTOR = int(os.environ.get("SLOW_FACTOR", "6"))
WEBHOOKS = int(os.environ.get("SLOW_WEBHOOKS", "20"))
HEADER_TIMEOUT = float(os.environ.get("SLOW_HEADER_TIMEOUT", "2"))
BODY_TIMEOUT = float(os.environ.get("SLOW_BODY_TIMEOUT", "3"))
# Bounds a failure only: a deadline missed by this much is a deadline not enforced.
MARGIN = 30.0
# Sockets the relay may hold beyond max_connections (ConnectionGate.inTransit).
IN_TRANSIT = 64
# Between two bytes of one slow client: far below either deadline, so only the deadline (or
# shedding) can end it.
PAUSE = 0.25
# A slow client the relay closed comes back this much later (knob: SLOW_RECONNECT). Reconnecting
# at once would make a connection flood of it: on a two-core machine its client alone takes a
# core, and the test would measure how the scheduler shares the other between the relay's loops.
RECONNECT = float(os.environ.get("SLOW_RECONNECT", "1"))

HEAD = b"POST /webhooks/sendbird HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\n"
# Well-formed, with a signature header of the right shape: the relay reads the body before it
# can check the signature.
SIGNED_HEAD = HEAD + b"x-sendbird-signature: " + b"0" * 64 + b"\r\nContent-Length: 60000\r\n\r\n"


def open_descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def address(url: str):
    host, port = url.split("//")[1].split(":")
    return host, int(port)


class SlowClient:
    """One socket trickling a request: `head` sends a head a byte at a time and never ends it;
    `body` sends a whole signed-looking webhook head at once, then its body a byte at a time."""

    def __init__(self, target, kind: str):
        self.kind = kind
        self.opened = time.monotonic()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.sock.connect_ex(target)
        self.burst = SIGNED_HEAD if kind == "body" else b""  # sent as fast as the socket takes it
        self.drip = b"{" if kind == "body" else HEAD + b"X-Slow: "  # then a byte a pause, then "a"s
        self.dripped = 0
        self.next_at = self.opened
        self.received = b""

    def trickle(self, now: float):
        """Sends what is due; False once the relay has closed the connection."""
        if now < self.next_at:
            return True
        try:
            if self.burst:
                self.burst = self.burst[self.sock.send(self.burst):]
                if self.burst:
                    return True
            else:
                self.sock.send(self.drip[self.dripped:self.dripped + 1] or b"a")
                self.dripped += 1
        except (BlockingIOError, InterruptedError):
            return True  # still connecting, or the relay's buffer is full: try again later
        except OSError as error:
            return error.errno == errno.ENOTCONN
        self.next_at = now + PAUSE
        return True

    def read(self):
        """Reads what the relay sent; False once it closed the connection (EOF or reset)."""
        try:
            data = self.sock.recv(4096)
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:
            return False
        self.received += data
        return bool(data)

    def drain(self):
        """Reads what is left: a send can fail on the reset that follows the relay's answer
        before the answer itself was read."""
        try:
            while data := self.sock.recv(4096):
                self.received += data
        except OSError:
            pass

    @property
    def answered_408(self) -> bool:
        return self.received.startswith(b"HTTP/1.1 408 ")

    def close(self):
        self.sock.close()


class SlowClients:
    """`count` slow clients, half of each kind, on one thread; each one the relay closes is
    recorded (kind, lifetime, answered 408) and, with `reconnect`, replaced at once."""

    def __init__(self, target, count: int, reconnect: bool):
        self.target = target
        self.count = count
        self.reconnect = reconnect
        self.closed = []  # (kind, seconds open, answered 408)
        self.opened = 0
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.error = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def finish(self):
        self.stop.set()
        self.thread.join(timeout=60)
        assert not self.thread.is_alive(), "the slow clients did not stop"
        assert self.error is None, self.error

    def closed_so_far(self):
        with self.lock:
            return list(self.closed)

    def _open(self, selector, index: int):
        client = SlowClient(self.target, "head" if index % 2 else "body")
        selector.register(client.sock, selectors.EVENT_READ, (index, client))
        with self.lock:
            self.opened += 1
        return client

    def _run(self):
        selector = selectors.DefaultSelector()
        clients = {}
        waiting = collections.deque()  # (when, index) of clients to reconnect, in time order
        try:
            for index in range(self.count):
                clients[index] = self._open(selector, index)
            while not self.stop.is_set() and (clients or waiting):
                now = time.monotonic()
                gone = [i for i, c in clients.items() if not c.trickle(now)]
                for key, _ in selector.select(timeout=0.05):
                    index, client = key.data
                    if not client.read() and index not in gone:
                        gone.append(index)
                for index in gone:
                    client = clients.pop(index)
                    client.drain()
                    selector.unregister(client.sock)
                    client.close()
                    with self.lock:
                        self.closed.append((client.kind, time.monotonic() - client.opened, client.answered_408))
                    if self.reconnect:
                        waiting.append((now + RECONNECT, index))
                while waiting and waiting[0][0] <= now:
                    _, index = waiting.popleft()
                    clients[index] = self._open(selector, index)
        except Exception as error:  # surfaced by finish()
            self.error = repr(error)
        finally:
            for client in clients.values():
                client.close()
            selector.close()


@pytest.fixture
def cluster(tmp_path):
    if not RELAY_BIN.exists() or not MOCK_BIN.exists():
        pytest.skip("build first (scripts/test does)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = FACTOR * MAX_CONNECTIONS + 512
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))
    cluster = Cluster(tmp_path, log_level="info", extra_config=(
        f"http: {{max_connections: {MAX_CONNECTIONS}, header_timeout: {HEADER_TIMEOUT:g}s, "
        f"body_timeout: {BODY_TIMEOUT:g}s}}\n"))
    try:
        yield cluster
    finally:
        cluster.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))




def metric(text: str, name: str, label: str) -> float:
    match = re.search(rf'^{name}\{{{label}\}} ([0-9.e+]+)$', text, re.MULTILINE)
    return float(match.group(1)) if match else 0.0


def test_trickled_heads_and_bodies_are_answered_408_at_their_deadlines(cluster):
    count = MAX_CONNECTIONS // 2
    slow = SlowClients(address(cluster.url), count, reconnect=False).start()
    deadline = time.monotonic() + max(HEADER_TIMEOUT, BODY_TIMEOUT) + MARGIN
    while len(slow.closed_so_far()) < count:
        assert time.monotonic() < deadline, f"only {len(slow.closed_so_far())} of {count} slow clients were closed"
        time.sleep(0.1)
    slow.finish()
    closed = slow.closed_so_far()
    for kind, plural, timeout in (("head", "heads", HEADER_TIMEOUT), ("body", "bodies", BODY_TIMEOUT)):
        lifetimes = sorted(seconds for k, seconds, _ in closed if k == kind)
        answered = sum(1 for k, _, ok in closed if k == kind and ok)
        assert len(lifetimes) == count // 2
        # The deadline runs from the accept, which follows the connect: never earlier.
        assert lifetimes[0] >= timeout - 0.05, f"a trickled {kind} was closed after {lifetimes[0]:.2f} s"
        assert lifetimes[-1] <= timeout + MARGIN
        assert answered == count // 2, f"{answered} of {count // 2} trickled {plural} were answered 408"
        print(f"\nslow clients: {count // 2} trickled {plural} (a byte every {PAUSE} s) all answered 408 and closed "
              f"{lifetimes[0]:.2f}-{lifetimes[-1]:.2f} s after connecting ({kind} deadline {timeout:g} s)")
    assert requests.get(f"{cluster.url}/health", timeout=10).status_code == 200


def test_a_flood_of_slow_clients_cannot_lock_out_webhooks(cluster):
    relay_pid = cluster.relay.pid
    rng = random.Random(7)
    cluster.register_users()
    # Steady state: one event through, so the APNs connection and SQLite readers are open.
    status, text, _, tokens = post_signed_event(cluster.url, 1, rng)
    assert status == 200, text
    want = {(1, t) for t in tokens}
    baseline = open_descriptors(relay_pid)
    log = cluster.workdir / "relay.log"
    log_before = len(log.read_bytes())

    peak = {"fds": baseline}
    stop = threading.Event()

    def watch_descriptors():
        while not stop.is_set():
            peak["fds"] = max(peak["fds"], open_descriptors(relay_pid))
            stop.wait(0.02)

    watcher = threading.Thread(target=watch_descriptors, daemon=True)
    watcher.start()
    slow = SlowClients(address(cluster.url), FACTOR * MAX_CONNECTIONS, reconnect=True).start()
    started = time.monotonic()
    try:
        # The relay is at its cap and shedding before the first webhook.
        deadline = time.monotonic() + MARGIN
        while len(slow.closed_so_far()) < 2 * MAX_CONNECTIONS:
            assert time.monotonic() < deadline, "the slow clients never filled the relay"
            time.sleep(0.05)
        # The webhooks are spread over twice the longest deadline, so they meet every stage of
        # the flood; a slower machine only stretches it.
        spread = 2 * max(HEADER_TIMEOUT, BODY_TIMEOUT) / WEBHOOKS
        latencies = []
        first_at = time.monotonic()
        for n, message_id in enumerate(range(2, 2 + WEBHOOKS)):
            status, text, latency, tokens = post_signed_event(cluster.url, message_id, rng)
            assert status == 200, f"event {message_id}: {status} {text}"
            latencies.append(latency)
            want |= {(message_id, t) for t in tokens}
            time.sleep(max(0.0, first_at + (n + 1) * spread - time.monotonic()))
        slow_opened = slow.opened
    finally:
        slow.finish()
        stop.set()
        watcher.join(timeout=30)
    flood_seconds = time.monotonic() - started

    assert cluster.wait_delivered(want, deadline_s=60), "pushes of answered events never reached the mock"
    closed = slow.closed_so_far()
    longest = max(seconds for _, seconds, _ in closed)
    assert longest <= max(HEADER_TIMEOUT, BODY_TIMEOUT) + MARGIN, f"a slow client stayed {longest:.1f} s"
    limit = baseline + MAX_CONNECTIONS + IN_TRANSIT + 32
    assert peak["fds"] <= limit, f"{peak['fds']} descriptors open (baseline {baseline}, limit {limit})"
    assert cluster.relay.poll() is None

    metrics = requests.get(f"{cluster.url}/metrics", timeout=10).text
    shed_receiving = metric(metrics, "pushrelay_http_connections_limited_total", 'action="closed_receiving"')
    timeouts = sum(metric(metrics, "pushrelay_http_request_timeouts_total", f'stage="{s}"') for s in ("header", "body"))
    assert shed_receiving > 0, "no connection sending its request was shed at the cap"

    # No error line per aborted request; the throttled line says how many it held back.
    added = log.read_bytes()[log_before:].decode(errors="replace").splitlines()
    errors = [line for line in added if " error " in line or "request failed" in line]
    assert not errors, errors[:3]
    aborted = [line for line in added if "request not received in full" in line]
    assert len(aborted) <= flood_seconds / 10 + 2, f"{len(aborted)} aborted-request lines in {flood_seconds:.0f} s"

    latencies.sort()
    print(f"\nslow clients: {FACTOR * MAX_CONNECTIONS} slow clients at max_connections {MAX_CONNECTIONS} for "
          f"{flood_seconds:.1f} s ({slow_opened} connections, {len(closed)} closed by the relay: "
          f"{sum(1 for c in closed if c[2])} with 408, longest {longest:.1f} s; {shed_receiving:.0f} shed while "
          f"sending, {timeouts:.0f} past a deadline); {WEBHOOKS} webhooks on new connections all 200, p50 "
          f"{latencies[len(latencies) // 2] * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms; {len(want)} pushes "
          f"at the mock; relay descriptors {baseline} before, peak {peak['fds']}; {len(aborted)} aborted-request "
          f"log lines")
