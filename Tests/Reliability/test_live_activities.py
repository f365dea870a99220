"""Live Activities end to end: the real `push-relay serve` and `apns-mock`, which knows each Live
Activity token's kind (a push-to-start token takes only a start, an update token only updates and
the end) and checks Apple's topic and payload rules. A user's push-to-start token is registered
through REST, the app's server starts an activity (to that token), the device registers the new
activity's update token, the server updates it (priority 5, then 10, counted) and ends it with an
immediate dismissal: afterwards the activity and its token are gone. A push-to-start token the
mock calls unregistered is removed. Chat pushes to the same user are unaffected.

Deadlines are multiples of the time the first push took."""

import time
from urllib.parse import quote

import pytest
import requests

from apns_rig import TOPIC, Rig, single
from cluster import MOCK_BIN, RELAY_BIN

START = "a1" * 32
UPDATE = "b2" * 32
DEVICE = "c3" * 32


def mark(rig, token, kind):
    requests.post(f"{rig.mocks['production']['admin']}/live-activity-token", json={"token": token, "kind": kind},
                  timeout=10).raise_for_status()


@pytest.mark.timeout(300)
@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_an_activity_is_started_updated_and_ended_and_its_token_is_gone(tmp_path):
    rig = Rig(tmp_path)
    try:
        mark(rig, START, "start")
        mark(rig, UPDATE, "update")
        assert rig.register("alice", DEVICE).status_code == 200
        r = rig.http.post(f"{rig.url}/v3/users/alice/live_activity_start_tokens",
                          json={"attributes_type": "DeliveryAttributes", "token": START.upper()}, timeout=30)
        assert r.status_code == 200 and r.json()["token"] == START, r.text

        started_at = time.monotonic()
        r = rig.http.post(f"{rig.url}/v3/live_activities", json={
            "activity_id": "order-42", "user_id": "alice", "attributes_type": "DeliveryAttributes",
            "attributes": {"order": 42}, "content_state": {"eta": "12:30"},
            "alert": {"title": "On its way", "body": "Order 42"}}, timeout=30)
        assert r.status_code == 200 and r.json()["queued"] == 1, r.text
        assert r.json()["live_activity"]["state"] == "started"
        assert rig.wait(lambda: len(rig.notifications()) == 1, 60)
        first = time.monotonic() - started_at
        deadline = max(10 * first, 10)
        start = rig.notifications()[0]
        assert start["deviceToken"] == START
        assert start["headers"]["apns-topic"] == TOPIC + ".push-type.liveactivity"
        assert start["headers"]["apns-push-type"] == "liveactivity" and start["headers"]["apns-priority"] == "5"
        aps = start["payload"]["aps"]
        assert aps["event"] == "start" and aps["attributes-type"] == "DeliveryAttributes" and aps["input-push-token"] == 1
        assert aps["content-state"] == {"eta": "12:30"} and aps["attributes"] == {"order": 42}

        # An update before the device said where: refused, nothing sent.
        r = rig.http.post(f"{rig.url}/v3/live_activities/order-42/update", json={"content_state": {"eta": "12:40"}}, timeout=30)
        assert r.status_code == 400 and "update token" in r.json()["message"], r.text
        # The device registers the activity's update token with its session (here: the server's token).
        r = rig.http.put(f"{rig.url}/v3/users/alice/live_activities/order-42/token", json={"token": UPDATE}, timeout=30)
        assert r.status_code == 200 and r.json()["update_token"] == UPDATE, r.text

        for priority in (None, 10):
            body = {"content_state": {"eta": "12:40"}, "stale_date": int(time.time()) + 600}
            if priority:
                body["priority"] = priority
            r = rig.http.post(f"{rig.url}/v3/live_activities/order-42/update", json=body, timeout=30)
            assert r.status_code == 200 and r.json()["queued"] == 1, r.text
        assert rig.wait(lambda: len(rig.notifications()) == 3, deadline)
        updates = rig.notifications()[1:]
        assert [n["deviceToken"] for n in updates] == [UPDATE, UPDATE]
        assert sorted(n["headers"]["apns-priority"] for n in updates) == ["10", "5"]
        assert all(n["payload"]["aps"]["event"] == "update" for n in updates)
        activity = rig.http.get(f"{rig.url}/v3/live_activities/order-42", timeout=30).json()
        assert activity["state"] == "active" and activity["high_priority_pushes"] == 1, activity

        r = rig.http.post(f"{rig.url}/v3/live_activities/order-42/end",
                          json={"content_state": {"eta": "delivered"}, "dismissal_date": int(time.time())}, timeout=30)
        assert r.status_code == 200 and r.json()["queued"] == 1 and "live_activity" not in r.json(), r.text
        assert rig.wait(lambda: len(rig.notifications()) == 4, deadline)
        end = rig.notifications()[3]
        assert end["deviceToken"] == UPDATE and end["payload"]["aps"]["event"] == "end"
        assert "dismissal-date" in end["payload"]["aps"]
        # Gone, with its token; the user's list is empty, a further update is not found (400201).
        assert rig.http.get(f"{rig.url}/v3/live_activities/order-42", timeout=30).json()["code"] == 400201
        assert rig.http.get(f"{rig.url}/v3/users/alice/live_activities", timeout=30).json()["live_activities"] == []
        r = rig.http.post(f"{rig.url}/v3/live_activities/order-42/update", json={"content_state": {}}, timeout=30)
        assert r.json()["code"] == 400201, r.text

        # The pushes are in the user's delivery log, sent.
        log = rig.http.get(f"{rig.url}/v3/users/alice/push/deliveries", timeout=30).json()["deliveries"]
        live = [d for d in log if d["push_type"] == "liveactivity"]
        assert len(live) == 4 and all(d["message_id"] == 0 for d in live), live
        assert rig.wait(lambda: all(d["state"] == "sent" for d in rig.http.get(
            f"{rig.url}/v3/users/alice/push/deliveries", timeout=30).json()["deliveries"] if d["push_type"] == "liveactivity"),
            deadline)

        # A chat message still reaches the device token, not the Live Activity tokens.
        rig.webhook(1, ["alice"])
        assert rig.wait(lambda: any(n["deviceToken"] == DEVICE for n in rig.notifications()), deadline)

        # A push-to-start token the provider calls unregistered is removed.
        requests.post(f"{rig.mocks['production']['admin']}/unregister", json={"token": START, "timestamp_ms": int(time.time() * 1000) + 60_000},
                      timeout=10).raise_for_status()
        r = rig.http.post(f"{rig.url}/v3/live_activities", json={
            "activity_id": "order-43", "user_id": "alice", "attributes_type": "DeliveryAttributes",
            "attributes": {"order": 43}, "content_state": {"eta": "13:00"}}, timeout=30)
        assert r.status_code == 200, r.text
        assert rig.wait(lambda: rig.http.get(f"{rig.url}/v3/users/alice/live_activity_start_tokens", timeout=30)
                        .json()["start_tokens"] == [], deadline)
    finally:
        rig.stop()


