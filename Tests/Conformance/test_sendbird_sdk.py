"""Drives the running relay with the official Sendbird Platform SDK for Python
(`sendbird-platform-sdk`, its `UserApi`), unchanged, pointed at the relay's URL with the app's
API token: exactly what a Sendbird customer's server code does."""

import json
import urllib.request
import uuid

import pytest

pytest.importorskip("sendbird_platform_sdk", reason="sendbird-platform-sdk is not installed: pip install -r scripts/requirements-test.txt (docs/testing.md)")
import sendbird_platform_sdk as sb  # noqa: E402
from sendbird_platform_sdk.api import user_api
from sendbird_platform_sdk.exceptions import ApiException, UnauthorizedException
from sendbird_platform_sdk.model.add_a_registration_or_device_token_request import (
    AddARegistrationOrDeviceTokenRequest,
)
from sendbird_platform_sdk.model.choose_a_push_notification_content_template_request import (
    ChooseAPushNotificationContentTemplateRequest,
)
from sendbird_platform_sdk.model.sendbird_push_trigger_option import SendbirdPushTriggerOption
from sendbird_platform_sdk.model.update_push_preferences_for_a_channel_request import (
    UpdatePushPreferencesForAChannelRequest,
)
from sendbird_platform_sdk.model.update_push_preferences_request import UpdatePushPreferencesRequest
from sendbird_platform_sdk.model.update_push_preferences_request_dnd_schedules_inner import (
    UpdatePushPreferencesRequestDndSchedulesInner as DndSchedule,
)
from sendbird_platform_sdk.model.update_push_preferences_request_dnd_schedules_inner_time_windows_inner import (
    UpdatePushPreferencesRequestDndSchedulesInnerTimeWindowsInner as TimeWindow,
)

from conftest import API_TOKEN, OTHER_API_TOKEN


def token(n):
    return f"{n:08x}" * 8


def new_user():
    # Unique per test, and with characters that must be percent-encoded in paths.
    return f"user {uuid.uuid4().hex[:8]}@example.com"


@pytest.fixture(scope="module")
def api(relay):
    return user_api.UserApi(sb.ApiClient(sb.Configuration(host=relay.url)))


def add(api, user, tok, **extra):
    return api.add_a_registration_or_device_token(
        user,
        "apns",
        api_token=API_TOKEN,
        add_a_registration_or_device_token_request=AddARegistrationOrDeviceTokenRequest(apns_device_token=tok, **extra),
    )


def raw(relay, method, path, api_token=API_TOKEN):
    """For the two reads the SDK has no method for (template choice, app templates)."""
    request = urllib.request.Request(relay.url + path, method=method, headers={"Api-Token": api_token})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


def test_token_add_list_owner_and_remove(api):
    user = new_user()
    added = add(api, user, token(1).upper())
    assert added.token == token(1)
    assert added.type == "APNS"
    assert added.user.user_id == user
    add(api, user, token(2))

    listed = api.list_registration_or_device_tokens(user, "apns", api_token=API_TOKEN)
    assert listed.tokens == [token(1), token(2)]
    assert listed.token == [token(1), token(2)]
    assert listed.type == "APNS"
    assert listed.user.user_id == user

    owner = api.view_who_owns_a_registration_or_device_token("apns", token(2), api_token=API_TOKEN)
    assert [o.user_id for o in owner.value] == [user]

    removed = api.remove_a_registration_or_device_token(user, "apns", token(1), api_token=API_TOKEN)
    assert removed.token == token(1)
    assert removed.user.user_id == user
    assert api.list_registration_or_device_tokens(user, "apns", api_token=API_TOKEN).tokens == [token(2)]

    from_owner = api.remove_a_registration_or_device_token_from_an_owner("apns", token(2), api_token=API_TOKEN)
    assert [o.user_id for o in from_owner.value] == [user]
    nobody = api.view_who_owns_a_registration_or_device_token("apns", token(2), api_token=API_TOKEN)
    assert nobody.value == []

    add(api, user, token(3))
    add(api, user, token(4))
    all_removed = api.remove_all_registration_or_device_token(user, api_token=API_TOKEN)
    assert all_removed.token == [token(3), token(4)]
    assert all_removed.user.user_id == user
    assert api.list_registration_or_device_tokens(user, "apns", api_token=API_TOKEN).tokens == []


