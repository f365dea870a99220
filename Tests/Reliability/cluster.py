"""Shared by the reliability suites: apns-mock (validating, recording, with its admin API) plus a
restartable `push-relay serve` on one database, and signed webhook events with fan-out. With
`fcm=True` fcm-mock too, and the users hold a mix of APNs and FCM tokens; with `hms=True` as well
hms-mock, and the mix takes in Huawei tokens; with `webpush=True` webpush-mock as well, and the mix
takes in browsers' Web Push subscriptions (made by the mock, registered as a browser would)."""

import base64
import hashlib
import hmac
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "PythonSupport"))
import pgcluster  # noqa: E402
RELAY_BIN = Path(os.environ.get("PUSH_RELAY_BINARY", ROOT / ".build" / "debug" / "push-relay"))
MOCK_BIN = Path(os.environ.get("APNS_MOCK_BINARY", ROOT / ".build" / "debug" / "apns-mock"))
FCM_MOCK_BIN = Path(os.environ.get("FCM_MOCK_BINARY", ROOT / ".build" / "debug" / "fcm-mock"))
HMS_MOCK_BIN = Path(os.environ.get("HMS_MOCK_BINARY", ROOT / ".build" / "debug" / "hms-mock"))
WEBPUSH_MOCK_BIN = Path(os.environ.get("WEBPUSH_MOCK_BINARY", ROOT / ".build" / "debug" / "webpush-mock"))
HMS_APP_ID = "104783201"
HMS_CLIENT_SECRET = "crash-hms-client-secret-0123456789"
CERTS = ROOT / "certs" / "dev"
# base64url("https://"): how every Web Push token starts.
WEBPUSH_TOKEN_PREFIX = "aHR0cHM6Ly"

FANOUT = int(os.environ.get("CRASH_FANOUT", "5"))
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


def private_copy(source: Path, directory: Path) -> Path:
    """A copy of a development key only its owner can read: the relay refuses a key file every
    user can read, and a checkout's files are 0644."""
    directory.mkdir(mode=0o700, exist_ok=True)
    target = directory / source.name
    shutil.copyfile(source, target)
    os.chmod(target, 0o600)
    return target


def signed(body: bytes):
    return hmac.new(API_TOKEN.encode(), body, hashlib.sha256).hexdigest()


def token_for(user: int) -> str:
    return f"{user + 1:064x}"


def fcm_token_for(user: int) -> str:
    """An FCM registration token's shape: letters, digits and `_ - : .`, 150-odd characters."""
    return f"crash{user:03d}:APA91b" + "Xy-_" * 35


def hms_token_for(user: int) -> str:
    """An HMS push token's shape: letters, digits and `+ / = - _ :`, 130-odd characters."""
    return f"IQAAAACy{user:03d}+hms/" + "Qa9_" * 30 + "=="


def mixed_tokens(user: int) -> set:
    """A third of the users hold an APNs token, a third an FCM token, a third both."""
    return [{token_for(user)}, {fcm_token_for(user)}, {token_for(user), fcm_token_for(user)}][user % 3]


def all_provider_tokens(user: int) -> set:
    """A quarter each: an APNs token, an FCM token, an HMS token, or one of each."""
    return [{token_for(user)}, {fcm_token_for(user)}, {hms_token_for(user)},
            {token_for(user), fcm_token_for(user), hms_token_for(user)}][user % 4]


def with_webpush(tokens_of, subscriptions: dict):
    """Every fifth user (u4, u9, …) holds a Web Push subscription instead of their mix, every tenth
    (u3, u13, …) a subscription besides it."""
    def mix(user: int) -> set:
        if user % 5 == 4:
            return {subscriptions[user]["token"]}
        if user % 10 == 3:
            return tokens_of(user) | {subscriptions[user]["token"]}
        return tokens_of(user)
    return mix


def webpush_token(subscription: dict) -> str:
    """The relay's token for a subscription: the endpoint (base64url), the keys, as registered."""
    endpoint = base64.urlsafe_b64encode(subscription["endpoint"].encode()).decode().rstrip("=")
    return f"{endpoint}.{subscription['keys']['p256dh']}.{subscription['keys']['auth']}"