@pytest.mark.timeout(120)
@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_bad_input_is_a_clear_400_and_a_session_reaches_only_its_user(tmp_path):
    rig = Rig(tmp_path)
    try:
        url = rig.url
        for body, field in [
            ({"user_id": "u", "attributes_type": "T", "attributes": {}, "content_state": {}}, "activity_id"),
            ({"activity_id": "a", "attributes_type": "T", "attributes": {}, "content_state": {}}, "user_id"),
            ({"activity_id": "a", "user_id": "u", "attributes_type": "T", "content_state": {}}, "attributes"),
            ({"activity_id": "a", "user_id": "u", "attributes_type": "T", "attributes": {}, "content_state": {}, "priority": 7},
             "priority"),
            ({"activity_id": "a", "user_id": "u", "attributes_type": "T", "attributes": {}, "content_state": "x"}, "content_state"),
        ]:
            r = rig.http.post(f"{url}/v3/live_activities", json=body, timeout=30)
            assert r.status_code == 400 and r.json()["error"] is True and field in r.json()["message"], (body, r.text)
        r = rig.http.post(f"{url}/v3/users/u/live_activity_start_tokens", json={"attributes_type": "T", "token": "xyz"}, timeout=30)
        assert r.status_code == 400 and "xyz" not in r.text, r.text
        # A session token of another user: 403; none: 401.
        session = rig.http.post(f"{url}/v3/users/u/token", json={}, timeout=30).json()["token"]
        r = requests.post(f"{url}/v3/users/v/live_activity_start_tokens", json={"attributes_type": "T", "token": START},
                          headers={"Session-Token": session}, timeout=30)
        assert r.status_code == 403, r.text
        r = requests.post(f"{url}/v3/live_activities/a/update", json={"content_state": {}}, headers={"Session-Token": session},
                          timeout=30)
        assert r.status_code == 403, r.text
        r = requests.put(f"{url}/v3/users/u/live_activities/a/token", json={"token": UPDATE}, headers={"Session-Token": session},
                         timeout=30)
        assert r.status_code == 200, r.text
    finally:
        rig.stop()


