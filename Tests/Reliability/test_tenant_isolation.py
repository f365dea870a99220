"""One tenant's costliest allowed traffic leaves another's latency alone: the real `push-relay
serve` on each store, app A with a delivery log of 50,000 pushes and 50,000 skips, app B with a
handful of users. B's median GET of a user is measured quiet, then while six API tokens of A — its
master and five secondary ones — read A's users' delivery logs and skips and delete ids nobody
has, as fast as A's default budget (`apps[].limits.api_token_requests_per_second`, 1,000 units
shared by the tokens, 25 a list, 50 an erasure) and A's costly-request slot let them. The goal:
B's median moves by less than 2x.

A's clients stop at each 429 for its Retry-After, as a server at its limit would. The figures are
printed.
"""

import statistics
import threading
import time

import pytest
import requests

from cluster import MOCK_BIN, RELAY_BIN, Cluster, token_for
from test_trust_boundary import api, post_event, wait_until

A_APP, A_TOKEN = "tenant-a", "tenant-a-token-0123456789abcdef0123456789"
B_APP, B_TOKEN = "tenant-b", "tenant-b-token-0123456789abcdef0123456789"
MEMBERS = 50
EVENTS = 1000
SAMPLES = 300
TOKENS = 6


def b_median(url) -> float:
    latencies = []
    http = requests.Session()
    for n in range(SAMPLES):
        started = time.perf_counter()
        r = http.get(f"{url}/v3/users/b{n % 5}", headers={"Api-Token": B_TOKEN}, timeout=30)
        latencies.append(time.perf_counter() - started)
        assert r.status_code == 200, r.text
    return statistics.median(latencies)


class Heavy:
    """Reads A's delivery logs and skips through `token`, pausing at each 429 as told."""

    def __init__(self, url, token):
        self.url, self.token = url, token
        self.stop = threading.Event()
        self.served = self.refused = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        http = requests.Session()
        n = 0
        while not self.stop.is_set():
            kind = n % 3
            if kind == 2:
                r = http.delete(f"{self.url}/v3/users/nobody-{n}", headers={"Api-Token": self.token}, timeout=30)
            else:
                route = f"/v3/users/a{n % MEMBERS}/push/{'deliveries' if kind else 'skips'}"
                r = http.get(f"{self.url}{route}", headers={"Api-Token": self.token}, timeout=30)
            n += 1
            if r.status_code == 429:
                self.refused += 1
                self.stop.wait(float(r.headers.get("Retry-After", "1")))
            else:
                assert r.status_code in (200, 400), r.text
                self.served += 1


@pytest.mark.skipif(not (RELAY_BIN.exists() and MOCK_BIN.exists()), reason="build first (scripts/test does)")
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
@pytest.mark.timeout(1500)
def test_app_a_at_its_budget_leaves_app_b_within_twice_its_quiet_latency(tmp_path, store):
    more = (f"  - app_id: {A_APP}\n    api_token: {A_TOKEN}\n{{apns}}"
            f"  - app_id: {B_APP}\n    api_token: {B_TOKEN}\n{{apns}}")
    # The log is filled as fast as the relay takes it: no backlog promise to wait for.
    cluster = Cluster(tmp_path, store=store, more_apps=more, extra_config="delivery: {max_backlog: 0s}\n")
    try:
        url = cluster.url
        for n in range(MEMBERS):
            assert api(url, "POST", f"/v3/users/a{n}/push/apns", token=A_TOKEN,
                       json={"apns_device_token": token_for(1000 + n)}).status_code == 200
        for n in range(5):
            assert api(url, "POST", f"/v3/users/b{n}/push/apns", token=B_TOKEN,
                       json={"apns_device_token": token_for(2000 + n)}).status_code == 200
        # A's log: every member pushed, and as many skipped (members without a token).
        members = [f"a{n}" for n in range(MEMBERS)] + [f"lurker{n}" for n in range(MEMBERS)]
        for n in range(EVENTS):
            post_event(url, 10_000 + n, members, app_id=A_APP, key=A_TOKEN)
        assert wait_until(lambda: len(cluster.recorded()) >= EVENTS * MEMBERS, deadline_s=900, interval=0.5), \
            "A's pushes never all went out"

        quiet = b_median(url)
        tokens = [A_TOKEN] + [api(url, "POST", "/v3/applications/api_tokens", token=A_TOKEN, json={}).json()["token"]
                              for _ in range(TOKENS - 1)]
        heavy = [Heavy(url, token) for token in tokens]
        for client in heavy:
            client.thread.start()
        time.sleep(1)
        loaded = b_median(url)
        for client in heavy:
            client.stop.set()
        for client in heavy:
            client.thread.join(timeout=60)
        served, refused = sum(c.served for c in heavy), sum(c.refused for c in heavy)
        print(f"\ntenants ({store}): app B's median GET {quiet * 1000:.2f} ms quiet, {loaded * 1000:.2f} ms with app A's "
              f"{len(tokens)} tokens at its limits ({served} log lists and erasures served, {refused} refused 429) = {loaded / quiet:.2f}x")
        assert served > 0, "A was served nothing"
        assert loaded < 2 * quiet
    finally:
        cluster.stop()
