"""The notifications API end to end: the real `push-relay serve` against apns-mock, fcm-mock,
hms-mock and webpush-mock (webpush-mock decrypts each push), on both stores.

- One `POST /v3/notifications` to a topic reaches every subscriber's devices on every provider, in
  the subscriber's language; a user in do-not-disturb is skipped with the reason in the delivery
  log, and reached by a time-sensitive one; the same request retried with its `Idempotency-Key`
  sends nothing more; the notification's counts equal what the mocks received.
- SIGKILL during a fan-out of 100,000 users loses no user: each user is decided exactly once, each
  device token is pushed, and a push sent again carries the same collapse id. In a fleet of three
  relays on PostgreSQL, the relay holding the fan-out dies and another takes it over.

Deadlines are multiples of the time the first notification took (a slow machine gets longer)."""

import json
import time

import pytest
import requests

from cluster import (API_TOKEN, FCM_MOCK_BIN, HMS_MOCK_BIN, MOCK_BIN, RELAY_BIN, USERS, WEBPUSH_MOCK_BIN, Cluster, Fleet,
                     payload, pgcluster, provider_of, token_for)

HEADERS = {"Api-Token": API_TOKEN}
TEMPLATES = """    notifications:
      templates:
        shipped:
          title: "Shipped"
          body: "Order {order} is on its way"
          translations:
            de: {title: "Versandt", body: "Bestellung {order} ist unterwegs"}
"""


def wait(condition, deadline_s: float, step: float = 0.1):
    until = time.monotonic() + deadline_s
    while time.monotonic() < until:
        if condition():
            return True
        time.sleep(step)
    return condition()


def received(cluster: Cluster, notification_id: int) -> list:
    """(provider, token, the text shown, collapse id) of every push of this notification the mocks got."""
    got = []
    for record in cluster.recorded():
        details = payload(record).get("push_notification") or {}
        if details.get("id") == notification_id:
            got.append(("apns", record["deviceToken"], payload(record)["aps"]["alert"]["body"],
                        record["headers"].get("apns-collapse-id")))
    for provider, records in (("fcm", cluster.fcm_recorded()), ("hms", cluster.hms_recorded())):
        for record in records:
            details = json.loads(record["data"].get("push_notification", "{}"))
            if details.get("id") == notification_id:
                got.append((provider, record["token"], record["data"]["body"], None))
    for record in cluster.webpush_recorded():
        message = json.loads(record["plaintext"])
        details = (message.get("notification") or {}).get("data") or {}
        if details.get("id") == notification_id:
            got.append(("webpush", cluster.subscription_tokens.get(record["subscription"]), message["notification"]["body"], None))
    return got


