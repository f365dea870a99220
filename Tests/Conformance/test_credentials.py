"""Credentials with the official Sendbird Platform SDK for Python, unchanged.

- The app's server issues a session token with `UserApi.create_user_token` (its API token).
- The device drives the same SDK with that token as a `Session-Token` default header and no API
  token: it reaches its own user's tokens, preferences and template choice, nothing else.
- Secondary API tokens authenticate the SDK's calls like the master token. They are created,
  listed and revoked over plain HTTP: `sendbird-platform-sdk` 2.x has no ApplicationApi for
  `/v3/applications/api_tokens` (1.x had `generate_secondary_api_token` & co.)."""

import json
import time
import urllib.error
import urllib.request
import uuid

import pytest

pytest.importorskip("sendbird_platform_sdk", reason="sendbird-platform-sdk is not installed: pip install -r scripts/requirements-test.txt (docs/testing.md)")
import sendbird_platform_sdk as sb  # noqa: E402
from sendbird_platform_sdk.api import user_api
from sendbird_platform_sdk.exceptions import ForbiddenException, UnauthorizedException
from sendbird_platform_sdk.model.add_a_registration_or_device_token_request import (
    AddARegistrationOrDeviceTokenRequest,
)
from sendbird_platform_sdk.model.choose_a_push_notification_content_template_request import (
    ChooseAPushNotificationContentTemplateRequest,
)
from sendbird_platform_sdk.model.create_user_token_request import CreateUserTokenRequest
from sendbird_platform_sdk.model.sendbird_push_trigger_option import SendbirdPushTriggerOption
from sendbird_platform_sdk.model.update_push_preferences_request import UpdatePushPreferencesRequest

from conftest import API_TOKEN, OTHER_API_TOKEN

WEEK_MS = 7 * 24 * 3600 * 1000


def token(n):
    return f"{n:08x}" * 8


def new_user():
    return f"user {uuid.uuid4().hex[:8]}@example.com"


def now_ms():
    return int(time.time() * 1000)


@pytest.fixture(scope="module")
def api(relay):
    return user_api.UserApi(sb.ApiClient(sb.Configuration(host=relay.url)))


def device_api(relay, session_token):
    """The SDK as a device would use it: the session token on every call, no API token."""
    client = sb.ApiClient(sb.Configuration(host=relay.url), header_name="Session-Token", header_value=session_token)
    return user_api.UserApi(client)


def http(relay, method, path, api_token=API_TOKEN, body=None):
    headers = {"Api-Token": api_token}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    request = urllib.request.Request(relay.url + path, method=method, headers=headers, data=data)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def quoted(user):
    return urllib.request.quote(user, safe="")


def register(api_client, user, tok, **auth):
    return api_client.add_a_registration_or_device_token(
        user,
        "apns",
        add_a_registration_or_device_token_request=AddARegistrationOrDeviceTokenRequest(apns_device_token=tok),
        **auth,
    )


def test_create_user_token_answers_as_sendbird(api):
    user = new_user()
    before = now_ms()
    issued = api.create_user_token(user, api_token=API_TOKEN)
    # 64 hex characters of randomness and 16 of the tag that lets relays refuse forgeries unread.
    assert len(issued.token) == 80 and all(c in "0123456789abcdef" for c in issued.token)
    assert before + WEEK_MS <= issued.expires_at <= now_ms() + WEEK_MS
    assert issued.user_id == user

    later = now_ms() + 3_600_000
    custom = api.create_user_token(user, api_token=API_TOKEN, create_user_token_request=CreateUserTokenRequest(expires_at=later))
    assert custom.expires_at == later
    # "Forever" is capped at the app's longest session lifetime (a week by default).
    forever = api.create_user_token(
        user, api_token=API_TOKEN, create_user_token_request=CreateUserTokenRequest(expires_at=253402300799000))
    assert forever.expires_at <= now_ms() + WEEK_MS
    assert custom.token != issued.token


def test_a_device_manages_its_own_user_with_the_session_token(api, relay):
    user = new_user()
    device = device_api(relay, api.create_user_token(user, api_token=API_TOKEN).token)

    assert register(device, user, token(41)).token == token(41)
    assert device.list_registration_or_device_tokens(user, "apns").tokens == [token(41)]
    device.update_push_preferences(
        user,
        update_push_preferences_request=UpdatePushPreferencesRequest(push_trigger_option=SendbirdPushTriggerOption("mention_only")),
    )
    assert device.view_push_preferences(user).push_trigger_option.value == "mention_only"
    chosen = device.choose_a_push_notification_content_template(
        user,
        choose_a_push_notification_content_template_request=ChooseAPushNotificationContentTemplateRequest(name="alternative"),
    )
    assert chosen.name == "alternative"
    device.remove_a_registration_or_device_token(user, "apns", token(41))

    # The server sees what the device did.
    assert api.list_registration_or_device_tokens(user, "apns", api_token=API_TOKEN).tokens == []
    assert http(relay, "GET", f"/v3/users/{quoted(user)}/push/template") == (200, {"name": "alternative"})


