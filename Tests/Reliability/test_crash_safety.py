"""Crash safety: the real `push-relay serve` against `apns-mock` (validating, recording), a stream
of signed webhook events with fan-out, and SIGKILL at random moments with a restart after each.

Passes when every event answered 200 (or `duplicate`, which means an earlier attempt committed)
has every expected push recorded by the mock, the SQLite file passes `PRAGMA integrity_check`
after every kill, and duplicate pushes (same apns-id twice) stay within what can be in flight
at a kill. The figures are printed (`pytest -s`, or scripts/crash-test.sh for a long run).

Knobs (environment): CRASH_EVENTS (default 3000), CRASH_KILLS (10), CRASH_FANOUT (5),
CRASH_SENDERS (4), CRASH_SEED.
"""

import base64
import hashlib
import hmac
import json
import os
import random
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
RELAY_BIN = Path(os.environ.get("PUSH_RELAY_BINARY", ROOT / ".build" / "debug" / "push-relay"))
MOCK_BIN = Path(os.environ.get("APNS_MOCK_BINARY", ROOT / ".build" / "debug" / "apns-mock"))
CERTS = ROOT / "certs" / "dev"

EVENTS = int(os.environ.get("CRASH_EVENTS", "3000"))
KILLS = int(os.environ.get("CRASH_KILLS", "10"))
FANOUT = int(os.environ.get("CRASH_FANOUT", "5"))
SENDERS = int(os.environ.get("CRASH_SENDERS", "4"))
SEED = int(os.environ.get("CRASH_SEED", str(int(time.time()))))
USERS = 40
APP_ID = "crash-app"
API_TOKEN = "crash-token-0123456789abcdef0123456789abcdef"
# What can be in flight at a kill: the dispatcher's window of claimed sends plus as many handed
# over by the webhook (DispatcherConfiguration's default window is 2,000).
WINDOW = 4000


def start_and_wait(args, log_path, marker, deadline_s=60):
    """Starts a process and returns (process, the line containing `marker`)."""
    log = open(log_path, "ab")
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, cwd=ROOT)
    deadline = time.monotonic() + deadline_s
    result = {}

    def pump():
        for raw in process.stdout:
            line = raw.decode(errors="replace")
            log.write(raw)
            log.flush()
            if marker in line and "line" not in result:
                result["line"] = line
        log.close()

    threading.Thread(target=pump, daemon=True).start()
    while "line" not in result:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"{args[0]} did not start: see {log_path}")
        time.sleep(0.01)
    return process, result["line"]


def signed(body: bytes):
    return hmac.new(API_TOKEN.encode(), body, hashlib.sha256).hexdigest()


def token_for(user: int) -> str:
    return f"{user + 1:064x}"


def event_body(message_id: int, rng: random.Random) -> bytes:
    users = rng.sample(range(USERS), FANOUT + 1)
    sender, offline = users[0], users[1:]
    members = [{"user_id": f"u{sender}", "nickname": "sender", "is_online": True, "state": "joined"}]
    members += [{"user_id": f"u{u}", "nickname": f"n{u}", "is_online": False, "state": "joined",
                 "total_unread_message_count": 1} for u in offline]
    event = {"category": "group_channel:message_send", "app_id": APP_ID, "type": "MESG",
             "sender": {"user_id": f"u{sender}", "nickname": "Sender"}, "members": members,
             "payload": {"message_id": message_id, "created_at": 1700000000000, "message": f"crash test {message_id}"},
             "channel": {"channel_url": f"ch-{sender}", "name": "Crash"}}
    return json.dumps(event, separators=(",", ":")).encode(), {token_for(u) for u in offline}