def provider_of(token: str) -> str:
    if token.startswith(WEBPUSH_TOKEN_PREFIX):
        return "webpush"
    if token.startswith("IQAAAACy"):
        return "hms"
    return "apns" if all(c in "0123456789abcdef" for c in token) else "fcm"


def event_body(message_id: int, rng: random.Random, tokens_of=lambda user: {token_for(user)}) -> bytes:
    users = rng.sample(range(USERS), FANOUT + 1)
    sender, offline = users[0], users[1:]
    members = [{"user_id": f"u{sender}", "nickname": "sender", "is_online": True, "state": "joined"}]
    members += [{"user_id": f"u{u}", "nickname": f"n{u}", "is_online": False, "state": "joined",
                 "total_unread_message_count": 1} for u in offline]
    event = {"category": "group_channel:message_send", "app_id": APP_ID, "type": "MESG",
             "sender": {"user_id": f"u{sender}", "nickname": "Sender"}, "members": members,
             "payload": {"message_id": message_id, "created_at": 1700000000000, "message": f"crash test {message_id}"},
             "channel": {"channel_url": f"ch-{sender}", "name": "Crash"}}
    return json.dumps(event, separators=(",", ":")).encode(), set().union(*(tokens_of(u) for u in offline))


class Cluster:
    """apns-mock plus a restartable relay on one database: a SQLite file, or (`store="postgres"`)
    a database of its own on the test cluster (`pgcluster`)."""

    def __init__(self, workdir: Path, extra_config: str = "", app_config: str = "", log_level: str = "warning",
                 store: str = "sqlite", fcm: bool = False, hms: bool = False, database_dir: Path | None = None,
                 more_apps: str = "", webpush: bool = False):
        """`more_apps`: further apps' YAML, each item's `{apns}` replaced by the first app's APNs
        settings (the same mock)."""
        self.workdir = workdir
        self.record = workdir / "pushes.jsonl"
        self.fcm_record = workdir / "fcm-pushes.jsonl"
        self.store = store
        self.hms_record = workdir / "hms-pushes.jsonl"
        self.fcm = fcm
        self.fcm_mock = None
        self.hms = hms
        self.hms_mock = None
        self.webpush_record = workdir / "webpush-pushes.jsonl"
        self.webpush_mock = None
        self.subscriptions = {}   # user -> the mock's subscription, with the relay's `token`
        self.subscription_tokens = {}   # the mock's subscription id -> token
        if store == "postgres":
            self.database = pgcluster.cluster().create_database()
            database_yaml = f"{{postgres: {{url: '{self.database}'}}}}"
        else:
            self.database = (database_dir or workdir) / "relay.sqlite"
            database_yaml = f"{{path: {self.database}}}"
        self.mock, line = start_and_wait(
            [str(MOCK_BIN), "--port", "0", "--admin-port", "0", "--team-id", "DEVTEAM123", "--record", str(self.record),
             "--cert", str(CERTS / "server.pem"), "--key", str(CERTS / "server.key"),
             "--jwt-key", f"DEVKEY1234={CERTS / 'AuthKey_DEVKEY1234.pub.pem'}", "--log-level", "warning"],
            workdir / "mock.log", "listening on")
        mock_url = line.split("listening on ")[1].split()[0]
        self.admin = line.split("admin on ")[1].split()[0] if "admin on " in line else None
        self.apns_key = private_copy(CERTS / "AuthKey_DEVKEY1234.p8", workdir / "keys")
        fcm_config = ""
        if fcm:
            self.fcm_mock, line = start_and_wait(
                [str(FCM_MOCK_BIN), "--port", "0", "--admin-port", "0", "--record", str(self.fcm_record),
                 "--cert", str(CERTS / "server.pem"), "--key", str(CERTS / "server.key"),
                 "--service-account", str(CERTS / "fcm-service-account.json"), "--log-level", "warning"],
                workdir / "fcm-mock.log", "listening on")
            fcm_url = line.split("listening on ")[1].split()[0]
            self.fcm_admin = line.split("admin on ")[1].split()[0] if "admin on " in line else None
            fcm_config = (
                "    fcm:\n"
                f"      service_account: {private_copy(CERTS / 'fcm-service-account.json', workdir / 'keys')}\n"
                f"      url: \"{fcm_url}\"\n"
                f"      token_url: \"{fcm_url}/token\"\n"
                f"      ca_file: {CERTS / 'ca.pem'}\n")
        hms_config = self.start_hms_mock() if hms else ""
        webpush_config = self.start_webpush_mock() if webpush else ""
        self.config = workdir / "relay.yaml"
        apns = (
            "    apns:\n"
            "      topic: com.example.crash\n"
            f"      environment: {{url: \"{mock_url}\", ca_file: {CERTS / 'ca.pem'}}}\n"
            f"      auth: {{token: {{key_file: {self.apns_key}, key_id: DEVKEY1234, team_id: DEVTEAM123}}}}\n")
        self.config.write_text(
            "listen: {host: 127.0.0.1, port: 0}\n"
            f"database: {database_yaml}\n"
            f"log_level: {log_level}\n"
            f"{extra_config}"
            "apps:\n"
            f"  - app_id: {APP_ID}\n"
            f"    api_token: {API_TOKEN}\n"
            f"{apns}"
            f"{fcm_config}"
            f"{hms_config}"
            f"{webpush_config}"
            f"{app_config}"
            f"{more_apps.replace('{apns}', apns)}")
        self.relay = None
        self.url = None
        self.lock = threading.Lock()
        self.up = threading.Event()
        self.start_relay()

    def start_hms_mock(self) -> str:
        """Starts hms-mock; returns the app's `hms:` settings for it."""
        self.hms_mock, line = start_and_wait(
            [str(HMS_MOCK_BIN), "--port", "0", "--admin-port", "0", "--record", str(self.hms_record),
             "--cert", str(CERTS / "server.pem"), "--key", str(CERTS / "server.key"),
             "--app-id", HMS_APP_ID, "--client-secret", HMS_CLIENT_SECRET, "--log-level", "warning"],
            self.workdir / "hms-mock.log", "listening on")
        hms_url = line.split("listening on ")[1].split()[0]
        self.hms_admin = line.split("admin on ")[1].split()[0]
        secret = self.workdir / "keys" / "hms-client-secret"
        secret.parent.mkdir(exist_ok=True)
        secret.write_text(HMS_CLIENT_SECRET)
        secret.chmod(0o600)
        return ("    hms:\n"
                f"      app_id: \"{HMS_APP_ID}\"\n"
                f"      client_secret: {{file: {secret}}}\n"
                f"      url: \"{hms_url}\"\n"
                f"      token_url: \"{hms_url}/oauth2/v3/token\"\n"
                f"      ca_file: {CERTS / 'ca.pem'}\n")

    def start_webpush_mock(self) -> str:
        """Starts webpush-mock and makes one subscription per user on it; returns the app's
        `webpush:` settings for it."""
        self.webpush_mock, line = start_and_wait(
            [str(WEBPUSH_MOCK_BIN), "--port", "0", "--admin-port", "0", "--record", str(self.webpush_record),
             "--cert", str(CERTS / "server.pem"), "--key", str(CERTS / "server.key"), "--log-level", "warning"],
            self.workdir / "webpush-mock.log", "listening on")
        origin = line.split("listening on ")[1].split()[0]
        self.webpush_admin = line.split("admin on ")[1].split()[0]
        for user in range(USERS):
            made = requests.post(f"{self.webpush_admin}/subscriptions", timeout=10).json()
            made["token"] = webpush_token(made["subscription"])
            self.subscriptions[user] = made
            self.subscription_tokens[made["id"]] = made["token"]
        return ("    webpush:\n"
                f"      vapid_private_key: {{file: {private_copy(CERTS / 'vapid-dev.pem', self.workdir / 'keys')}}}\n"
                "      subject: mailto:ops@example.org\n"
                "      navigate: \"https://chat.example.com/c/{channel_url}\"\n"
                f"      allowed_endpoints: [\"{origin}\"]\n"
                f"      ca_file: {CERTS / 'ca.pem'}\n")

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
        if self.store == "postgres":
            # PostgreSQL's own crash safety is not under test; that the relay's tables read is.
            pgcluster.cluster().psql(self.database, "SELECT COUNT(*) FROM deliveries")
            return "ok"
        connection = sqlite3.connect(self.database)
        try:
            return connection.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            connection.close()

    def recorded(self):
        """What apns-mock accepted: one JSON object per notification."""
        return read_json_lines(self.record)

    def fcm_recorded(self):
        """What fcm-mock accepted: one JSON object per message (`token`, `data`, `name`, …)."""
        return read_json_lines(self.fcm_record)

    def pairs(self) -> list:
        """Every (message id, device token) either mock recorded, as often as it recorded it."""
        got = [(payload(r).get("sendbird"), r["deviceToken"]) for r in self.recorded()]
        got += [(json.loads(r["data"].get("sendbird", "null")), r["token"]) for r in self.fcm_recorded() + self.hms_recorded()]
        got += [(json.loads(r["plaintext"]).get("sendbird"), self.subscription_tokens.get(r["subscription"]))
                for r in self.webpush_recorded()]
        # A test push (the console's) carries no message.
        return [(sendbird["message_id"], token) for sendbird, token in got if sendbird]

    def webpush_recorded(self):
        """What webpush-mock accepted: one JSON object per push (`subscription` id, headers, the
        body as sent, the `plaintext` it decrypted)."""
        return read_json_lines(self.webpush_record)

    def hms_recorded(self):
        """What hms-mock accepted: one JSON object per message (`token`, `data` as an object,
        `httpVersion`, `requestId`, …)."""
        return read_json_lines(self.hms_record)

    def tokens_of(self, user: int) -> set:
        """This cluster's token mix."""
        if self.hms:
            mix = all_provider_tokens
        else:
            mix = mixed_tokens if self.fcm else (lambda user: {token_for(user)})
        return with_webpush(mix, self.subscriptions)(user) if self.webpush_mock else mix(user)

    def event(self, message_id: int, rng: random.Random):
        """A signed-to-be event and the tokens it must reach, with this cluster's token mix."""
        return event_body(message_id, rng, self.tokens_of)

    def stop(self):
        for process in (self.relay, self.mock, self.fcm_mock, self.hms_mock, self.webpush_mock):
            terminate(process)

    def relay_rss_mb(self) -> float:
        for line in Path(f"/proc/{self.relay.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def mock_stats(self) -> dict:
        return requests.get(f"{self.admin}/stats", timeout=10).json()

    def arm(self, fault: dict):
        r = requests.post(f"{self.admin}/faults", json=fault, timeout=10)
        assert r.status_code == 204, r.text

    def clear_faults(self):
        requests.delete(f"{self.admin}/faults", timeout=10)

    def post_events(self, message_ids, rng) -> set:
        """Posts one signed event per id (each must be answered 200); returns the (message id,
        device token) pairs they should push."""
        expected = set()
        for message_id in message_ids:
            body, tokens = event_body(message_id, rng)
            r = requests.post(f"{self.url}/webhooks/sendbird", data=body, timeout=10,
                              headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})
            assert r.status_code == 200, r.text
            expected |= {(message_id, t) for t in tokens}
        return expected

    def wait_for_streams_open(self, timeout=10) -> int:
        """Waits until pushes are on the wire at the mock; returns how many."""
        deadline = time.monotonic() + timeout
        while self.mock_stats().get("streamsOpen", 0) == 0:
            assert time.monotonic() < deadline, "no push reached the mock"
            time.sleep(0.05)
        return self.mock_stats().get("streamsOpen", 0)

    def delivered(self) -> set:
        """The (message id, device token) pairs the mocks have recorded so far."""
        return set(self.pairs())

    def wait_delivered(self, want: set, deadline_s: float) -> bool:
        """Waits until every pair of `want` reached the mock; False if `deadline_s` passes first."""
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline:
            if want <= self.delivered():
                return True
            time.sleep(0.1)
        return want <= self.delivered()

    def measure_capacity(self, rng, first_message_id: int, seconds: float = 3.0) -> float:
        """Events/s this relay takes *and delivers* on this machine today, as the suites' own
        client sees it: events are posted closed-loop for `seconds`, then the clock runs until
        every push of them reached the mock. The suites derive their load from this figure, so
        a slower machine (or a debug build) gets a proportionally lighter load instead of a
        backlog that never drains. Suites that used a fixed rate failed on a slow day."""
        http = requests.Session()
        started = time.monotonic()
        want = set()
        message_id = first_message_id
        while time.monotonic() - started < seconds:
            body, tokens = event_body(message_id, rng)
            r = self.post_event(http, body)
            assert r.status_code == 200, r.text
            want |= {(message_id, t) for t in tokens}
            message_id += 1
        events = message_id - first_message_id
        # Generous: this is the calibration itself; a machine this slow fails clearly here.
        assert self.wait_delivered(want, deadline_s=120 + seconds * 20), "calibration pushes never arrived"
        return events / (time.monotonic() - started)

    def post_event(self, http, body: bytes, deadline_s: float = 120):
        """Posts a signed event as Sendbird does: past the backlog promise (503 + Retry-After)
        it comes back when told (at most 0.5 s later here), until answered otherwise or
        `deadline_s` passes. Returns the last answer."""
        until = time.monotonic() + deadline_s
        while True:
            r = http.post(f"{self.url}/webhooks/sendbird", data=body, timeout=30,
                          headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})
            if r.status_code != 503 or "Retry-After" not in r.headers or time.monotonic() > until:
                return r
            time.sleep(min(float(r.headers["Retry-After"]), 0.5))

    def register_users(self):
        session = requests.Session()
        for user in range(USERS):
            for token in self.tokens_of(user):
                provider = provider_of(token)
                kind, field = {"apns": ("apns", "apns_device_token"), "fcm": ("gcm", "gcm_reg_token"),
                               "hms": ("huawei", "huawei_device_token"), "webpush": ("webpush", "subscription")}[provider]
                value = self.subscriptions[user]["subscription"] if provider == "webpush" else token
                r = session.post(f"{self.url}/v3/users/u{user}/push/{kind}", headers={"Api-Token": API_TOKEN},
                                 json={field: value}, timeout=10)
                assert r.status_code == 200, r.text
                assert r.json()["token"] == token, (r.json()["token"], token)


