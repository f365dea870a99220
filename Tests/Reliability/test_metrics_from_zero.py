"""A fresh `push-relay serve` (APNs, FCM and HMS configured for its app) lists the counters its
dashboards and alerts divide by at 0 before any event: acknowledgements, clicks, retries, token
removals and credential errors per provider with their known reasons. Otherwise a quiet app's
panels read "No data" instead of 0 (Prometheus' guidance: export known series from 0)."""

import pytest
import requests

from cluster import APP_ID, FCM_MOCK_BIN, HMS_MOCK_BIN, MOCK_BIN, RELAY_BIN, Cluster


@pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, MOCK_BIN, FCM_MOCK_BIN, HMS_MOCK_BIN)),
                    reason="build first (scripts/test does)")
def test_a_fresh_relay_exports_the_divided_by_counters_at_zero(tmp_path):
    cluster = Cluster(tmp_path, fcm=True, hms=True)
    try:
        text = requests.get(f"{cluster.url}/metrics", timeout=10).text
        lines = set(text.splitlines())
        for name in ("pushrelay_push_acknowledgements_total", "pushrelay_push_clicks_total", "pushrelay_retries_total"):
            assert f'{name}{{app="{APP_ID}"}} 0' in lines, name
        for provider, reason in (("apns", "Unregistered"), ("apns", "BadDeviceToken"), ("fcm", "UNREGISTERED"),
                                 ("hms", "80300007")):
            assert f'pushrelay_token_removals_total{{app="{APP_ID}",reason="{reason}",provider="{provider}"}} 0' in lines, \
                (provider, reason)
        for provider, reason in (("fcm", "SENDER_ID_MISMATCH"), ("fcm", "token_exchange"), ("hms", "token_exchange")):
            assert f'pushrelay_credential_errors_total{{app="{APP_ID}",provider="{provider}",reason="{reason}"}} 0' in lines, \
                (provider, reason)
    finally:
        cluster.stop()
