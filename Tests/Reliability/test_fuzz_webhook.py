"""Webhook bad-input fuzzing (property-based, hypothesis) against the real `push-relay serve`.

Properties for every generated body: never a 5xx and never a crash; every error is a 4xx with a
Sendbird error body (`message` string, `code` int, `error` true); a request the relay rejects
stores nothing (the events table does not change). Bodies are correctly signed unless the case
is about signatures, so they reach the parser. Knob: FUZZ_EXAMPLES (default 300 per property).
"""

import hashlib
import hmac
import json
import os

import pytest
import requests

pytest.importorskip("hypothesis", reason="hypothesis is not installed: pip install -r scripts/requirements-test.txt (docs/testing.md)")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st

from fuzz_support import API_TOKEN, APP_ID

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
session = requests.Session()


def sign(body: bytes) -> str:
    return hmac.new(API_TOKEN.encode(), body, hashlib.sha256).hexdigest()


def events_count(relay) -> int:
    return relay.count("SELECT COUNT(*) FROM events")


def post(relay, body: bytes, signature=None):
    headers = {"Content-Type": "application/json", "x-sendbird-signature": signature if signature is not None else sign(body)}
    return session.post(f"{relay.url}/webhooks/sendbird", data=body, headers=headers, timeout=30)


def check(relay, response, before):
    if response.status_code >= 500:
        ready = session.get(f"{relay.url}/ready", timeout=30)
        raise AssertionError((response.status_code, response.text[:300], "/ready:", ready.status_code, ready.text[:300]))
    assert relay.process.poll() is None, "the relay died"
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("message"), str) and body["message"], body
        assert isinstance(body.get("code"), int), body
        assert body.get("error") is True, body
        assert events_count(relay) == before, "a rejected request stored an event"


def replace(event, path, value):
    """Sets `value` at `path` (keys; a list is entered at its last element), making objects on
    the way where there are none."""
    node = event
    for key in path[:-1]:
        child = node.get(key) if isinstance(node, dict) else None
        if isinstance(child, list) and child:
            child = child[-1]
        if not isinstance(child, dict):
            child = {}
            node[key] = child
        node = child
    node[path[-1]] = value


def valid_event(message_id=1):
    return {"category": "group_channel:message_send", "app_id": APP_ID, "type": "MESG",
            "sender": {"user_id": "alice", "nickname": "Alice"},
            "members": [{"user_id": "alice", "is_online": True, "state": "joined"},
                        {"user_id": "bob", "is_online": False, "state": "joined"}],
            "payload": {"message_id": message_id, "created_at": 1700000000000, "message": "hi"},
            "channel": {"channel_url": "c1", "name": "C"}}


def test_a_valid_event_reaches_bobs_three_kinds_of_device(relay):
    """The fuzzed events are planned as real ones: bob holds an APNs, an FCM and an HMS token."""
    message_id = 7_000_000_001
    r = post(relay, json.dumps(valid_event(message_id)).encode())
    assert r.status_code == 200, r.text
    kinds = relay.count(f"SELECT COUNT(DISTINCT push_type) FROM deliveries WHERE message_id = {message_id}")
    assert kinds == 3, "alert (APNs), fcm and hms"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=50),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=20)


@FUZZ
@given(body=st.binary(max_size=2000))
def test_arbitrary_bytes(relay, body):
    before = events_count(relay)
    check(relay, post(relay, body), before)


@FUZZ
@given(path=st.lists(st.sampled_from(["category", "app_id", "type", "sender", "members", "payload", "channel",
                                      "message_id", "user_id", "is_online", "state", "channel_url", "mention_type",
                                      "mentioned_users", "silent", "push_notification_delivery_option"]),
                     min_size=1, max_size=3),
       value=json_values, message_id=st.integers(min_value=1, max_value=2**62))
def test_a_valid_event_with_one_field_replaced(relay, path, value, message_id):
    event = valid_event(message_id)
    replace(event, path, value)
    before = events_count(relay)
    check(relay, post(relay, json.dumps(event).encode()), before)


def valid_read_event(read_ts):
    return {"category": "group_channel:message_read", "app_id": APP_ID, "channel": {"channel_url": "c1"},
            "read_updates": [{"user_id": "bob", "read_ts": read_ts, "channel_unread_message_count": 0,
                              "total_unread_message_count": read_ts % 7}],
            "members": [{"user_id": "bob", "total_unread_message_count": read_ts % 7}]}


