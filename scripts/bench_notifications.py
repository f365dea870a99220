#!/usr/bin/env python3
"""Notifications: the time to the last push of one `POST /v3/notifications` to a topic.

The real `push-relay serve` (release build) on a real database (SQLite with the default
`durability: full`, or PostgreSQL with fsync on) sends to the mocks: `apns-mock --mode sink`, and
for MIX=mixed also `fcm-mock` and `hms-mock` (which check each bearer token and message as Google
and Huawei do). Every subscriber holds one device token: MIX=apns, an APNs token each; MIX=mixed,
a third APNs, a third FCM, a third HMS (user u's provider is u % 3).

  1. Seeding, through the REST API as an app server would: one device token per user
     (`POST /v3/users/{user}/push/apns|gcm|huawei`) on PROCS x THREADS keep-alive connections
     (processes x threads, each its own http.client connection; the rate is printed), then topic
     `bench-<size>` for each size: users u0...u<size-1>, subscribed 10,000 ids a request. The
     app's `api_token_requests_per_second` is 0 (no limit), so the seeding is held only by the
     relay (about 1,000 registrations/s on 2 cores: a million takes 15-17 min). With KEEP=1 the
     work directory is kept, and a later run with the same WORK and MIX (STORE=sqlite) reuses its
     database, seeding only what is missing; WORK/seeded.sqlite is a copy of the store as seeded,
     and STORE=postgres SEED_FROM=<that copy> fills PostgreSQL from it with `push-relay
     migrate-store` (about 2 min for a million users) instead of the REST API.
  2. For each round and size (smallest first): the relay restarted (its peak RSS is then this
     notification's), `sync`, then `POST /v3/notifications {"topic": "bench-<size>", ...}`; the
     clock runs until the notification is `done` (every user planned: `GET /v3/notifications`
     every 0.05 s) and until the relay has counted every push sent (`pushrelay_pushes_total
     {status="sent"}` from `GET /metrics` every 0.05 s, about 2 % of a core), then until the
     delivery log says so too (`counts.sent` of `GET /v3/notifications/{id}`, every 0.5 s). The
     counts must say every user pushed and every push sent, by provider as the relay counted
     them, and apns-mock's `/stats` as many 200s as the relay sent to APNs.

The mocks record nothing (no `--record`; fcm-mock and hms-mock keep records in memory only with an
admin port, so they get none): at a million pushes recording would cost the mocks' CPU and memory
on the relay's two cores. APNS_MODE=validating runs apns-mock validating (it then keeps every
push in memory, and costs 5-6x the sink's CPU per push). PROBE=1 also posts a chat message (a
signed webhook event, one offline member with an APNs token) every second during the
notification and prints how the webhook answered and how long the accepted pushes waited.

    for p in push-relay apns-mock fcm-mock hms-mock; do swift build -c release --product $p; done
    python3 scripts/bench_notifications.py                                 # MIX=apns SIZES="10000 100000"
    WORK=/var/tmp/bn-apns KEEP=1 ROUNDS=3 ONCE=1000000 SIZES="10000 100000 1000000" \
      python3 scripts/bench_notifications.py                               # seeds 1M once, keeps it
    MIX=mixed WORK=/var/tmp/bn-mixed KEEP=1 ROUNDS=3 ONCE=1000000 SIZES="10000 100000 1000000" \
      python3 scripts/bench_notifications.py
    STORE=postgres SEED_FROM=/var/tmp/bn-apns/seeded.sqlite ROUNDS=3 ONCE=1000000 \
      SIZES="10000 100000 1000000" python3 scripts/bench_notifications.py  # needs Debian's postgresql

Knobs: SIZES, ROUNDS (1), ONCE (sizes measured in the first round only), MIX (apns | mixed),
STORE (sqlite | postgres), PROCS (4) and THREADS (8) for the seeding, TIMEOUT (3600 s a
notification), WORK, KEEP, SEED_FROM, APNS_MODE (sink | validating), PROBE, RELAY_BIN and
APNS_MOCK_BIN, FCM_MOCK_BIN, HMS_MOCK_BIN (default .build/release). Prints a line per run and, at
the end, a JSON line per run (with a sample a second: time, users planned, pushes sent, the
`pushrelay_queue_depth` gauge, RSS in MB).
"""