class Cluster:
    """apns-mock plus a restartable relay on one database."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.record = workdir / "pushes.jsonl"
        self.database = workdir / "relay.sqlite"
        self.mock, line = start_and_wait(
            [str(MOCK_BIN), "--port", "0", "--team-id", "DEVTEAM123", "--record", str(self.record),
             "--cert", str(CERTS / "server.pem"), "--key", str(CERTS / "server.key"),
             "--jwt-key", f"DEVKEY1234={CERTS / 'AuthKey_DEVKEY1234.pub.pem'}", "--log-level", "warning"],
            workdir / "mock.log", "listening on")
        mock_url = line.split("listening on ")[1].split()[0]
        self.config = workdir / "relay.yaml"
        self.config.write_text(
            "listen: {host: 127.0.0.1, port: 0}\n"
            f"database: {{path: {self.database}}}\n"
            "log_level: warning\n"
            "apps:\n"
            f"  - app_id: {APP_ID}\n"
            f"    api_token: {API_TOKEN}\n"
            "    apns:\n"
            "      topic: com.example.crash\n"
            f"      environment: {{url: \"{mock_url}\", ca_file: {CERTS / 'ca.pem'}}}\n"
            f"      auth: {{token: {{key_file: {CERTS / 'AuthKey_DEVKEY1234.p8'}, key_id: DEVKEY1234, team_id: DEVTEAM123}}}}\n")
        self.relay = None
        self.url = None
        self.lock = threading.Lock()
        self.up = threading.Event()
        self.start_relay()

    def start_relay(self):
        process, line = start_and_wait([str(RELAY_BIN), "serve", "--config", str(self.config)],
                                       self.workdir / "relay.log", "listening on")
        with self.lock:
            self.relay = process
            self.url = line.split("listening on ")[1].split()[0]
        self.up.set()

    def kill_relay(self):
        self.up.clear()
        self.relay.send_signal(signal.SIGKILL)
        self.relay.wait()

    def integrity(self) -> str:
        connection = sqlite3.connect(self.database)
        try:
            return connection.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            connection.close()

    def recorded(self):
        records = []
        if self.record.exists():
            lines = self.record.read_text().splitlines()
            for number, line in enumerate(lines):
                if not line.strip():
                    continue
                try:
                    records.append(json.loads(line))
                except ValueError:
                    if number != len(lines) - 1:
                        raise
                    # The mock is still writing its last line; the next poll reads it whole.
        return records

    def stop(self):
        for process in (self.relay, self.mock):
            if process and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()


def payload_message_id(record):
    # The mock records the body as it arrived: a JSON text (older versions: base64).
    raw = record["payload"]
    try:
        body = json.loads(raw)
    except ValueError:
        body = json.loads(base64.b64decode(raw))
    return body["sendbird"]["message_id"]


@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_sigkill_at_random_moments_loses_no_accepted_push(tmp_path):
    rng = random.Random(SEED)
    cluster = Cluster(tmp_path)
    try:
        session = requests.Session()
        for user in range(USERS):
            r = session.post(f"{cluster.url}/v3/users/u{user}/push/apns", headers={"Api-Token": API_TOKEN},
                             json={"apns_device_token": token_for(user)}, timeout=10)
            assert r.status_code == 200, r.text

        bodies = [event_body(1_000_000 + i, rng) for i in range(EVENTS)]
        expected = {}           # message id -> tokens, for events the relay answered 200
        answers = {"accepted": 0, "duplicate": 0, "retried": 0}
        next_index = [0]
        failures = []
        state_lock = threading.Lock()

        def sender():
            http = requests.Session()
            while True:
                with state_lock:
                    index = next_index[0]
                    next_index[0] += 1
                if index >= EVENTS:
                    return
                body, tokens = bodies[index]
                message_id = 1_000_000 + index
                while True:  # like Sendbird: retry until answered
                    cluster.up.wait(60)
                    with cluster.lock:
                        url = cluster.url
                    try:
                        r = http.post(f"{url}/webhooks/sendbird", data=body, timeout=10,
                                      headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})
                    except requests.RequestException:
                        with state_lock:
                            answers["retried"] += 1
                        time.sleep(0.05)
                        continue
                    if r.status_code != 200:
                        failures.append((message_id, r.status_code, r.text))
                        return
                    result = r.json()
                    with state_lock:
                        answers[result["result"]] += 1
                        expected[message_id] = tokens
                    if result["result"] == "accepted" and result["deliveries"] != len(tokens):
                        failures.append((message_id, "deliveries", result))
                    break

        threads = [threading.Thread(target=sender) for _ in range(SENDERS)]
        for t in threads:
            t.start()

        # Kills land while events stream in (the stream is sized to outlast them); any left after
        # the stream ends still hit deliveries in flight.
        kills = []
        integrity = []
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.1, 0.6))
            streaming = any(t.is_alive() for t in threads)
            cluster.kill_relay()
            integrity.append(cluster.integrity())
            kills.append(streaming)
            cluster.start_relay()
        for t in threads:
            t.join(timeout=600)
        assert not failures, failures[:5]
        assert len(kills) >= KILLS
        assert all(result == "ok" for result in integrity), integrity

        # Everything answered 200 must reach APNs, however often the relay died.
        want = {(m, t) for m, tokens in expected.items() for t in tokens}
        deadline = time.monotonic() + 180
        while True:
            records = cluster.recorded()
            got = {(payload_message_id(r), r["deviceToken"]) for r in records}
            missing = want - got
            if not missing or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        apns_ids = [r["headers"].get("apns-id") for r in records]
        duplicates = len(apns_ids) - len(set(apns_ids))
        print(f"\ncrash-safety: seed {SEED}, {len(kills)} SIGKILLs ({sum(kills)} while events streamed in), {len(expected)} events answered 200 "
              f"({answers['accepted']} accepted, {answers['duplicate']} duplicate after a lost answer, "
              f"{answers['retried']} retried sends), {len(want)} pushes expected, {len(got & want)} recorded, "
              f"{len(missing)} missing, {duplicates} duplicates (bound {len(kills) * WINDOW}), "
              f"integrity_check ok after every kill")
        assert not missing, f"{len(missing)} accepted pushes never reached APNs, e.g. {sorted(missing)[:5]}"
        assert duplicates <= len(kills) * WINDOW
        assert cluster.integrity() == "ok"
    finally:
        cluster.stop()