@FUZZ
@given(path=st.lists(st.sampled_from(["category", "app_id", "channel", "channel_url", "read_updates", "user_id", "read_ts",
                                      "total_unread_message_count", "members"]), min_size=1, max_size=3),
       value=json_values, read_ts=st.integers(min_value=1, max_value=2**62))
def test_a_valid_read_event_with_one_field_replaced(relay, path, value, read_ts):
    """The badge-sync category (`badge_sync: true` in this relay's app): never a 5xx, and a
    refused event changes no badge."""
    event = valid_read_event(read_ts)
    replace(event, path, value)
    badges = relay.count("SELECT COUNT(*) FROM badges") + relay.count("SELECT COALESCE(SUM(badge), 0) FROM badges")
    before = events_count(relay)
    response = post(relay, json.dumps(event).encode())
    check(relay, response, before)
    if response.status_code >= 400:
        after = relay.count("SELECT COUNT(*) FROM badges") + relay.count("SELECT COALESCE(SUM(badge), 0) FROM badges")
        assert after == badges, "a refused read event changed a badge"


@FUZZ
@given(body=json_values)
def test_any_json_value(relay, body):
    before = events_count(relay)
    check(relay, post(relay, json.dumps(body).encode()), before)


# Header values HTTP allows: visible ASCII, spaces and tabs inside.
header_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=80).map(str.strip)


@FUZZ
@given(signature=header_text | st.binary(max_size=64).map(bytes.hex))
def test_bad_signatures_are_401_and_store_nothing(relay, signature):
    body = json.dumps(valid_event(7_000_000)).encode()
    if signature == sign(body):
        return
    before = events_count(relay)
    response = post(relay, body, signature=signature)
    check(relay, response, before)
    assert response.status_code == 401, response.status_code


def test_a_header_http_forbids_is_a_protocol_error_not_a_crash(relay):
    """A control character in a header value breaks HTTP/1.1 itself: the server's HTTP parser
    answers 400 and closes the connection before any route runs (no Sendbird body: there is no
    request to answer). The relay keeps serving."""
    import http.client
    host, port = relay.url.split("//")[1].split(":")
    body = json.dumps(valid_event(7_000_001)).encode()
    before = events_count(relay)
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.putrequest("POST", "/webhooks/sendbird")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("x-sendbird-signature", "\x1b")
    connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    assert connection.getresponse().status == 400
    assert events_count(relay) == before
    assert post(relay, json.dumps(valid_event(7_000_002)).encode()).status_code == 200


def test_deep_nesting_huge_strings_invalid_utf8_and_too_many_members(relay):
    cases = [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
        json.dumps({**valid_event(8_000_001), "payload": {"message_id": 8_000_001, "message": "x" * 900_000}}).encode(),
        json.dumps(valid_event(8_000_002)).encode().replace(b'"hi"', b'"\xff\xfe\xc3"'),
        json.dumps({**valid_event(8_000_003), "members": [{"user_id": f"u{i}", "state": "joined"} for i in range(200_000)]}).encode(),
        b"{" + b" " * (3 * 1024 * 1024) + b"}",
    ]
    answers = []
    for body in cases:
        before = events_count(relay)
        response = post(relay, body)
        check(relay, response, before)
        answers.append(response.status_code)
    print(f"\nhostile bodies answered {answers}")
    # And a normal event is still accepted afterwards.
    response = post(relay, json.dumps(valid_event(8_000_100)).encode())
    assert response.status_code == 200, response.text


def test_made_up_categories_do_not_become_metric_series(relay):
    """An unsigned (or unknown-app) body's category is anyone's: it must not create a time
    series per value, or /metrics and memory grow without bound."""
    for n in range(50):
        event = valid_event(900_000 + n)
        event["category"] = f"made-up-category-{n}"
        body = json.dumps(event).encode()
        assert post(relay, body, signature="0" * 64).status_code == 401
        event["app_id"] = f"no-such-app-{n}"
        assert post(relay, json.dumps(event).encode()).status_code == 404
    metrics = session.get(f"{relay.url}/metrics", timeout=10).text
    assert "made-up-category" not in metrics
    assert "no-such-app" not in metrics
    assert 'pushrelay_webhook_events_total{category="other",result="bad_signature"}' in metrics