import hashlib
import hmac
import http.client
import json
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "PythonSupport"))
BUILD = ROOT / ".build" / "release"
RELAY_BIN = Path(os.environ.get("RELAY_BIN", BUILD / "push-relay"))
APNS_MOCK_BIN = Path(os.environ.get("APNS_MOCK_BIN", BUILD / "apns-mock"))
FCM_MOCK_BIN = Path(os.environ.get("FCM_MOCK_BIN", BUILD / "fcm-mock"))
HMS_MOCK_BIN = Path(os.environ.get("HMS_MOCK_BIN", BUILD / "hms-mock"))
CERTS = ROOT / "certs" / "dev"

SIZES = sorted(int(s) for s in os.environ.get("SIZES", "10000 100000").split())
ROUNDS = int(os.environ.get("ROUNDS", "1"))
ONCE = {int(s) for s in os.environ.get("ONCE", "").split()}   # sizes measured in the first round only
MIX = os.environ.get("MIX", "apns")
STORE = os.environ.get("STORE", "sqlite")
PROCS = int(os.environ.get("PROCS", "4"))
THREADS = int(os.environ.get("THREADS", "8"))
TIMEOUT = float(os.environ.get("TIMEOUT", "3600"))
APNS_MODE = os.environ.get("APNS_MODE", "sink")
KEEP = os.environ.get("KEEP") == "1"
SEED_FROM = os.environ.get("SEED_FROM")
PROBE = os.environ.get("PROBE") == "1"
POLL = 0.05

APP_ID = "bench-app"
API_TOKEN = "bench-token-0123456789abcdef0123456789abcdef"
HMS_APP_ID = "104783201"
HMS_CLIENT_SECRET = "bench-hms-client-secret-0123456789"
SUBSCRIBE_BATCH = 10_000


def user_id(u: int) -> str:
    return f"u{u}"


def provider_of(u: int) -> str:
    return "apns" if MIX == "apns" else ("apns", "fcm", "hms")[u % 3]


def registration(u: int):
    """(path, body) registering user u's one device token, as Sendbird's REST API takes it."""
    provider = provider_of(u)
    if provider == "apns":
        return f"/v3/users/{user_id(u)}/push/apns", {"apns_device_token": f"{u + 1:064x}"}
    if provider == "fcm":   # an FCM registration token's shape (Tests/Reliability/cluster.py)
        return f"/v3/users/{user_id(u)}/push/gcm", {"gcm_reg_token": f"bench{u:07d}:APA91b" + "Xy-_" * 35}
    return f"/v3/users/{user_id(u)}/push/huawei", {"huawei_device_token": f"IQAAAACy{u:07d}+hms/" + "Qa9_" * 30 + "=="}


# --- processes ---------------------------------------------------------------------------------

def start_and_wait(args, log_path, marker, deadline_s=120):
    """Starts a process; returns (process, the line of its stdout containing `marker`)."""
    log = open(log_path, "ab")
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, cwd=ROOT)
    found = {}

    def pump():
        for raw in process.stdout:
            log.write(raw)
            log.flush()
            line = raw.decode(errors="replace")
            if marker in line and "line" not in found:
                found["line"] = line

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + deadline_s
    while "line" not in found:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise SystemExit(f"{args[0]} did not start: see {log_path}")
        time.sleep(0.02)
    return process, found["line"]


def stop(process):
    if process and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def private_copy(source: Path, directory: Path) -> Path:
    directory.mkdir(mode=0o700, exist_ok=True)
    target = directory / source.name
    shutil.copyfile(source, target)
    os.chmod(target, 0o600)
    return target


