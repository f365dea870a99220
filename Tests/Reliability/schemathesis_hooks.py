"""Schemathesis hooks for test_fuzz_rest.py: every 4xx the relay answers must carry a Sendbird
error body, `{"message": str, "code": int, "error": true}`; and a valid request finds the data it
names.

The relay answers a valid request about a user or a push it does not know 400201 (Sendbird's
"not found", an HTTP 400), which no schema can tell from a valid request, and the fuzzing itself
erases users and removes tokens. So before each valid (positive) request the hook arranges what
it needs, through the API, as a client would: its `{user_id}` is made known (a template choice
written for it), and a device's report of a push (`/v3/sdk/push_delivery`, `push_click`) names a
push just made for it: bob's APNs token registered, a signed event pushed to him, its tracking
id in the body; a test push goes to an HMS token (`test_push_body`); a device token registered under
`/push/{token_type}` is in the field of that type (`token_for_its_path`: the schema cannot tie
the body's field to the path's type, and a body naming only another type's field is refused,
400105); a Live Activity's start finds a push-to-start token of its user and type, its update
or end an activity with an update token, not ended (`live_activity_ready`), and an update
token's registration names the activity's own user; a channel path names a channel just created
(`a_channel`), and a broadcast update carries a content state. Negative requests are sent as
generated."""

import hashlib
import hmac
import itertools
import json
import os
import time
from pathlib import Path
from urllib.parse import quote, unquote

import requests
import schemathesis

RELAY = os.environ.get("FUZZ_RELAY_URL", "")
APP_ID = os.environ.get("FUZZ_APP_ID", "")
API_TOKEN = os.environ.get("FUZZ_API_TOKEN", "")
SAMPLE_EVENT = Path(__file__).resolve().parents[2] / "scripts" / "sample-event.json"
BOB_APNS_TOKEN = "ab" * 32
REPORT_PATHS = ("/v3/sdk/push_delivery", "/v3/sdk/push_click")
TEST_PUSH_PATH = "/v3/push/test"
TOKEN_PATH = "/v3/users/{user_id}/push/{token_type}"
# A valid token of each type, in the field `POST /push/{token_type}` reads.
TOKEN_FIELDS = {
    "apns": ("apns_device_token", "cd" * 32),
    "gcm": ("gcm_reg_token", "fuzz-fcm-token-0123456789"),
    "huawei": ("huawei_device_token", "IQAAAACy0kYkAAD-fuzz-0123456789"),
}
_message_ids = itertools.count(900_000_000)
LIVE_ACTIVITY_PATHS = ("/v3/live_activities/{activity_id}/update", "/v3/live_activities/{activity_id}/end")
LIVE_ACTIVITY_OWNER = "fuzz-activity-owner"
LIVE_ACTIVITY_TYPE = "FuzzAttributes"


def _fnv1a(text: str) -> int:
    value = 0xCBF29CE484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def _api(method: str, path: str, **kwargs):
    """One request as the app's server; a 429 (the fuzzer spends the app's request budget too) is
    retried after the wait it names, a few times."""
    for _ in range(10):
        answer = requests.request(method, RELAY + path, headers={"Api-Token": API_TOKEN}, timeout=30, **kwargs)
        if answer.status_code != 429:
            return answer
        time.sleep(min(float(answer.headers.get("Retry-After", "1")), 2))
    return answer


def push_to_bob() -> str:
    """A new message pushed to bob's APNs token; its tracking id."""
    _api("POST", "/v3/users/bob/push/apns", json={"apns_device_token": BOB_APNS_TOKEN})
    message_id = next(_message_ids)
    event = json.loads(SAMPLE_EVENT.read_text())
    event["app_id"] = APP_ID
    event["payload"]["message_id"] = message_id
    body = json.dumps(event).encode()
    signature = hmac.new(API_TOKEN.encode(), body, hashlib.sha256).hexdigest()
    answer = requests.post(RELAY + "/webhooks/sendbird", data=body, timeout=30,
                           headers={"x-sendbird-signature": signature, "Content-Type": "application/json"})
    assert answer.status_code == 200, answer.text
    return f"{message_id}-{_fnv1a('bob'):016x}"


def give_a_device(user: str) -> None:
    """A test push to a user needs one with a device token (else 400201): an HMS token of theirs."""
    token = "IQAAAACy0kYkAAD-" + hashlib.sha256(user.encode()).hexdigest()
    answer = _api("POST", f"/v3/users/{quote(user, safe='')}/push/huawei", json={"huawei_device_token": token})
    assert answer.status_code == 200, answer.text


def test_push_body(body: dict) -> dict:
    """A valid test push, sent to an HMS token. The fuzz relay's providers listen nowhere: the
    APNs and FCM clients queue a push through their reconnect backoff, so each test push to them
    waits out its 5 s deadline (minutes over a run), while HMS's fails at once. What the fuzzer
    checks, the validation and the answer's shape, is the same for every provider."""
    if "user_id" in body:
        give_a_device(body["user_id"])
        return body
    # Only a token a user of the app holds can be tested (else 400201).
    token = "IQAAAACy0kYkAAD-" + "Qa9_" * 20
    answer = _api("POST", "/v3/users/fuzz-device-owner/push/huawei", json={"huawei_device_token": token})
    assert answer.status_code == 200, answer.text
    return {**body, "token_type": "huawei", "device_token": token}