def test_a_session_token_reaches_nothing_else(api, relay):
    user, other = new_user(), new_user()
    register(api, other, token(42), api_token=API_TOKEN)
    device = device_api(relay, api.create_user_token(user, api_token=API_TOKEN).token)

    attempts = [
        lambda: device.list_registration_or_device_tokens(other, "apns"),
        lambda: register(device, other, token(43)),
        lambda: device.view_push_preferences(other),
        lambda: device.view_who_owns_a_registration_or_device_token("apns", token(42)),
        lambda: device.remove_a_registration_or_device_token_from_an_owner("apns", token(42)),
        lambda: device.create_user_token(user),
    ]
    for attempt in attempts:
        with pytest.raises(ForbiddenException) as forbidden:
            attempt()
        body = json.loads(forbidden.value.body)
        assert forbidden.value.status == 403
        assert body["code"] == 400108 and body["error"] is True and body["message"]
    # Nothing changed for the other user.
    assert api.list_registration_or_device_tokens(other, "apns", api_token=API_TOKEN).tokens == [token(42)]


def test_revoked_expired_and_malformed_session_tokens_are_refused(api, relay):
    user = new_user()
    session = api.create_user_token(user, api_token=API_TOKEN).token
    register(device_api(relay, session), user, token(44))
    assert http(relay, "DELETE", f"/v3/users/{quoted(user)}/token") == (200, {})
    for bad, code in [(session, 400302), ("not-a-token", 400302), ("0" * 64, 400302)]:
        with pytest.raises(UnauthorizedException) as refused:
            device_api(relay, bad).list_registration_or_device_tokens(user, "apns")
        assert json.loads(refused.value.body)["code"] == code

    short_lived = api.create_user_token(
        user, api_token=API_TOKEN, create_user_token_request=CreateUserTokenRequest(expires_at=now_ms() + 300)
    ).token
    time.sleep(0.5)
    with pytest.raises(UnauthorizedException) as expired:
        device_api(relay, short_lived).list_registration_or_device_tokens(user, "apns")
    assert json.loads(expired.value.body)["code"] == 400309


def test_session_tokens_stay_in_their_app(api, relay):
    user = new_user()
    device = device_api(relay, api.create_user_token(user, api_token=OTHER_API_TOKEN).token)
    register(device, user, token(45))
    assert api.list_registration_or_device_tokens(user, "apns", api_token=OTHER_API_TOKEN).tokens == [token(45)]
    assert api.view_who_owns_a_registration_or_device_token("apns", token(45), api_token=API_TOKEN).value == []


def test_secondary_api_tokens(api, relay):
    status, created = http(relay, "POST", "/v3/applications/api_tokens")
    assert status == 200 and set(created) == {"token", "created_at"}
    secondary = created["token"]
    status, listed = http(relay, "GET", "/v3/applications/api_tokens")
    assert status == 200
    assert {"token": secondary[:4] + "…", "created_at": created["created_at"]} in listed["api_tokens"]
    assert all(entry["token"].endswith("…") for entry in listed["api_tokens"])

    # The SDK's calls work with it as with the master token, in the same app.
    user = new_user()
    register(api, user, token(46), api_token=secondary)
    assert api.list_registration_or_device_tokens(user, "apns", api_token=API_TOKEN).tokens == [token(46)]
    assert len(api.create_user_token(user, api_token=secondary).token) == 80

    # Only the master token manages API tokens.
    for method, path in [("GET", "/v3/applications/api_tokens"), ("POST", "/v3/applications/api_tokens"),
                         ("DELETE", f"/v3/applications/api_tokens/{secondary}")]:
        status, body = http(relay, method, path, api_token=secondary)
        assert (status, body["code"]) == (403, 400108)

    status, revoked = http(relay, "DELETE", f"/v3/applications/api_tokens/{secondary}")
    assert (status, revoked) == (200, {"token": secondary[:4] + "…", "created_at": created["created_at"]})
    with pytest.raises(UnauthorizedException) as refused:
        api.list_registration_or_device_tokens(user, "apns", api_token=secondary)
    assert json.loads(refused.value.body)["code"] == 400401