def proc_status(pid: int, field: str) -> int:
    """A /proc/PID/status field in kB (VmRSS, VmHWM)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except FileNotFoundError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except FileNotFoundError:
        return 0.0


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class Rig:
    """The mocks, the database, and a restartable relay configured for them."""

    def __init__(self, work: Path):
        self.work = work
        self.relay = None
        self.mocks = []
        self.pg = None
        if APNS_MODE == "sink":
            apns_args = ["--mode", "sink"]
        else:
            apns_args = ["--team-id", "DEVTEAM123", "--jwt-key", f"DEVKEY1234={CERTS / 'AuthKey_DEVKEY1234.pub.pem'}"]
        mock, line = start_and_wait(
            [str(APNS_MOCK_BIN), "--port", "0", "--admin-port", "0", *apns_args,
             "--cert", str(CERTS / "server.pem"), "--key", str(CERTS / "server.key"), "--log-level", "warning"],
            work / "apns-mock.log", "listening on")
        self.mocks.append(("apns-mock", mock))
        apns_url = line.split("listening on ")[1].split()[0]
        self.apns_admin = line.split("admin on ")[1].split()[0]
        keys = work / "keys"
        providers = (
            "    apns:\n"
            "      topic: com.example.pushrelay\n"
            f"      environment: {{url: \"{apns_url}\", ca_file: {CERTS / 'ca.pem'}}}\n"
            f"      auth: {{token: {{key_file: {private_copy(CERTS / 'AuthKey_DEVKEY1234.p8', keys)}, "
            "key_id: DEVKEY1234, team_id: DEVTEAM123}}\n")
        if MIX == "mixed":
            fcm, line = start_and_wait(
                [str(FCM_MOCK_BIN), "--port", "0", "--cert", str(CERTS / "server.pem"), "--key", str(CERTS / "server.key"),
                 "--service-account", str(CERTS / "fcm-service-account.json"), "--log-level", "warning"],
                work / "fcm-mock.log", "listening on")
            self.mocks.append(("fcm-mock", fcm))
            fcm_url = line.split("listening on ")[1].split()[0]
            hms, line = start_and_wait(
                [str(HMS_MOCK_BIN), "--port", "0", "--cert", str(CERTS / "server.pem"), "--key", str(CERTS / "server.key"),
                 "--app-id", HMS_APP_ID, "--client-secret", HMS_CLIENT_SECRET, "--log-level", "warning"],
                work / "hms-mock.log", "listening on")
            self.mocks.append(("hms-mock", hms))
            hms_url = line.split("listening on ")[1].split()[0]
            secret = keys / "hms-client-secret"
            secret.write_text(HMS_CLIENT_SECRET)
            secret.chmod(0o600)
            providers += (
                "    fcm:\n"
                f"      service_account: {private_copy(CERTS / 'fcm-service-account.json', keys)}\n"
                f"      url: \"{fcm_url}\"\n"
                f"      token_url: \"{fcm_url}/token\"\n"
                f"      ca_file: {CERTS / 'ca.pem'}\n"
                "    hms:\n"
                f"      app_id: \"{HMS_APP_ID}\"\n"
                f"      client_secret: {{file: {secret}}}\n"
                f"      url: \"{hms_url}\"\n"
                f"      token_url: \"{hms_url}/oauth2/v3/token\"\n"
                f"      ca_file: {CERTS / 'ca.pem'}\n")
        if STORE == "postgres":
            import pgcluster  # noqa: E402  (Tests/PythonSupport)
            self.pg = pgcluster.Cluster(durable=True)
            url = self.pg.create_database()
            if SEED_FROM:
                started = time.monotonic()
                subprocess.run([str(RELAY_BIN), "migrate-store", "--from", f"sqlite:{SEED_FROM}", "--to", url],
                               check=True, stdout=subprocess.DEVNULL)
                print(f"-- migrate-store {SEED_FROM} into PostgreSQL: {time.monotonic() - started:.0f} s", flush=True)
            database = f"{{postgres: {{url: '{url}'}}}}"
        else:
            self.database = work / "relay.sqlite"
            database = f"{{path: {self.database}}}"
        self.config = work / "relay.yaml"
        self.config.write_text(
            "listen: {host: 127.0.0.1, port: 0}\n"
            f"database: {database}\n"
            "log_level: warning\n"
            "apps:\n"
            f"  - app_id: {APP_ID}\n"
            f"    api_token: {API_TOKEN}\n"
            "    limits: {api_token_requests_per_second: 0}\n"
            f"{providers}")

    def start_relay(self):
        self.relay, line = start_and_wait([str(RELAY_BIN), "serve", "--config", str(self.config)],
                                          self.work / "relay.log", "listening on")
        url = line.split("listening on ")[1].split()[0]
        self.host, self.port = url.split("//")[1].rstrip("/").split(":")
        self.port = int(self.port)

    def restart_relay(self):
        stop(self.relay)
        self.start_relay()

    def stop(self):
        stop(self.relay)
        for _, mock in self.mocks:
            stop(mock)
        if self.pg:
            self.pg.stop()


# --- HTTP ----------------------------------------------------------------------------------------

class Client:
    """One keep-alive connection to the relay."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.connection = http.client.HTTPConnection(host, port, timeout=600)

    def request(self, method, path, body=None, headers=None):
        data = json.dumps(body, separators=(",", ":")).encode() if body is not None else None
        all_headers = {"Api-Token": API_TOKEN, "Content-Type": "application/json", **(headers or {})}
        for attempt in range(5):
            try:
                self.connection.request(method, path, body=data, headers=all_headers)
                answer = self.connection.getresponse()
                text = answer.read()
                if answer.status == 429:
                    time.sleep(float(answer.getheader("Retry-After", "1")))
                    continue
                return answer.status, text
            except (ConnectionError, http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=600)
                if attempt == 4:
                    raise
                time.sleep(0.2)
        raise RuntimeError(f"{method} {path}: still 429")

    def json(self, method, path, body=None, headers=None):
        status, text = self.request(method, path, body, headers)
        if status != 200:
            raise RuntimeError(f"{method} {path}: {status} {text[:300]!r}")
        return json.loads(text)

    def text(self, path):
        status, text = self.request("GET", path)
        return text.decode()