def post_signed_event(url: str, message_id: int, rng: random.Random, timeout: float = 60):
    """One signed event on a connection of its own (requests.post opens and closes one: every
    event is a new client). Returns (status, text, seconds taken, the tokens it pushes to)."""
    body, tokens = event_body(message_id, rng)
    started = time.monotonic()
    r = requests.post(f"{url}/webhooks/sendbird", data=body, timeout=timeout,
                      headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})
    return r.status_code, r.text, time.monotonic() - started, tokens


def terminate(process):
    """SIGTERM, and SIGKILL if it has not exited 20 s later."""
    if process and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def read_json_lines(path: Path) -> list:
    records = []
    if path.exists():
        lines = path.read_text().splitlines()
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


def payload(record) -> dict:
    # The mock records the body as it arrived: a JSON text (older versions: base64).
    raw = record["payload"]
    try:
        return json.loads(raw)
    except ValueError:
        return json.loads(base64.b64decode(raw))


def payload_message_id(record):
    return payload(record)["sendbird"]["message_id"]


class Fleet(Cluster):
    """apns-mock plus `size` relays sharing one PostgreSQL database, each with its own node_id,
    each restartable on its own (`kill(i)`, `start(i)`)."""

    def __init__(self, workdir: Path, size: int = 3, **kwargs):
        self.size = size
        self.nodes = [None] * size
        super().__init__(workdir, store="postgres", **kwargs)

    def node_config(self, index: int) -> Path:
        path = self.workdir / f"relay-{index}.yaml"
        text = self.config.read_text().replace(
            f"database: {{postgres: {{url: '{self.database}'}}}}",
            f"database: {{postgres: {{url: '{self.database}', node_id: relay-{index}, lease: 5s}}}}")
        path.write_text(text)
        return path

    def start_relay(self):
        for index in range(self.size):
            self.start(index)

    def start(self, index: int):
        process, line = start_and_wait([str(RELAY_BIN), "serve", "--config", str(self.node_config(index))],
                                       self.workdir / f"relay-{index}.log", "listening on")
        with self.lock:
            self.nodes[index] = {"process": process, "url": line.split("listening on ")[1].split()[0]}
            self.relay = self.nodes[0]["process"] if self.nodes[0] else process
            self.url = next(n["url"] for n in self.nodes if n)
        self.up.set()

    def kill(self, index: int):
        with self.lock:
            node = self.nodes[index]
            self.nodes[index] = None
        node["process"].send_signal(signal.SIGKILL)
        node["process"].wait()

    def urls(self):
        with self.lock:
            return [n["url"] for n in self.nodes if n]

    def terminate(self, index: int, timeout: float = 60) -> int:
        """SIGTERM, as systemd stops a relay; returns its exit status once it is gone."""
        with self.lock:
            node = self.nodes[index]
            self.nodes[index] = None
        node["process"].send_signal(signal.SIGTERM)
        return node["process"].wait(timeout=timeout)

    def stop(self):
        for node in self.nodes:
            terminate(node and node["process"])
        for mock in (self.mock, self.fcm_mock, self.hms_mock, self.webpush_mock):
            terminate(mock)