def test_is_unique_keeps_only_the_new_token(api):
    user = new_user()
    for n in (11, 12, 13):
        add(api, user, token(n))
    add(api, user, token(14), is_unique=True, always_push=False)
    assert api.list_registration_or_device_tokens(user, "apns", api_token=API_TOKEN).tokens == [token(14)]


def test_a_token_moves_to_its_latest_user(api):
    first, second = new_user(), new_user()
    add(api, first, token(21))
    add(api, second, token(21))
    owner = api.view_who_owns_a_registration_or_device_token("apns", token(21), api_token=API_TOKEN)
    assert [o.user_id for o in owner.value] == [second]
    assert api.list_registration_or_device_tokens(first, "apns", api_token=API_TOKEN).tokens == []


def test_at_most_twenty_tokens_per_user(api):
    user = new_user()
    for n in range(100, 121):
        add(api, user, token(n))
    assert api.list_registration_or_device_tokens(user, "apns", api_token=API_TOKEN).tokens == [token(n) for n in range(101, 121)]


def test_preferences_view_update_reset(api):
    user = new_user()
    updated = api.update_push_preferences(
        user,
        api_token=API_TOKEN,
        update_push_preferences_request=UpdatePushPreferencesRequest(
            push_trigger_option=SendbirdPushTriggerOption("mention_only"),
            do_not_disturb=True,
            start_hour=22,
            start_min=30,
            end_hour=7,
            end_min=0,
            timezone="Asia/Seoul",
            snooze_enabled=True,
            snooze_start_ts=1_700_000_000_000,
            snooze_end_ts=1_700_003_600_000,
            push_sound="chime.caf",
            block_push_from_bots=True,
            push_blocked_bot_ids=["bot1"],
            enable_push_for_replies=True,
        ),
    )
    assert updated.push_trigger_option.value == "mention_only"
    assert (updated.start_hour, updated.start_min, updated.end_hour, updated.end_min) == (22, 30, 7, 0)
    assert updated.timezone == "Asia/Seoul"
    assert updated.snooze_end_ts == 1_700_003_600_000
    assert updated.push_blocked_bot_ids == ["bot1"]

    # Only the given field changes.
    partial = api.update_push_preferences(
        user, api_token=API_TOKEN, update_push_preferences_request=UpdatePushPreferencesRequest(push_sound="other.caf")
    )
    assert partial.push_sound == "other.caf"
    assert partial.timezone == "Asia/Seoul"
    assert partial.do_not_disturb is True

    weekly = api.update_push_preferences(
        user,
        api_token=API_TOKEN,
        update_push_preferences_request=UpdatePushPreferencesRequest(
            dnd_schedules=[
                DndSchedule(
                    day_of_week="monday",
                    time_windows=[TimeWindow(start_hour=22, start_min=0, end_hour=6, end_min=0)],
                )
            ]
        ),
    )
    assert weekly.do_not_disturb is False
    assert weekly.dnd_schedules[0].day_of_week == "monday"
    assert weekly.dnd_schedules[0].time_windows[0].end_hour == 6

    viewed = api.view_push_preferences(user, api_token=API_TOKEN)
    assert viewed.to_dict() == weekly.to_dict()

    reset = api.reset_push_preferences(user, api_token=API_TOKEN)
    assert isinstance(reset, dict)
    after = api.view_push_preferences(user, api_token=API_TOKEN)
    assert after.push_trigger_option.value == "all"
    assert after.timezone == "UTC"
    assert after.push_sound == "default"
    assert after.do_not_disturb is False and after.snooze_enabled is False
    assert after.dnd_schedules == []