@pytest.mark.timeout(300)
@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_a_broadcast_channel_is_created_broadcast_to_and_deleted(tmp_path):
    """iOS 18 broadcast push: the relay creates the channel through the mock's channel management
    API (its own port), keeps it, sends a broadcast update to it through the queue, and deletes it."""
    rig = Rig(tmp_path, mock_args=("--manage-port", "0"), apns=lambda mocks, auth, ca: (
        single(mocks, auth, ca) + f"      channel_management: \"{mocks['production']['manage']}\"\n"))
    try:
        r = rig.http.post(f"{rig.url}/v3/live_activity_channels", json={"message_storage_policy": 1, "name": "final"},
                          timeout=30)
        assert r.status_code == 200, r.text
        channel = r.json()
        assert channel["message_storage_policy"] == 1 and channel["name"] == "final" and channel["channel_id"]
        cid = channel["channel_id"]
        listed = rig.http.get(f"{rig.url}/v3/live_activity_channels", timeout=30).json()["channels"]
        assert [c["channel_id"] for c in listed] == [cid]

        started = time.monotonic()
        r = rig.http.post(f"{rig.url}/v3/live_activity_channels/{quote(cid, safe='')}/broadcast",
                          json={"content_state": {"score": "2-1"}, "priority": 10}, timeout=30)
        assert r.status_code == 200 and r.json()["queued"] == 1, r.text
        assert rig.wait(lambda: len(rig.notifications()) == 1, 60)
        deadline = max(10 * (time.monotonic() - started), 10)
        sent = rig.notifications()[0]
        assert sent["deviceToken"] == cid and sent["headers"]["apns-channel-id"] == cid
        assert sent["headers"]["apns-push-type"] == "liveactivity" and sent["headers"]["apns-priority"] == "10"
        assert sent["payload"]["aps"]["event"] == "update" and sent["payload"]["aps"]["content-state"] == {"score": "2-1"}

        r = rig.http.post(f"{rig.url}/v3/live_activity_channels/{quote(cid, safe='')}/broadcast",
                          json={"event": "end", "dismissal_date": int(time.time())}, timeout=30)
        assert r.status_code == 200, r.text
        assert rig.wait(lambda: len(rig.notifications()) == 2, deadline)
        assert rig.notifications()[1]["payload"]["aps"]["event"] == "end"

        r = rig.http.delete(f"{rig.url}/v3/live_activity_channels/{quote(cid, safe='')}", timeout=30)
        assert r.status_code == 200 and r.json() == {"channel_id": cid, "deleted": True, "known_to_apns": True}, r.text
        assert rig.http.get(f"{rig.url}/v3/live_activity_channels", timeout=30).json()["channels"] == []
        r = rig.http.post(f"{rig.url}/v3/live_activity_channels/{quote(cid, safe='')}/broadcast",
                          json={"content_state": {}}, timeout=30)
        assert r.json()["code"] == 400201, r.text
        # A storage policy Apple does not define is refused before APNs is asked.
        r = rig.http.post(f"{rig.url}/v3/live_activity_channels", json={"message_storage_policy": 2}, timeout=30)
        assert r.status_code == 400 and "message_storage_policy" in r.json()["message"], r.text
    finally:
        rig.stop()