def notification(cluster: Cluster, notification_id: int) -> dict:
    url = cluster.urls()[0] if isinstance(cluster, Fleet) else cluster.url
    r = requests.get(f"{url}/v3/notifications/{notification_id}", headers=HEADERS, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.timeout(600)
@pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, MOCK_BIN, FCM_MOCK_BIN, HMS_MOCK_BIN, WEBPUSH_MOCK_BIN)),
                    reason="build first (scripts/test does)")
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_a_topic_reaches_every_subscriber_in_their_language_once(tmp_path, store):
    cluster = Cluster(tmp_path, store=store, fcm=True, hms=True, webpush=True, app_config=TEMPLATES)
    try:
        cluster.register_users()
        http = requests.Session()
        http.headers.update(HEADERS)
        german = {u for u in range(USERS) if u % 3 == 0}
        for user in german:
            r = http.put(f"{cluster.url}/v3/users/u{user}", json={"preferred_languages": ["de"]}, timeout=30)
            assert r.status_code == 200, r.text
        quiet = 7   # do-not-disturb all day
        r = http.put(f"{cluster.url}/v3/users/u{quiet}/push_preference", timeout=30, json={
            "do_not_disturb": True, "start_hour": 0, "start_min": 0, "end_hour": 23, "end_min": 59, "timezone": "UTC"})
        assert r.status_code == 200, r.text
        # The app's server subscribes most users; one user subscribes with their own session.
        r = http.post(f"{cluster.url}/v3/topics/orders/subscribers", json={"user_ids": [f"u{u}" for u in range(1, USERS)]},
                      timeout=30)
        assert r.status_code == 200 and r.json()["added"] == USERS - 1, r.text
        session = http.post(f"{cluster.url}/v3/users/u0/token", json={}, timeout=30).json()["token"]
        r = requests.put(f"{cluster.url}/v3/users/u0/topics/orders", headers={"Session-Token": session}, timeout=30)
        assert r.status_code == 200, r.text

        body = {"topic": "orders", "template": "shipped", "variables": {"order": "A-17"}}
        started = time.monotonic()
        first = http.post(f"{cluster.url}/v3/notifications", json=body, headers={"Idempotency-Key": "order-A-17"}, timeout=30)
        assert first.status_code == 200, first.text
        nid = first.json()["notification_id"]
        expected = {(provider_of(t), t) for u in range(USERS) if u != quiet for t in cluster.tokens_of(u)}
        assert wait(lambda: len(received(cluster, nid)) >= len(expected), 120), (len(received(cluster, nid)), len(expected))
        deadline = max(10 * (time.monotonic() - started), 10)

        got = received(cluster, nid)
        assert {(p, t) for p, t, _, _ in got} == expected and len(got) == len(expected)
        for provider, token, text, collapse in got:
            user = next(u for u in range(USERS) if token in cluster.tokens_of(u))
            assert text == ("Bestellung A-17 ist unterwegs" if user in german else "Order A-17 is on its way"), (user, text)
            assert provider != "apns" or collapse == f"notification-{nid}"
        log = http.get(f"{cluster.url}/v3/push/deliveries", params={"notification_id": nid, "user_id": f"u{quiet}"},
                       timeout=30).json()
        assert log["decision"] == "do_not_disturb" and log["notification_id"] == nid, log

        # The retry of the same request: the first answer, and nothing more sent.
        again = http.post(f"{cluster.url}/v3/notifications", json=body, headers={"Idempotency-Key": "order-A-17"}, timeout=30)
        assert again.status_code == 200 and again.text == first.text and again.headers["Idempotent-Replayed"] == "true"
        reused = http.post(f"{cluster.url}/v3/notifications", json={**body, "variables": {"order": "B-2"}},
                           headers={"Idempotency-Key": "order-A-17"}, timeout=30)
        assert reused.status_code == 422, reused.text

        # A time-sensitive one passes do-not-disturb; once it is all out, the first has no more pushes.
        urgent = http.post(f"{cluster.url}/v3/notifications", timeout=30, json={
            "user_ids": [f"u{quiet}"], "title": "Gate change", "body": "Now boarding at B7", "time_sensitive": True})
        assert urgent.status_code == 200, urgent.text
        uid = urgent.json()["notification_id"]
        assert wait(lambda: len(received(cluster, uid)) == len(cluster.tokens_of(quiet)), deadline)
        assert len(received(cluster, nid)) == len(expected)
        listed = http.get(f"{cluster.url}/v3/notifications", timeout=30).json()["notifications"]
        assert [n["notification_id"] for n in listed] == [uid, nid]

        # The counts equal what the mocks received.
        assert wait(lambda: notification(cluster, nid)["counts"]["sent"] == len(expected), deadline)
        read = notification(cluster, nid)
        assert read["state"] == "done" and read["planned_users"] == USERS, read
        counts = read["counts"]
        assert counts["skipped"] == {"do_not_disturb": 1} and counts["pushed_users"] == USERS - 1, counts
        assert counts["deliveries"] == {"sent": len(expected)}, counts
    finally:
        cluster.stop()


AUDIENCE = 100_000
WITH_TOKENS = 1_000   # every hundredth user holds an APNs token; the others are decided "no_token"