def test_channel_preferences(api):
    user = new_user()
    channel = "sendbird_group_channel_1/team a?x=1"  # the SDK percent-encodes it
    set_ = api.update_push_preferences_for_a_channel(
        user,
        channel,
        api_token=API_TOKEN,
        update_push_preferences_for_a_channel_request=UpdatePushPreferencesForAChannelRequest(
            push_trigger_option="mention_only", push_sound="c.caf"
        ),
    )
    assert set_.push_trigger_option.value == "mention_only"
    assert set_.push_sound == "c.caf"
    assert set_.enable is True
    viewed = api.view_push_preferences_for_a_channel(user, channel, api_token=API_TOKEN)
    assert viewed.to_dict() == set_.to_dict()

    # The SDK's request enum offers "false" instead of "off".
    off = api.update_push_preferences_for_a_channel(
        user,
        channel,
        api_token=API_TOKEN,
        update_push_preferences_for_a_channel_request=UpdatePushPreferencesForAChannelRequest(push_trigger_option="false"),
    )
    assert off.push_trigger_option.value == "off"
    assert off.enable is False

    # A channel never set is "default", as Sendbird documents. The SDK's response model lists only
    # all/mention_only/off, so its strict type check must be turned off to read that value.
    untouched = api.view_push_preferences_for_a_channel(user, "another-channel", api_token=API_TOKEN, _check_return_type=False)
    assert untouched["push_trigger_option"] == "default"


def test_template_choice(api, relay):
    user = new_user()
    chosen = api.choose_a_push_notification_content_template(
        user,
        api_token=API_TOKEN,
        choose_a_push_notification_content_template_request=ChooseAPushNotificationContentTemplateRequest(name="alternative"),
    )
    assert chosen.name == "alternative"
    status, body = raw(relay, "GET", f"/v3/users/{urllib.request.quote(user, safe='')}/push/template")
    assert (status, body) == (200, {"name": "alternative"})


def test_app_templates(relay):
    status, body = raw(relay, "GET", "/v3/applications/push/message_templates")
    assert status == 200
    assert [t["template_name"] for t in body["push_message_templates"]] == ["default", "alternative"]
    assert body["push_message_templates"][0]["template"] == {"MESG": "{sender_name}: {message}", "FILE": "{filename}", "ADMM": "{message}"}


def test_errors_are_sendbird_error_bodies(api):
    user = new_user()
    with pytest.raises(UnauthorizedException) as unauthorized:
        api.list_registration_or_device_tokens(user, "apns", api_token="wrong-token")
    assert unauthorized.value.status == 401
    assert json.loads(unauthorized.value.body) == {"message": 'Invalid value: "Api-Token".', "code": 400401, "error": True}

    with pytest.raises(ApiException) as not_found:
        api.view_push_preferences(user, api_token=API_TOKEN)
    assert not_found.value.status == 400
    assert json.loads(not_found.value.body)["code"] == 400201

    with pytest.raises(ApiException) as bad_zone:
        api.update_push_preferences(
            user, api_token=API_TOKEN, update_push_preferences_request=UpdatePushPreferencesRequest(timezone="Mars/Olympus")
        )
    assert bad_zone.value.status == 400
    body = json.loads(bad_zone.value.body)
    assert body["code"] == 400111 and body["error"] is True and "timezone" in body["message"]

    with pytest.raises(ApiException) as huawei:
        api.add_a_registration_or_device_token(
            user,
            "huawei",
            api_token=API_TOKEN,
            add_a_registration_or_device_token_request=AddARegistrationOrDeviceTokenRequest(huawei_device_token="x"),
        )
    assert huawei.value.status == 400
    assert json.loads(huawei.value.body)["code"] == 400601, "too short for an HMS token"
    with pytest.raises(ApiException) as bad_fcm:
        api.add_a_registration_or_device_token(
            user, "gcm", api_token=API_TOKEN,
            add_a_registration_or_device_token_request=AddARegistrationOrDeviceTokenRequest(gcm_reg_token="x"))
    assert json.loads(bad_fcm.value.body)["code"] == 400601


