"""Web Push end to end: the real `push-relay serve` sends to `webpush-mock` (a push service on
swift-nio, not the relay's AsyncHTTPClient). Subscriptions made by the mock are registered through
REST exactly as a browser's `PushSubscription.toJSON()`; an offline-message webhook reaches each.
What the mock received is decrypted again with an independent implementation (`http-ece`), and
its VAPID header verified with `py-vapid`; the declarative JSON is compared exactly. A 410 removes
the subscription, 429/5xx are retried until delivered, an endpoint outside the allowlist is
refused at registration, and `pywebpush` (another sender) is accepted by the mock, so the mock's
own checks are not the relay's mirror.

Deadlines are multiples of the time the first push took."""

import base64
import json
import os
import time
from pathlib import Path

import http_ece
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from cluster import API_TOKEN, APP_ID, CERTS, RELAY_BIN, ROOT, Cluster, signed, start_and_wait, terminate

WEBPUSH_MOCK_BIN = Path(os.environ.get("WEBPUSH_MOCK_BINARY", ROOT / ".build" / "debug" / "webpush-mock"))
NAVIGATE = "https://chat.example.com/c/{channel_url}"


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


class WebPushRig:
    def __init__(self, tmp_path: Path, mock_args: tuple = ()):
        self.mock, line = start_and_wait(
            [str(WEBPUSH_MOCK_BIN), "--port", "0", "--admin-port", "0", "--cert", str(CERTS / "server.pem"),
             "--key", str(CERTS / "server.key"), "--log-level", "warning", *mock_args],
            tmp_path / "webpush-mock.log", "listening on")
        self.origin = line.split("listening on ")[1].split()[0]
        self.admin = line.split("admin on ")[1].split()[0]
        key = ec.generate_private_key(ec.SECP256R1())
        self.vapid_public = b64url(key.public_key().public_bytes(serialization.Encoding.X962,
                                                                 serialization.PublicFormat.UncompressedPoint))
        key_file = tmp_path / "keys" / "vapid.pem"
        key_file.parent.mkdir(exist_ok=True)
        key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
        key_file.chmod(0o600)
        self.vapid_pem = key_file
        app_config = ("    webpush:\n"
                      f"      vapid_private_key: {{file: {key_file}}}\n"
                      "      subject: mailto:ops@example.org\n"
                      f"      navigate: \"{NAVIGATE}\"\n"
                      f"      allowed_endpoints: [\"{self.origin}\"]\n"
                      f"      ca_file: {CERTS / 'ca.pem'}\n")
        self.cluster = Cluster(tmp_path, app_config=app_config)
        self.http = requests.Session()
        self.http.headers["Api-Token"] = API_TOKEN

    def stop(self):
        self.cluster.stop()
        terminate(self.mock)

    def subscribe(self, user: str) -> dict:
        made = requests.post(f"{self.admin}/subscriptions", timeout=10).json()
        r = self.http.post(f"{self.cluster.url}/v3/users/{user}/push/webpush",
                           json={"subscription": made["subscription"]}, timeout=10)
        assert r.status_code == 200, r.text
        assert r.json()["type"] == "webpush"
        made["token"] = r.json()["token"]
        return made

    def event(self, message_id: int, members: list, text: str, channel: str = "sendbird_group_channel_1") -> None:
        body = json.dumps({
            "category": "group_channel:message_send", "app_id": APP_ID, "type": "MESG",
            "sender": {"user_id": "alice", "nickname": "Alice"},
            "members": [{"user_id": "alice", "nickname": "Alice", "is_online": True, "state": "joined"}]
            + [{"user_id": m, "nickname": m, "is_online": False, "state": "joined", "unread_message_count": 3}
               for m in members],
            "payload": {"message_id": message_id, "created_at": 1700000000000, "message": text},
            "channel": {"channel_url": channel, "name": "Team"}}, separators=(",", ":")).encode()
        r = self.cluster.post_event(self.http, body)
        assert r.status_code == 200, r.text

    def messages(self) -> list:
        return requests.get(f"{self.admin}/messages", timeout=10).json()

    def wait_messages(self, count: int, deadline_s: float) -> list:
        until = time.monotonic() + deadline_s
        while True:
            got = self.messages()
            if len(got) >= count or time.monotonic() > until:
                return got
            time.sleep(0.05)

    def tokens(self, user: str) -> list:
        return self.http.get(f"{self.cluster.url}/v3/users/{user}/push/webpush", timeout=10).json().get("tokens", [])


def decrypt_independently(record: dict, made: dict) -> dict:
    """http-ece with the subscription's private key: what a browser would read."""
    private = ec.derive_private_key(int.from_bytes(b64url_decode(made["private_key"]), "big"), ec.SECP256R1())
    plain = http_ece.decrypt(base64.b64decode(record["body"]), private_key=private,
                             auth_secret=b64url_decode(made["subscription"]["keys"]["auth"]), version="aes128gcm")
    assert plain.decode() == record["plaintext"], "the mock and http-ece read different plaintexts"
    return json.loads(plain)


@pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, WEBPUSH_MOCK_BIN)), reason="build first (scripts/test does)")
def test_a_webhook_reaches_browsers_decryptably_and_410_removes_the_subscription(tmp_path):
    rig = WebPushRig(tmp_path)
    try:
        key = requests.get(f"{rig.cluster.url}/v3/applications/push/webpush",
                           headers={"Api-Token": API_TOKEN}, timeout=10).json()
        assert key == {"push_configurations": [{"push_type": "webpush", "application_server_key": rig.vapid_public}]}
        bob, carol = rig.subscribe("bob"), rig.subscribe("carol")

        started = time.monotonic()
        rig.event(9001, ["bob", "carol"], "See you at 6?")
        got = rig.wait_messages(2, deadline_s=120)
        assert len(got) == 2, got
        deadline = 30 + 20 * (time.monotonic() - started)

        by_subscription = {r["subscription"]: r for r in got}
        for made in (bob, carol):
            record = by_subscription[made["id"]]
            message = decrypt_independently(record, made)
            sendbird = message.pop("sendbird")
            assert message == {
                "web_push": 8030,
                "notification": {"title": "Alice", "body": "Alice: See you at 6?",
                                 "navigate": "https://chat.example.com/c/sendbird_group_channel_1",
                                 "tag": "sendbird_group_channel_1", "silent": False},
                "app_badge": 3}, message
            assert sendbird["message_id"] == 9001 and sendbird["channel"]["channel_url"] == "sendbird_group_channel_1"
            assert sendbird["sender"]["id"] == "alice"
            # VAPID: py-vapid verifies the JWT with k, and k is the app's applicationServerKey.
            assert Vapid02.verify(record["authorization"]), record["authorization"]
            assert record["vapid_key"] == rig.vapid_public
            claims = json.loads(b64url_decode(record["authorization"].split("t=")[1].split(".")[1].split(",")[0]))
            assert claims["aud"] == rig.origin and claims["sub"] == "mailto:ops@example.org"
            assert record["urgency"] == "high" and record["content_encoding"] == "aes128gcm"
            assert 0 < record["ttl"] <= 86400 * 28 and len(record["topic"]) == 32

        # The delivery log: one attempt each, answered 201, the push service's Location kept. (A
        # second attempt would be a push sent twice: an answer the client lost, as when two
        # bodyless answers in a row made it drop the connection.)
        for made, user in ((bob, "bob"), (carol, "carol")):
            until = time.monotonic() + deadline
            while True:
                logged = rig.http.get(f"{rig.cluster.url}/v3/push/deliveries", params={"message_id": 9001, "user_id": user},
                                      timeout=10).json()["deliveries"]
                if logged and logged[0]["state"] == "sent" or time.monotonic() > until:
                    break
                time.sleep(0.05)
            assert len(logged) == 1 and logged[0]["provider"] == "webpush", logged
            assert logged[0]["state"] == "sent" and logged[0]["attempts"] == 1 and logged[0]["last_status"] == 201, logged
            assert logged[0]["provider_message_id"].startswith(f"{rig.origin}/m/{made['id']}/"), logged
            assert made["token"] not in json.dumps(logged), "a subscription is never shown whole"

        # Carol's browser unsubscribed: 410 removes her subscription, Bob's stays.
        r = requests.post(f"{rig.admin}/gone", json={"tokens": [carol["id"]]}, timeout=10)
        assert r.status_code == 204
        rig.event(9002, ["bob", "carol"], "second")
        until = time.monotonic() + deadline
        while rig.tokens("carol") and time.monotonic() < until:
            time.sleep(0.05)
        assert rig.tokens("carol") == []
        assert rig.tokens("bob") == [bob["token"]]
        # (At least once: a push whose answer was lost on the way is sent again; `tag` and
        # `Topic` make the browser show it once.)
        until = time.monotonic() + deadline
        while (9002, bob["id"]) not in {(json.loads(r["plaintext"])["sendbird"]["message_id"], r["subscription"])
                                        for r in rig.messages()} and time.monotonic() < until:
            time.sleep(0.05)

        # Busy or failing push services: retried (Retry-After honoured) until delivered.
        r = requests.post(f"{rig.admin}/faults", json={"too_many_requests": {"count": 2, "retry_after": 1},
                                                       "unavailable": 1, "internal": 1}, timeout=10)
        assert r.status_code == 204
        rig.event(9003, ["bob"], "third")
        until = time.monotonic() + deadline
        third = []
        while not third and time.monotonic() < until:
            third = [r for r in rig.messages() if json.loads(r["plaintext"])["sendbird"]["message_id"] == 9003]
            time.sleep(0.05)
        assert third and decrypt_independently(third[0], bob)["sendbird"]["message_id"] == 9003
        stats = requests.get(f"{rig.admin}/stats", timeout=10).json()
        assert stats["vapid_refused"] == 0 and stats["undecryptable"] == 0
    finally:
        rig.stop()


@pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, WEBPUSH_MOCK_BIN)), reason="build first (scripts/test does)")
def test_an_endpoint_outside_the_allowlist_is_refused_and_another_sender_is_accepted(tmp_path, monkeypatch):
    rig = WebPushRig(tmp_path)
    try:
        made = requests.post(f"{rig.admin}/subscriptions", timeout=10).json()
        for endpoint in ("https://127.0.0.1:1/push/x", "https://169.254.169.254/latest/meta-data",
                         made["subscription"]["endpoint"].replace("https://", "http://")):
            subscription = dict(made["subscription"], endpoint=endpoint)
            r = rig.http.post(f"{rig.cluster.url}/v3/users/dave/push/webpush", json={"subscription": subscription},
                              timeout=10)
            assert r.status_code == 400 and r.json()["code"] == 400601, r.text
        # Nothing stored: dave was never created by the refused registrations.
        listed = rig.http.get(f"{rig.cluster.url}/v3/users/dave/push/webpush", timeout=10)
        assert listed.status_code == 400 and listed.json()["code"] == 400201, listed.text

        # pywebpush, an independent sender with its own VAPID and encryption, is accepted too.
        from pywebpush import webpush
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(CERTS / "ca.pem"))
        response = webpush(made["subscription"], data="from pywebpush", vapid_private_key=str(rig.vapid_pem),
                           vapid_claims={"sub": "mailto:ops@example.org"}, ttl=60)
        assert response.status_code == 201, response.text
        record = rig.wait_messages(1, 30)[0]
        assert record["plaintext"] == "from pywebpush"
    finally:
        rig.stop()


@pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, WEBPUSH_MOCK_BIN)), reason="build first (scripts/test does)")
def test_sigkill_with_web_pushes_in_flight_loses_none(tmp_path):
    """Every event answered 200 reaches every subscription of its members, though the relay is
    killed (SIGKILL) while the push service holds its answers back (`delay_ms`)."""
    rig = WebPushRig(tmp_path)
    try:
        members = [f"w{i}" for i in range(6)]
        subscriptions = {m: rig.subscribe(m) for m in members}
        by_id = {made["id"]: m for m, made in subscriptions.items()}
        started = time.monotonic()
        rig.event(100, members, "warm-up")
        assert len(rig.wait_messages(len(members), 120)) == len(members)
        deadline = 60 + 40 * (time.monotonic() - started)

        r = requests.post(f"{rig.admin}/faults", json={"delay_ms": 300}, timeout=10)
        assert r.status_code == 204
        accepted = []
        for message_id in range(101, 131):
            rig.event(message_id, members, f"m{message_id}")
            accepted.append(message_id)
        rig.cluster.kill_relay()
        requests.delete(f"{rig.admin}/faults", timeout=10)
        rig.cluster.start_relay()
        for message_id in range(131, 141):
            rig.event(message_id, members, f"m{message_id}")
            accepted.append(message_id)

        want = {(message_id, m) for message_id in accepted for m in members}
        until = time.monotonic() + deadline
        while True:
            got = {(json.loads(r["plaintext"])["sendbird"]["message_id"], by_id[r["subscription"]]) for r in rig.messages()}
            if want <= got or time.monotonic() > until:
                break
            time.sleep(0.1)
        assert not want - got, f"lost {len(want - got)} of {len(want)} pushes: {sorted(want - got)[:10]}"
    finally:
        rig.stop()


@pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, WEBPUSH_MOCK_BIN)), reason="build first (scripts/test does)")
def test_a_push_service_speaking_only_http1_gets_the_same_pushes(tmp_path):
    """Push services differ (Google's and Apple's speak HTTP/2, others HTTP/1.1 only): the pooled
    client takes what ALPN offers."""
    rig = WebPushRig(tmp_path, mock_args=("--http1-only",))
    try:
        members = ["h1", "h2", "h3"]
        subscriptions = {m: rig.subscribe(m) for m in members}
        rig.event(7001, members, "over HTTP/1.1")
        got = rig.wait_messages(len(members), 120)
        assert {r["subscription"] for r in got} == {s["id"] for s in subscriptions.values()}
        assert {r["http_version"] for r in got} == {"http/1.1"}, got
        for record in got:
            made = next(s for s in subscriptions.values() if s["id"] == record["subscription"])
            assert decrypt_independently(record, made)["notification"]["body"] == "Alice: over HTTP/1.1"
    finally:
        rig.stop()
