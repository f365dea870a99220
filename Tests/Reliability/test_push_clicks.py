"""Push clicks end to end, on each store: the real `push-relay serve` sends one message to a user's
APNs, FCM and HMS tokens (apns-mock, fcm-mock, hms-mock); each device's payload carries
`sendbird.push_tracking_id`, which comes back in the request Sendbird's SDKs post for
`markPushNotificationAsClicked` (`POST /v3/sdk/push_delivery` with `"event_type": "CLICKED"`) or
on `POST /v3/sdk/push_click`. The delivery log shows each first click (`clicked_at`) and the
acknowledgement it implies; a second click changes nothing; another user's session gets 400201,
an unknown event type 400111; /metrics counts the clicks per app (the open rate's numerator).
"""

import json
import time

import pytest
import requests

from cluster import (API_TOKEN, APP_ID, FCM_MOCK_BIN, HMS_MOCK_BIN, MOCK_BIN, RELAY_BIN, Cluster, fcm_token_for,
                     hms_token_for, payload, token_for)

USER = 3  # all_provider_tokens: user 3 holds one token of each kind
MESSAGE_ID = 9_100_001


def metric_sum(text: str, name: str, **labels) -> float:
    total = 0.0
    for line in text.splitlines():
        if (line.startswith(name + "{") or line.startswith(name + " ")) and all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


def event() -> bytes:
    """Message 9100001 in a channel where u0 (online) writes to u3 (offline)."""
    body = {"category": "group_channel:message_send", "app_id": APP_ID, "type": "MESG",
            "sender": {"user_id": "u0", "nickname": "Sender"},
            "members": [{"user_id": "u0", "nickname": "sender", "is_online": True, "state": "joined"},
                        {"user_id": f"u{USER}", "nickname": "reader", "is_online": False, "state": "joined"}],
            "payload": {"message_id": MESSAGE_ID, "created_at": 1700000000000, "message": "open me"},
            "channel": {"channel_url": "ch-clicks", "name": "Clicks"}}
    return json.dumps(body, separators=(",", ":")).encode()


def tracking_ids(cluster: Cluster, deadline_s: float) -> dict:
    """The push_tracking_id each of u3's devices got, by provider, once all three mocks have one."""
    deadline = time.monotonic() + deadline_s
    while True:
        got = {}
        for r in cluster.recorded():
            if r["deviceToken"] == token_for(USER):
                got["apns"] = payload(r)["sendbird"]["push_tracking_id"]
        for r in cluster.fcm_recorded():
            if r["token"] == fcm_token_for(USER):
                got["fcm"] = json.loads(r["data"]["sendbird"])["push_tracking_id"]
        for r in cluster.hms_recorded():
            if r["token"] == hms_token_for(USER):
                got["hms"] = json.loads(r["data"]["sendbird"])["push_tracking_id"]
        if len(got) == 3 or time.monotonic() > deadline:
            return got
        time.sleep(0.1)


def sdk_body(token: str, tracking: str, event_type=None) -> dict:
    """What Sendbird's SDKs post (`markPushNotificationAsDelivered` / `…AsClicked`)."""
    body = {"device_token": token, "push_tracking_id": tracking, "message_id": MESSAGE_ID,
            "channel_key": "ch-clicks", "template_key": "default"}
    if event_type is not None:
        body["event_type"] = event_type
    return body


@pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, MOCK_BIN, FCM_MOCK_BIN, HMS_MOCK_BIN)),
                    reason="build first (scripts/test does)")
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_clicks_on_every_provider_are_logged_once_and_counted(tmp_path, store):
    cluster = Cluster(tmp_path, store=store, fcm=True, hms=True)
    http = requests.Session()
    server = {"Api-Token": API_TOKEN}
    try:
        cluster.register_users()
        assert cluster.post_event(http, event()).status_code == 200
        tracking = tracking_ids(cluster, deadline_s=120)
        assert set(tracking) == {"apns", "fcm", "hms"}, tracking
        assert len(set(tracking.values())) == 1, "one tracking id per recipient, on every device"
        tid = tracking["apns"]
        session = http.post(f"{cluster.url}/v3/users/u{USER}/token", headers=server, timeout=10).json()["token"]
        device = {"Session-Token": session}
        other = {"Session-Token": http.post(f"{cluster.url}/v3/users/u1/token", headers=server, timeout=10).json()["token"]}

        def post(path, body, headers):
            return http.post(f"{cluster.url}/v3/sdk/{path}", json=body, headers=headers, timeout=10)

        # Refused, and nothing recorded: another user's session, an event type Sendbird has not.
        for path in ("push_delivery", "push_click"):
            r = post(path, sdk_body(token_for(USER), tid, "CLICKED"), other)
            assert r.status_code == 400 and r.json()["code"] == 400201, r.text
        r = post("push_delivery", sdk_body(token_for(USER), tid, "OPENED"), device)
        assert r.status_code == 400 and r.json()["code"] == 400111 and "CLICKED" in r.json()["message"], r.text

        # APNs as the iOS SDK posts it; FCM on push_click with the server's token; HMS delivered,
        # then opened.
        assert post("push_delivery", sdk_body(token_for(USER).upper(), tid, "CLICKED"), device).json() == {}
        assert post("push_click", sdk_body(fcm_token_for(USER), tid), server).json() == {}
        assert post("push_delivery", sdk_body(hms_token_for(USER), tid, "DELIVERED"), device).json() == {}
        assert post("push_click", sdk_body(hms_token_for(USER), tid, "CLICKED"), device).json() == {}

        def log():
            r = http.get(f"{cluster.url}/v3/push/deliveries", params={"message_id": MESSAGE_ID, "user_id": f"u{USER}"},
                         headers=server, timeout=10)
            assert r.status_code == 200, r.text
            return {d["provider"]: d for d in r.json()["deliveries"]}

        first = log()
        assert set(first) == {"apns", "fcm", "hms"}, first
        for provider, delivery in first.items():
            assert delivery.get("clicked_at") is not None, (provider, delivery)
            assert delivery["acknowledged_at"] <= delivery["clicked_at"], (provider, delivery)
        assert first["apns"]["acknowledged_at"] == first["apns"]["clicked_at"], "the click acknowledged it"

        # A second click, each way: the first times stand, and the counters count each push once.
        for token in (token_for(USER), fcm_token_for(USER), hms_token_for(USER)):
            assert post("push_click", sdk_body(token, tid), device).status_code == 200
            assert post("push_delivery", sdk_body(token, tid, "CLICKED"), server).status_code == 200
        again = log()
        for provider in first:
            assert (again[provider]["clicked_at"], again[provider]["acknowledged_at"]) == \
                (first[provider]["clicked_at"], first[provider]["acknowledged_at"]), provider

        metrics = http.get(f"{cluster.url}/metrics", timeout=10).text
        assert metric_sum(metrics, "pushrelay_push_clicks_total", app=APP_ID) == 3, metrics
        assert metric_sum(metrics, "pushrelay_push_acknowledgements_total", app=APP_ID) == 3, metrics
        assert metric_sum(metrics, "pushrelay_pushes_total", app=APP_ID, status="sent") >= 3, metrics
    finally:
        cluster.stop()