def test_apps_are_separate(api):
    user = new_user()
    add(api, user, token(31))
    assert api.view_who_owns_a_registration_or_device_token("apns", token(31), api_token=OTHER_API_TOKEN).value == []
    with pytest.raises(ApiException) as other:
        api.list_registration_or_device_tokens(user, "apns", api_token=OTHER_API_TOKEN)
    assert json.loads(other.value.body)["code"] == 400201


def test_user_lifecycle_create_view_update_list_and_delete(api):
    from sendbird_platform_sdk.model.create_a_user_request import CreateAUserRequest
    from sendbird_platform_sdk.model.update_a_user_request import UpdateAUserRequest

    users = sorted(new_user() for _ in range(3))
    for n, user in enumerate(users):
        created = api.create_a_user(
            api_token=API_TOKEN,
            create_a_user_request=CreateAUserRequest(nickname=f"N{n}", user_id=user, profile_url=f"https://x/{n}.png"))
        assert (created.user_id, created.nickname, created.profile_url) == (user, f"N{n}", f"https://x/{n}.png")
    with pytest.raises(ApiException) as again:
        api.create_a_user(api_token=API_TOKEN, create_a_user_request=CreateAUserRequest(nickname="x", user_id=users[0]))
    assert json.loads(again.value.body)["code"] == 400202

    viewed = api.view_a_user(users[0], api_token=API_TOKEN)
    assert viewed.nickname == "N0" and viewed.created_at > 1_600_000_000
    updated = api.update_a_user(users[0], api_token=API_TOKEN, update_a_user_request=UpdateAUserRequest(nickname="Renamed"))
    assert updated.nickname == "Renamed" and updated.profile_url == "https://x/0.png"
    # Preferred languages (push translation): stored in order, shown, kept by other updates.
    languages = api.update_a_user(users[0], api_token=API_TOKEN,
                                  update_a_user_request=UpdateAUserRequest(preferred_languages=["ko", "zh-CN"]))
    assert languages.preferred_languages == ["ko", "zh-CN"] and languages.nickname == "Renamed"
    assert api.view_a_user(users[0], api_token=API_TOKEN).preferred_languages == ["ko", "zh-CN"]
    with pytest.raises(ApiException) as too_many:
        api.update_a_user(users[0], api_token=API_TOKEN,
                          update_a_user_request=UpdateAUserRequest(preferred_languages=["a", "b", "c", "d", "e"]))
    assert json.loads(too_many.value.body)["code"] == 400111
    assert api.view_a_user(users[0], api_token=API_TOKEN).preferred_languages == ["ko", "zh-CN"], "nothing changed"

    # Every page in turn (other tests' users are listed too), in id order.
    seen, page_token = [], None
    while True:
        kwargs = {"api_token": API_TOKEN, "limit": 2}
        if page_token:
            kwargs["token"] = page_token
        page = api.list_users(**kwargs)
        seen += [u.user_id for u in page.users]
        if not page.next:
            break
        page_token = page.next
    assert [u for u in seen if u in users] == users
    assert len(seen) == len(set(seen))

    # Deleting erases: the user and their tokens are gone.
    add(api, users[1], token(42))
    assert api.delete_a_user(users[1], api_token=API_TOKEN) == {}
    with pytest.raises(ApiException) as gone:
        api.view_a_user(users[1], api_token=API_TOKEN)
    assert json.loads(gone.value.body)["code"] == 400201
    owner = api.view_who_owns_a_registration_or_device_token("apns", token(42), api_token=API_TOKEN)
    assert owner.value == []


def fcm_token(n):
    return f"fcm{n}:APA91b" + "Xy_-" * 36