@pytest.mark.timeout(900)
@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_sigkill_during_a_large_fan_out_loses_no_user(tmp_path, store):
    cluster = Cluster(tmp_path, store=store)
    try:
        http = requests.Session()
        http.headers.update(HEADERS)
        users = [f"u{n:06d}" for n in range(AUDIENCE)]
        for start in range(0, AUDIENCE, 10_000):
            r = http.post(f"{cluster.url}/v3/topics/everyone/subscribers", json={"user_ids": users[start:start + 10_000]},
                          timeout=120)
            assert r.status_code == 200, r.text
        holders = {users[n]: token_for(n) for n in range(0, AUDIENCE, AUDIENCE // WITH_TOKENS)}
        for user, token in holders.items():
            r = http.post(f"{cluster.url}/v3/users/{user}/push/apns", json={"apns_device_token": token}, timeout=30)
            assert r.status_code == 200, r.text

        r = http.post(f"{cluster.url}/v3/notifications", json={"topic": "everyone", "body": "Season finale tonight"},
                      timeout=30)
        assert r.status_code == 200, r.text
        nid = r.json()["notification_id"]

        def planned():
            with cluster.lock:
                url = cluster.url
            try:
                listed = requests.get(f"{url}/v3/notifications", headers=HEADERS, timeout=30).json()["notifications"]
            except requests.RequestException:
                return 0
            return next(n["planned_users"] for n in listed if n["notification_id"] == nid)

        kills = 0
        for threshold in (AUDIENCE // 4, AUDIENCE * 3 // 5):
            assert wait(lambda: planned() >= threshold, 300, step=0.02), planned()
            if planned() >= AUDIENCE:
                break
            cluster.kill_relay()
            kills += 1
            assert cluster.integrity() == "ok"
            cluster.start_relay()
        assert kills >= 1, "the fan-out finished before the first kill: nothing was tested"
        # A relay started after a kill goes on from the last committed batch.
        assert wait(lambda: notification(cluster, nid)["state"] == "done", 300, step=0.5)
        read = notification(cluster, nid)
        counts = read["counts"]
        print(f"\n{store}: {kills} kills during the fan-out of {AUDIENCE} users; counts {counts}")
        assert read["planned_users"] == AUDIENCE
        assert counts["pushed_users"] == WITH_TOKENS and counts["skipped"] == {"no_token": AUDIENCE - WITH_TOKENS}, counts
        # Every token pushed; one sent again (in flight at a kill) carries the same collapse id.
        assert wait(lambda: {r["deviceToken"] for r in cluster.recorded()} >= set(holders.values()), 120)
        collapse = {r["headers"].get("apns-collapse-id") for r in cluster.recorded()}
        assert collapse == {f"notification-{nid}"}, collapse
        assert counts["deliveries"].get("pending", 0) + counts["deliveries"].get("in_flight", 0) + \
            counts["deliveries"].get("sent", 0) == WITH_TOKENS
    finally:
        cluster.stop()


@pytest.mark.timeout(600)
@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_a_fleet_goes_on_when_the_relay_holding_the_fan_out_dies(tmp_path):
    audience, holders_every = 30_000, 100
    fleet = Fleet(tmp_path, size=3)
    try:
        http = requests.Session()
        http.headers.update(HEADERS)
        users = [f"u{n:06d}" for n in range(audience)]
        for start in range(0, audience, 10_000):
            r = http.post(f"{fleet.url}/v3/topics/everyone/subscribers", json={"user_ids": users[start:start + 10_000]},
                          timeout=120)
            assert r.status_code == 200, r.text
        holders = {users[n]: token_for(n) for n in range(0, audience, holders_every)}
        for user, token in holders.items():
            r = http.post(f"{fleet.url}/v3/users/{user}/push/apns", json={"apns_device_token": token}, timeout=30)
            assert r.status_code == 200, r.text
        r = http.post(f"{fleet.url}/v3/notifications", json={"topic": "everyone", "body": "Fleet-wide"}, timeout=30)
        assert r.status_code == 200, r.text
        nid = r.json()["notification_id"]

        def holder():
            rows = pgcluster.cluster().psql(fleet.database, f"SELECT lease_owner, planned_users FROM notifications WHERE id = {nid}")
            return rows[0] if rows else ["", "0"]

        assert wait(lambda: int(holder()[1]) >= audience // 5, 300, step=0.02), holder()
        owner, planned = holder()
        if int(planned) < audience:
            # The holder dies for good: another relay takes the notification once its hold expires.
            fleet.kill(int(owner.rsplit("-", 1)[1]))
        assert wait(lambda: notification(fleet, nid)["state"] == "done", 300, step=0.5)
        read = notification(fleet, nid)
        counts = read["counts"]
        print(f"\nfleet: the holder {owner} killed at {planned} of {audience} users; taken over by {holder()[0]}; {counts}")
        assert read["planned_users"] == audience
        assert counts["pushed_users"] == len(holders) and counts["skipped"] == {"no_token": audience - len(holders)}
        assert wait(lambda: {r["deviceToken"] for r in fleet.recorded()} >= set(holders.values()), 120)
        assert {r["headers"].get("apns-collapse-id") for r in fleet.recorded()} == {f"notification-{nid}"}
    finally:
        fleet.stop()
