"""One app, two APNs configurations: the real `push-relay serve` with a production and a sandbox
configuration of the same bundle, against two `apns-mock` processes playing Apple's two
environments. A user's release build registered a production token and their debug build a
sandbox token, both as the official SDK does (no `push_configuration`). One webhook reaches both
devices: the production mock answers the debug token `BadDeviceToken` (it knows it as a
development token), the relay tries it once through the sandbox configuration, where it is
delivered, and keeps the token, now registered to the sandbox configuration, so the next push goes
straight there. A token registered with `push_configuration` goes straight to its configuration.

Deadlines are multiples of the time the first webhook's pushes took."""

import time

import pytest
import requests

from apns_rig import TOPIC, Rig
from cluster import API_TOKEN, MOCK_BIN, RELAY_BIN

RELEASE = "ab" * 32
DEBUG = "cd" * 32
TESTER = "ef" * 32


@pytest.mark.timeout(300)
@pytest.mark.skipif(not RELAY_BIN.exists() or not MOCK_BIN.exists(), reason="build first (scripts/test does)")
def test_a_debug_builds_token_is_delivered_through_the_sandbox_and_kept(tmp_path):
    rig = Rig(tmp_path, environments=("production", "development"), apns=lambda mocks, auth, ca: (
        "    apns:\n"
        "      - name: production\n"
        "        default: true\n"
        f"        topic: {TOPIC}\n"
        f"        environment: {{url: \"{mocks['production']['url']}\", ca_file: {ca}}}\n"
        f"        auth: {auth}\n"
        "      - name: debug\n"
        f"        topic: {TOPIC}\n"
        f"        environment: {{url: \"{mocks['development']['url']}\", ca_file: {ca}, tokens: sandbox}}\n"
        f"        auth: {auth}\n"))
    try:
        # The SDK's calls: no configuration named.
        for token in (RELEASE, DEBUG):
            r = rig.register("alice", token, is_unique=False)
            assert r.status_code == 200 and "push_configuration" not in r.json(), r.text
        requests.post(f"{rig.mocks['production']['admin']}/token-environment",
                      json={"token": DEBUG, "environment": "development"}, timeout=10).raise_for_status()
        # A tester's device registered straight to the debug configuration.
        r = rig.register("bob", TESTER, push_configuration="debug")
        assert r.status_code == 200 and r.json()["push_configuration"] == "debug", r.text
        r = rig.register("bob", "12" * 32, push_configuration="beta")
        assert r.status_code == 400 and r.json()["code"] == 400111, r.text
        assert "beta" not in r.text

        started = time.monotonic()
        rig.webhook(1, ["alice", "bob"])
        assert rig.wait(lambda: len(rig.received("development")) == 2 and len(rig.received("production")) == 1, 60)
        first = time.monotonic() - started
        assert rig.received("production") == [(RELEASE, 1)]
        assert sorted(rig.received("development")) == sorted([(DEBUG, 1), (TESTER, 1)])
        # Production saw the release token and the debug token's one try: the tester's token never went there.
        assert rig.requests_seen("production") == 2

        # The debug token is kept, now the sandbox configuration's.
        tokens = rig.http.get(f"{rig.url}/v3/users/alice/push/apns", timeout=30).json()["tokens"]
        assert sorted(tokens) == sorted([RELEASE, DEBUG])
        def debug_delivery():
            return next(d for d in rig.log_of(1, "alice")["deliveries"] if d["device_token"][:4] == DEBUG[:4])
        # Recorded once the answer is: the mock has it a moment before.
        assert rig.wait(lambda: debug_delivery()["state"] != "in_flight", max(10 * first, 10))
        debug = debug_delivery()
        assert debug["state"] == "sent" and debug["attempts"] == 1, debug
        assert "\"debug\"" in debug["attempt_log"][0]["error"] and "BadDeviceToken" in debug["attempt_log"][0]["error"], debug

        # The next push goes straight to the sandbox: production sees only the release token.
        rig.webhook(2, ["alice"])
        assert rig.wait(lambda: (DEBUG, 2) in rig.received("development") and (RELEASE, 2) in rig.received("production"),
                        max(10 * first, 10))
        assert rig.requests_seen("production") == 3
        # The app's server registering it again through the official SDK, unchanged, at the next
        # launch: the SDK reads the answer (with its extra field) and the token stays there.
        sb = pytest.importorskip("sendbird_platform_sdk")
        from sendbird_platform_sdk.api import user_api
        from sendbird_platform_sdk.model.add_a_registration_or_device_token_request import (
            AddARegistrationOrDeviceTokenRequest)
        api = user_api.UserApi(sb.ApiClient(sb.Configuration(host=rig.url)))
        added = api.add_a_registration_or_device_token(
            "alice", "apns", api_token=API_TOKEN,
            add_a_registration_or_device_token_request=AddARegistrationOrDeviceTokenRequest(apns_device_token=DEBUG))
        assert added.token == DEBUG and added.user.user_id == "alice"
        rig.webhook(3, ["alice"])
        assert rig.wait(lambda: (DEBUG, 3) in rig.received("development") and (RELEASE, 3) in rig.received("production"),
                        max(10 * first, 10))
        assert rig.requests_seen("production") == 4
    finally:
        rig.stop()