def test_fcm_tokens_add_list_owner_and_remove_beside_apns(api):
    user = new_user()
    add(api, user, token(7))
    added = api.add_a_registration_or_device_token(
        user, "gcm", api_token=API_TOKEN,
        add_a_registration_or_device_token_request=AddARegistrationOrDeviceTokenRequest(gcm_reg_token=fcm_token(1)))
    assert (added.token, added.type, added.user.user_id) == (fcm_token(1), "GCM", user)
    api.add_a_registration_or_device_token(
        user, "gcm", api_token=API_TOKEN,
        add_a_registration_or_device_token_request=AddARegistrationOrDeviceTokenRequest(gcm_reg_token=fcm_token(2),
                                                                                          always_push=True))

    listed = api.list_registration_or_device_tokens(user, "gcm", api_token=API_TOKEN)
    assert (listed.tokens, listed.type) == ([fcm_token(1), fcm_token(2)], "GCM")
    assert api.list_registration_or_device_tokens(user, "apns", api_token=API_TOKEN).tokens == [token(7)]

    owner = api.view_who_owns_a_registration_or_device_token("gcm", fcm_token(2), api_token=API_TOKEN)
    assert [o.user_id for o in owner.value] == [user]
    removed = api.remove_a_registration_or_device_token(user, "gcm", fcm_token(1), api_token=API_TOKEN)
    assert removed.token == fcm_token(1)
    from_owner = api.remove_a_registration_or_device_token_from_an_owner("gcm", fcm_token(2), api_token=API_TOKEN)
    assert [o.user_id for o in from_owner.value] == [user]
    assert api.list_registration_or_device_tokens(user, "gcm", api_token=API_TOKEN).tokens == []
    assert api.list_registration_or_device_tokens(user, "apns", api_token=API_TOKEN).tokens == [token(7)]


def hms_token(n):
    return f"IQAAAACy0k{n}+hms/" + "Qa9_" * 30 + "=="


def test_huawei_tokens_add_list_owner_and_remove_beside_the_others(api):
    user = new_user()
    add(api, user, token(8))
    api.add_a_registration_or_device_token(
        user, "gcm", api_token=API_TOKEN,
        add_a_registration_or_device_token_request=AddARegistrationOrDeviceTokenRequest(gcm_reg_token=fcm_token(8)))
    for n in (1, 2):
        added = api.add_a_registration_or_device_token(
            user, "huawei", api_token=API_TOKEN,
            add_a_registration_or_device_token_request=AddARegistrationOrDeviceTokenRequest(huawei_device_token=hms_token(n)))
        assert (added.token, added.type, added.user.user_id) == (hms_token(n), "HUAWEI", user)

    listed = api.list_registration_or_device_tokens(user, "huawei", api_token=API_TOKEN)
    assert (listed.tokens, listed.type) == ([hms_token(1), hms_token(2)], "HUAWEI")
    assert api.list_registration_or_device_tokens(user, "apns", api_token=API_TOKEN).tokens == [token(8)]
    assert api.list_registration_or_device_tokens(user, "gcm", api_token=API_TOKEN).tokens == [fcm_token(8)]

    owner = api.view_who_owns_a_registration_or_device_token("huawei", hms_token(2), api_token=API_TOKEN)
    assert [o.user_id for o in owner.value] == [user]
    removed = api.remove_a_registration_or_device_token(user, "huawei", hms_token(1), api_token=API_TOKEN)
    assert removed.token == hms_token(1)
    from_owner = api.remove_a_registration_or_device_token_from_an_owner("huawei", hms_token(2), api_token=API_TOKEN)
    assert [o.user_id for o in from_owner.value] == [user]
    assert api.list_registration_or_device_tokens(user, "huawei", api_token=API_TOKEN).tokens == []
    assert api.list_registration_or_device_tokens(user, "gcm", api_token=API_TOKEN).tokens == [fcm_token(8)]
    assert api.list_registration_or_device_tokens(user, "apns", api_token=API_TOKEN).tokens == [token(8)]