def start_token(user: str, attributes_type: str) -> None:
    token = hashlib.sha256(f"{user}\0{attributes_type}".encode()).hexdigest()
    answer = _api("POST", f"/v3/users/{quote(user, safe='')}/live_activity_start_tokens",
                  json={"attributes_type": attributes_type, "token": token})
    assert answer.status_code == 200, answer.text


def owner_of(activity_id: str):
    """The activity's user and state, or (None, None) when the relay does not know it."""
    answer = _api("GET", f"/v3/live_activities/{quote(activity_id, safe='')}")
    body = answer.json()
    return (body["user_id"], body["state"]) if answer.status_code == 200 else (None, None)


def live_activity_start(body: dict) -> dict:
    """A start's user holds a push-to-start token of its type; an id another user's activity has
    is started for that user."""
    owner, _ = owner_of(body["activity_id"])
    body = {**body, "user_id": owner or body["user_id"]}
    start_token(body["user_id"], body["attributes_type"])
    return body


def live_activity_ready(activity_id: str) -> None:
    """The activity exists, is not ended, and has an update token (as its device would have
    registered): started again when an earlier end left it ended."""
    owner, state = owner_of(activity_id)
    owner = owner or LIVE_ACTIVITY_OWNER
    if state == "ended":
        start_token(owner, LIVE_ACTIVITY_TYPE)
        answer = _api("POST", "/v3/live_activities", json={
            "activity_id": activity_id, "user_id": owner, "attributes_type": LIVE_ACTIVITY_TYPE, "attributes": {},
            "content_state": {}})
        assert answer.status_code == 200, answer.text
    answer = _api("PUT", f"/v3/users/{quote(owner, safe='')}/live_activities/{quote(activity_id, safe='')}/token",
                  json={"token": "ef" * 32})
    assert answer.status_code == 200, answer.text


def a_channel() -> str:
    """A broadcast channel of the app, created through the relay (percent-encoded for a path); one
    made before once the app holds a hundred, far below its cap of 1,000 (a larger run stays under)."""
    held = _api("GET", "/v3/live_activity_channels").json()["channels"]
    if len(held) >= 100:
        return quote(held[-1]["channel_id"], safe="")
    answer = _api("POST", "/v3/live_activity_channels", json={"message_storage_policy": 1})
    assert answer.status_code == 200, answer.text
    return quote(answer.json()["channel_id"], safe="")


def token_for_its_path(case) -> None:
    """A registration's body carries a token in its path's type's field (the generator may have
    filled only another type's)."""
    field = TOKEN_FIELDS.get((case.path_parameters or {}).get("token_type"))
    if field and field[0] not in case.body:
        case.body = {**case.body, field[0]: field[1]}


def an_open_notification() -> str:
    """A notification that can still be cancelled: one scheduled a day ahead (to a topic)."""
    answer = _api("POST", "/v3/notifications",
                  json={"topic": "fuzz", "body": "x", "send_at": int(time.time() * 1000) + 86_400_000})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["notification_id"])


@schemathesis.hook
def before_call(ctx, case, kwargs):
    meta = case.meta
    if not RELAY or meta is None or meta.generation.mode.is_negative:
        return
    # Path parameters are held as they go on the wire, percent-encoded already.
    user = (case.path_parameters or {}).get("user_id")
    if isinstance(user, str) and user:
        _api("PUT", f"/v3/users/{user}/push/template", json={"name": "default"})
    if case.operation.path == TOKEN_PATH and case.method.upper() == "POST" and isinstance(case.body, dict):
        token_for_its_path(case)
    if case.operation.path == TEST_PUSH_PATH and isinstance(case.body, dict):
        case.body = test_push_body(case.body)
    if case.operation.path == "/v3/console/sessions" and case.query:
        # A random name is no console user of the app: the 400 is the right answer, so the
        # positive case ends the app's sessions instead.
        case.query = {k: v for k, v in case.query.items() if k != "user"}
    if case.operation.path == "/v3/live_activities" and isinstance(case.body, dict):
        case.body = live_activity_start(case.body)
    if case.operation.path == "/v3/users/{user_id}/live_activities/{activity_id}/token":
        # An id another user's activity has is theirs to register a token for.
        owner, _ = owner_of(unquote(case.path_parameters["activity_id"]))
        if owner:
            case.path_parameters = {**case.path_parameters, "user_id": quote(owner, safe="")}
    if case.operation.path in LIVE_ACTIVITY_PATHS:
        live_activity_ready(unquote(case.path_parameters["activity_id"]))
    if "{channel_id}" in case.operation.path:
        case.path_parameters = {**(case.path_parameters or {}), "channel_id": a_channel()}
    if case.operation.path.endswith("/broadcast") and isinstance(case.body, dict) and case.body.get("event") != "end":
        case.body = {**case.body, "content_state": case.body.get("content_state") or {}}
    if case.operation.path == "/v3/notifications/{notification_id}/cancel":
        case.path_parameters = {**(case.path_parameters or {}), "notification_id": an_open_notification()}
    if case.operation.path in REPORT_PATHS and isinstance(case.body, dict):
        case.body = {**case.body, "device_token": BOB_APNS_TOKEN, "push_tracking_id": push_to_bob()}


@schemathesis.check
def sendbird_error_body(ctx, response, case):
    if not 400 <= response.status_code < 500:
        return None
    body = response.json()
    if not (isinstance(body, dict) and isinstance(body.get("message"), str) and body["message"]
            and isinstance(body.get("code"), int) and body.get("error") is True):
        raise AssertionError(f"{response.status_code} without a Sendbird error body: {response.text[:200]}")
    return None

