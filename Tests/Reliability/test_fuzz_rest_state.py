"""A rejected REST request changes nothing: hypothesis sends malformed and wrongly typed bodies to
the endpoints that write (preferences, channel preferences, tokens, template choice, app
templates, secondary API tokens, users) and, whenever the relay answers 4xx, reads the state back and compares it with
before. Knob: FUZZ_EXAMPLES (default 300 per property)."""

import json
import os

import pytest
import requests

pytest.importorskip("hypothesis", reason="hypothesis is not installed: pip install -r scripts/requirements-test.txt (docs/testing.md)")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st

from fuzz_support import API_TOKEN

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
HEADERS = {"Api-Token": API_TOKEN, "Content-Type": "application/json"}
http = requests.Session()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=25), children, max_size=4),
    max_leaves=12)
PREFERENCE_KEYS = ["push_trigger_option", "do_not_disturb", "start_hour", "start_min", "end_hour", "end_min",
                   "timezone", "snooze_enabled", "snooze_start_ts", "snooze_end_ts", "dnd_schedules", "push_sound",
                   "block_push_from_bots", "push_blocked_bot_ids", "enable_push_for_replies"]
bodies = (st.dictionaries(st.sampled_from(PREFERENCE_KEYS + ["name", "apns_device_token", "gcm_reg_token",
                                                             "huawei_device_token", "is_unique", "template",
                                                             "enable", "MESG", "FILE", "ADMM", "user_id",
                                                             "nickname", "profile_url"]), json_values, max_size=4)
          .map(lambda d: json.dumps(d).encode())
          | st.binary(max_size=300))

WRITES = [
    ("PUT", "/v3/users/state-user/push_preference", "/v3/users/state-user/push_preference"),
    ("PUT", "/v3/users/state-user/push_preference/channel-1", "/v3/users/state-user/push_preference/channel-1"),
    ("POST", "/v3/users/state-user/push/apns", "/v3/users/state-user/push/apns"),
    ("POST", "/v3/users/state-user/push/huawei", "/v3/users/state-user/push/huawei"),
    ("PUT", "/v3/users/state-user/push/template", "/v3/users/state-user/push/template"),
    ("PUT", "/v3/applications/push/message_templates/default", "/v3/applications/push/message_templates/default"),
    ("POST", "/v3/applications/api_tokens", "/v3/applications/api_tokens"),
    ("PUT", "/v3/users/state-user", "/v3/users/state-user"),
    ("POST", "/v3/users", "/v3/users?limit=100"),
]


def snapshot(relay):
    return [http.get(relay.url + read, headers=HEADERS, timeout=10).text for _, _, read in WRITES]


@FUZZ
@given(write=st.sampled_from(WRITES), body=bodies)
def test_a_rejected_write_changes_nothing(relay, write, body):
    method, path, _ = write
    if not hasattr(test_a_rejected_write_changes_nothing, "seeded"):
        # Give the user some state to damage first.
        http.post(relay.url + "/v3/users/state-user/push/apns", headers=HEADERS, timeout=10,
                  json={"apns_device_token": "ab" * 32})
        http.post(relay.url + "/v3/users/state-user/push/huawei", headers=HEADERS, timeout=10,
                  json={"huawei_device_token": "IQAAAACy0kYkAAD+state/" + "Qa9_" * 25 + "=="})
        http.put(relay.url + "/v3/users/state-user/push_preference", headers=HEADERS, timeout=10,
                 json={"do_not_disturb": True, "start_hour": 22, "start_min": 0, "end_hour": 7, "end_min": 0,
                       "timezone": "Asia/Seoul", "push_sound": "a.caf"})
        test_a_rejected_write_changes_nothing.seeded = True
    before = snapshot(relay)
    r = http.request(method, relay.url + path, data=body, headers=HEADERS, timeout=10)
    assert r.status_code < 500, (r.status_code, r.text[:200])
    if r.status_code >= 400:
        answer = r.json()
        assert isinstance(answer.get("message"), str) and isinstance(answer.get("code"), int) and answer.get("error") is True
        assert snapshot(relay) == before, f"{method} {path} answered {r.status_code} but changed state"