def register_slice(args):
    """Registers the tokens of users start, start+step, ... below stop on THREADS connections."""
    host, port, users = args
    done = [0]
    lock = threading.Lock()

    def worker(part):
        client = Client(host, port)
        for u in part:
            path, body = registration(u)
            status, text = client.request("POST", path, body)
            if status != 200:
                raise RuntimeError(f"POST {path}: {status} {text[:300]!r}")
            with lock:
                done[0] += 1

    threads = [threading.Thread(target=worker, args=(users[i::THREADS],)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return done[0]


def seed(rig: Rig, seeded: dict):
    """Registers every user's token and fills the topics; `seeded` says what the database has."""
    users = max(SIZES)
    have = seeded.get("users", 0)
    if have < users:
        todo = list(range(have, users))
        slices = [(rig.host, rig.port, todo[i::PROCS]) for i in range(PROCS)]
        print(f"-- registering {len(todo):,} device tokens ({MIX}) on {PROCS} x {THREADS} connections", flush=True)
        started = time.monotonic()
        cpu0 = cpu_seconds(rig.relay.pid)
        with multiprocessing.Pool(PROCS) as pool:
            result = pool.map_async(register_slice, slices)
            while not result.ready():
                result.wait(30)
                print(f"   {time.monotonic() - started:6.0f} s, load {load_average()}", flush=True)
            registered = sum(result.get())
        elapsed = time.monotonic() - started
        print(f"   {registered:,} tokens in {elapsed:.1f} s = {registered / elapsed:,.0f} registrations/s "
              f"(relay CPU {(cpu_seconds(rig.relay.pid) - cpu0) / registered * 1e6:.0f} µs each)", flush=True)
        seeded["users"] = users
    client = Client(rig.host, rig.port)
    for size in SIZES:
        topic = f"bench-{size}"
        if seeded.get("topics", {}).get(topic) == size:
            continue
        started = time.monotonic()
        for start in range(0, size, SUBSCRIBE_BATCH):
            client.json("POST", f"/v3/topics/{topic}/subscribers",
                        {"user_ids": [user_id(u) for u in range(start, min(size, start + SUBSCRIBE_BATCH))]})
        count = client.json("GET", f"/v3/topics/{topic}")["subscriber_count"]
        assert count == size, (topic, count)
        elapsed = time.monotonic() - started
        print(f"-- topic {topic}: {size:,} subscribers in {elapsed:.1f} s = {size / elapsed:,.0f} ids/s", flush=True)
        seeded.setdefault("topics", {})[topic] = size


# --- one measurement ----------------------------------------------------------------------------

METRIC = re.compile(r'^(pushrelay_pushes_total|pushrelay_queue_depth)(\{[^}]*\})?\s+([0-9.e+]+)$')


def scrape(client: Client) -> dict:
    """Pushes sent by provider, other push outcomes, and the queue's depth, from /metrics."""
    out = {"sent": {}, "other": 0, "queue": 0}
    for line in client.text("/metrics").splitlines():
        m = METRIC.match(line)
        if not m:
            continue
        name, labels, value = m.group(1), m.group(2) or "", float(m.group(3))
        if name == "pushrelay_queue_depth":
            out["queue"] = value
        elif 'status="sent"' in labels:
            provider = re.search(r'provider="([^"]*)"', labels).group(1)
            out["sent"][provider] = out["sent"].get(provider, 0) + value
        else:
            out["other"] += value
    return out


def apns_accepted(rig: Rig) -> int:
    """The 200s apns-mock has answered."""
    host, port = rig.apns_admin.split("//")[1].rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("GET", "/stats")
    stats = json.loads(connection.getresponse().read())
    connection.close()
    return int(stats.get("responsesByStatus", {}).get("200", 0))


class WebhookProbe(threading.Thread):
    """PROBE=1: while the notification goes out, a chat message every second (a signed webhook
    event, one offline member holding an APNs token): how the webhook answers, and how long each
    accepted push waits (`sent_at` - `accepted_at` in its delivery log)."""

    def __init__(self, rig: Rig, first_message_id: int):
        super().__init__(daemon=True)
        self.client = Client(rig.host, rig.port)
        self.next_id = first_message_id
        self.stopping = threading.Event()
        self.posted = []   # (seconds since the start, status, message id, member)

    def run(self):
        started = time.monotonic()
        k = 0
        while not self.stopping.is_set():
            k += 1
            member = user_id(3 * k)   # an APNs token in either mix
            message_id = self.next_id + k
            event = {"category": "group_channel:message_send", "app_id": APP_ID, "type": "MESG",
                     "sender": {"user_id": "probe-sender", "nickname": "Probe"},
                     "members": [{"user_id": "probe-sender", "nickname": "Probe", "is_online": True, "state": "joined"},
                                 {"user_id": member, "nickname": member, "is_online": False, "state": "joined",
                                  "total_unread_message_count": 1}],
                     "payload": {"message_id": message_id, "created_at": int(time.time() * 1000), "message": "probe"},
                     "channel": {"channel_url": f"probe-{k}", "name": "Probe"}}
            body = json.dumps(event, separators=(",", ":")).encode()
            signature = hmac.new(API_TOKEN.encode(), body, hashlib.sha256).hexdigest()
            self.client.connection.request("POST", f"/webhooks/sendbird/{APP_ID}", body=body,
                                           headers={"Content-Type": "application/json", "x-sendbird-signature": signature})
            answer = self.client.connection.getresponse()
            answer.read()
            self.posted.append((round(time.monotonic() - started, 2), answer.status, message_id, member))
            self.stopping.wait(max(0.0, started + k - time.monotonic()))

    def accepted(self) -> int:
        """Chat pushes the probe added (each event has one)."""
        return sum(1 for p in list(self.posted) if p[1] == 200)

    def report(self) -> dict:
        waits = []
        for at, status, message_id, member in self.posted:
            if status != 200:
                continue
            log = self.client.json("GET", f"/v3/push/deliveries?message_id={message_id}&user_id={member}")
            sent = [d.get("sent_at") for d in log.get("deliveries", []) if d.get("state") == "sent"]
            waits.append((at, (sent[0] - log["accepted_at"]) / 1000 if sent else None))
        statuses = {}
        for _, status, _, _ in self.posted:
            statuses[str(status)] = statuses.get(str(status), 0) + 1
        known = sorted(w for _, w in waits if w is not None)
        return {"statuses": statuses, "unsent": sum(1 for _, w in waits if w is None),
                "wait_p50_s": known[len(known) // 2] if known else None, "wait_max_s": known[-1] if known else None,
                "timeline": [(at, status) for at, status, _, _ in self.posted], "waits": waits}


def measure(rig: Rig, size: int, run: int) -> dict:
    rig.restart_relay()
    subprocess.run(["sync"], check=True)
    time.sleep(1)
    pid = rig.relay.pid
    client = Client(rig.host, rig.port)
    poller = Client(rig.host, rig.port)
    before = scrape(poller)
    apns_before = apns_accepted(rig)
    expected = {p: sum(1 for u in range(size) if provider_of(u) == p) for p in ("apns", "fcm", "hms")}
    cpu_before = {name: cpu_seconds(m.pid) for name, m in rig.mocks} | {"relay": cpu_seconds(pid)}
    load_before = load_average()
    samples = []

    probe = WebhookProbe(rig, first_message_id=int(time.time() * 1000) * 1000) if PROBE else None
    started = time.monotonic()
    if probe:
        probe.start()
    notification = client.json("POST", "/v3/notifications", {"topic": f"bench-{size}", "title": "Bench",
                                                             "body": f"Notification benchmark, run {run}"})
    posted = time.monotonic() - started
    nid = notification["notification_id"]
    done_at = last_at = None
    first_at = None
    planned = 0
    sent = 0
    queue_peak = 0
    while True:
        now = time.monotonic() - started
        if done_at is None:
            listed = client.json("GET", "/v3/notifications?limit=5")["notifications"]
            mine = next(n for n in listed if n["notification_id"] == nid)
            if mine["state"] == "done":
                done_at = time.monotonic() - started
            planned = mine.get("planned_users", 0)
        metrics = scrape(poller)
        sent = sum(metrics["sent"].values()) - sum(before["sent"].values()) - (probe.accepted() if probe else 0)
        queue_peak = max(queue_peak, metrics["queue"])
        if sent > 0 and first_at is None:
            first_at = time.monotonic() - started
        rss = proc_status(pid, "VmRSS")
        if not samples or now - samples[-1][0] >= 1:
            samples.append((round(now, 2), planned if done_at is None else size, int(sent), int(metrics["queue"]), rss // 1024))
        if sent >= size and last_at is None:
            last_at = time.monotonic() - started
        if done_at is not None and last_at is not None:
            break
        if now > TIMEOUT:
            print(f"   TIMEOUT: planned {planned}, sent {sent} of {size}", flush=True)
            break
        time.sleep(POLL)
    if probe:
        probe.stopping.set()
        probe.join()
    # The relay counts a push sent when its provider answers; the delivery log has it once the
    # outcome's batch is committed: `counts.sent` (50 request units a read, so every 0.5 s).
    read = client.json("GET", f"/v3/notifications/{nid}")
    while read.get("counts", {}).get("sent", 0) < size and time.monotonic() - started < TIMEOUT + 60:
        time.sleep(0.5)
        read = client.json("GET", f"/v3/notifications/{nid}")
    logged_at = time.monotonic() - started
    read_started = time.monotonic()
    read = client.json("GET", f"/v3/notifications/{nid}")
    counts_read_ms = (time.monotonic() - read_started) * 1000
    hwm = proc_status(pid, "VmHWM")
    cpu = {name: round(cpu_seconds(m.pid) - cpu_before[name], 2) for name, m in rig.mocks} | \
          {"relay": round(cpu_seconds(pid) - cpu_before["relay"], 2)}
    load_after = load_average()
    # Every user planned and pushed, every push sent, as the relay's delivery log says.
    counts = read.get("counts", {})
    apns_mock = apns_accepted(rig) - apns_before
    metrics = scrape(poller)
    by_provider = {p: int(metrics["sent"].get(p, 0) - before["sent"].get(p, 0)) for p in ("apns", "fcm", "hms")}
    result = {
        "store": STORE, "mix": MIX, "size": size, "run": run, "notification_id": nid,
        "post_s": round(posted, 3), "first_push_s": round(first_at or -1, 3),
        "done_s": round(done_at or -1, 3), "last_push_s": round(last_at or -1, 3),
        "log_sent_s": round(logged_at, 3), "counts_read_ms": round(counts_read_ms, 1),
        "pushes_per_s": round(size / last_at) if last_at else None,
        "planned_per_s": round(size / done_at) if done_at else None,
        "peak_rss_mb": round(hwm / 1024, 1), "queue_peak": int(queue_peak),
        "cpu_s": cpu, "load_before": load_before, "load_after": load_after,
        "state": read.get("state"), "planned_users": read.get("planned_users"), "counts": counts,
        "sent_by_provider": by_provider, "expected_by_provider": expected,
        "other_outcomes": int(metrics["other"] - before["other"]),
        "apns_mock_accepted": apns_mock,
        "samples": samples,
    }
    if probe:
        time.sleep(2)   # the last probes' pushes
        result["probe"] = probe.report()
        print(f"   webhook probe: answers {result['probe']['statuses']}, push wait p50 {result['probe']['wait_p50_s']} s, "
              f"max {result['probe']['wait_max_s']} s, unsent {result['probe']['unsent']}", flush=True)
    problems = []
    if probe:   # its chat pushes went to APNs too
        expected = dict(expected, apns=expected["apns"] + probe.accepted())
    if read.get("state") != "done" or read.get("planned_users") != size:
        problems.append(f"state {read.get('state')}, planned {read.get('planned_users')}")
    if counts.get("sent") != size or counts.get("pushed_users") != size or counts.get("skipped"):
        problems.append(f"counts {counts}")
    if by_provider != expected:
        problems.append(f"sent by provider {by_provider} != {expected}")
    if apns_mock != expected["apns"]:
        problems.append(f"apns-mock answered {apns_mock} 200s, expected {expected['apns']}")
    result["problems"] = problems
    print(f"   {STORE} {MIX} {size:>9,} run {run}: POST answered {posted * 1000:.0f} ms, first push {first_at or -1:.2f} s, "
          f"done {done_at or -1:.2f} s ({result['planned_per_s'] or 0:,} users/s), last push {last_at or -1:.2f} s "
          f"({result['pushes_per_s'] or 0:,} pushes/s), counts.sent complete by {logged_at:.2f} s (a read {counts_read_ms:.0f} ms), peak RSS {hwm / 1024:.0f} MB, queue peak {int(queue_peak):,}, "
          f"CPU s {cpu}, load {load_before} -> {load_after}" + (f"; PROBLEMS: {problems}" if problems else ""), flush=True)
    return result


def main():
    for binary in (RELAY_BIN, APNS_MOCK_BIN) + ((FCM_MOCK_BIN, HMS_MOCK_BIN) if MIX == "mixed" else ()):
        if not binary.exists():
            raise SystemExit(f"{binary} missing: swift build -c release --product {binary.name}")
    if MIX not in ("apns", "mixed") or STORE not in ("sqlite", "postgres"):
        raise SystemExit("MIX is apns or mixed, STORE sqlite or postgres")
    work = Path(os.environ["WORK"]) if os.environ.get("WORK") else Path(tempfile.mkdtemp(prefix="bench-notifications-"))
    work.mkdir(parents=True, exist_ok=True)
    marker = work / "seeded.json"
    if SEED_FROM:
        seeded = json.loads(Path(SEED_FROM + ".json").read_text())
    else:
        seeded = json.loads(marker.read_text()) if marker.exists() and STORE == "sqlite" else {}
    if seeded and seeded.get("mix") != MIX:
        raise SystemExit(f"{work} was seeded with MIX={seeded.get('mix')}")
    seeded["mix"] = MIX
    print(f"== bench_notifications: {STORE}, MIX={MIX}, sizes {SIZES}, {ROUNDS} round(s), work {work}, "
          f"{os.cpu_count()} CPUs, load {load_average()}, git {git_commit()}", flush=True)
    rig = Rig(work)
    results = []
    try:
        rig.start_relay()
        before = json.dumps(seeded, sort_keys=True)
        seed(rig, seeded)
        if STORE == "sqlite":
            marker.write_text(json.dumps(seeded))
            if json.dumps(seeded, sort_keys=True) != before:
                # A copy of the seeded store, before any notification: STORE=postgres SEED_FROM=<it>
                # copies it into PostgreSQL with `push-relay migrate-store`.
                stop(rig.relay)
                shutil.copyfile(rig.database, work / "seeded.sqlite")
                (work / "seeded.sqlite.json").write_text(json.dumps(seeded))
                rig.start_relay()
        for run in range(1, ROUNDS + 1):
            for size in SIZES:
                if run == 1 or size not in ONCE:
                    results.append(measure(rig, size, run))
    finally:
        rig.stop()
        if not KEEP:
            shutil.rmtree(work, ignore_errors=True)
    for result in results:
        print(json.dumps(result, separators=(",", ":")))


def git_commit() -> str:
    try:
        return subprocess.check_output(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


if __name__ == "__main__":
    main()