class FleetLoad:
    """Signed webhook events posted round-robin to a fleet's live relays by `senders` threads,
    each retried like Sendbird until answered 200: after a connection error, a timeout or a 503
    (honouring Retry-After, capped at `max_pause`), on the next relay. `events` bounds the
    stream (None: until `stop()`); `pace` spaces each sender's events. What was answered 200 is
    in `expected` (message id -> tokens); `statuses` counts every answer, `unexpected` holds any
    answer other than 200 or 503 + Retry-After."""

    def __init__(self, fleet: Fleet, first_message_id: int, events=None, senders: int = 4, timeout: float = 10,
                 pace: float = 0.0, max_pause: float = 0.2):
        self.fleet = fleet
        self.first = first_message_id
        self.events = events
        self.timeout = timeout
        self.pace = pace
        self.max_pause = max_pause
        self.expected = {}
        self.statuses = {}
        self.answers = {"accepted": 0, "duplicate": 0, "retried": 0}
        self.unexpected = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.next_index = 0
        self.threads = [threading.Thread(target=self._send, args=(n,), daemon=True) for n in range(senders)]

    def start(self):
        for t in self.threads:
            t.start()
        return self

    def stop(self):
        self.stopping.set()
        self.join()

    def join(self, timeout: float = 600):
        for t in self.threads:
            t.join(timeout=timeout)

    def accepted(self) -> int:
        with self.lock:
            return len(self.expected)

    def counts(self) -> dict:
        with self.lock:
            return dict(self.statuses)

    def want(self) -> set:
        with self.lock:
            return {(m, t) for m, tokens in self.expected.items() for t in tokens}

    def _send(self, number: int):
        http = requests.Session()
        turn = number
        while not self.stopping.is_set():
            with self.lock:
                index = self.next_index
                self.next_index += 1
            if self.events is not None and index >= self.events:
                return
            message_id = self.first + index
            body, tokens = self.fleet.event(message_id, random.Random(message_id))
            while not self.stopping.is_set():
                urls = self.fleet.urls()
                turn += 1
                if not urls:
                    time.sleep(0.05)
                    continue
                try:
                    r = http.post(f"{urls[turn % len(urls)]}/webhooks/sendbird", data=body, timeout=self.timeout,
                                  headers={"Content-Type": "application/json", "x-sendbird-signature": signed(body)})
                except requests.RequestException:
                    with self.lock:
                        self.answers["retried"] += 1
                    continue
                with self.lock:
                    self.statuses[r.status_code] = self.statuses.get(r.status_code, 0) + 1
                if r.status_code == 200:
                    with self.lock:
                        self.answers[r.json()["result"]] += 1
                        self.expected[message_id] = tokens
                    break
                if r.status_code != 503 or "Retry-After" not in r.headers:
                    with self.lock:
                        self.unexpected.append((message_id, r.status_code, r.text[:200]))
                    if r.status_code < 500:
                        break  # a 4xx is final: Sendbird would not retry it either
                time.sleep(min(float(r.headers.get("Retry-After", "1")), self.max_pause))
            if self.pace:
                time.sleep(self.pace)
