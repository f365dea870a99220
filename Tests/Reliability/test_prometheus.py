"""The dashboard and the alert rules against the real tools (Debian's `prometheus` package brings
`prometheus` and `promtool`):

- `promtool check rules` and `promtool test rules` on contrib/prometheus (each alert fires on the
  series that should fire it and not on its healthy neighbours).
- A real Prometheus scrapes two real `push-relay serve` of a fleet (one PostgreSQL database, with
  apns-mock, fcm-mock and hms-mock) every second, with the rules loaded, while a little traffic
  goes through: APNs, FCM and HMS devices, a dead FCM token, a 429 and a refused FCM credential,
  a click, a webhook refused 503. Then every panel target of contrib/grafana/push-relay.json and
  every alert expression is evaluated through Prometheus's HTTP API: each parses, every metric
  it names is one the relays export (or `up`), every panel shows data, and every rule evaluates
  without error.

Skipped when `prometheus`/`promtool` are not installed (.ci/run installs them)."""

import hashlib
import hmac
import json
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import requests
import yaml

from cluster import (API_TOKEN, APP_ID, CERTS, FCM_MOCK_BIN, HMS_MOCK_BIN, MOCK_BIN, RELAY_BIN, ROOT, Fleet, fcm_token_for,
                     payload, private_copy, token_for)

RULES = ROOT / "contrib" / "prometheus" / "push-relay-alerts.yml"
RULE_TESTS = ROOT / "contrib" / "prometheus" / "push-relay-alerts.test.yml"
DASHBOARD = ROOT / "contrib" / "grafana" / "push-relay.json"
PROMETHEUS = shutil.which("prometheus")
PROMTOOL = shutil.which("promtool")

needs_promtool = pytest.mark.skipif(
    PROMTOOL is None, reason="promtool is not installed (apt-get install prometheus; .ci/run does)")
needs_prometheus = pytest.mark.skipif(
    PROMETHEUS is None, reason="prometheus is not installed (apt-get install prometheus; .ci/run does)")
needs_build = pytest.mark.skipif(not all(b.exists() for b in (RELAY_BIN, MOCK_BIN, FCM_MOCK_BIN, HMS_MOCK_BIN)),
                                 reason="build first (scripts/test does)")

# An app with an APNs certificate (its expiry is a gauge) and one with no provider settings
# (its events are refused 503 no_target).
CERT_APP, CERT_TOKEN = "cert-app", "cert-token-0123456789abcdef0123"
BARE_APP, BARE_TOKEN = "bare-app", "bare-token-0123456789abcdef0123"

# Grafana's variables, as the dashboard is shown with every relay and app selected.
VARIABLES = {"${app}": ".*", "$app": ".*", "${instance}": ".*", "$instance": ".*", "$__rate_interval": "1m",
             "$__interval": "15s", "$__range": "1h"}

PROMQL_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "offset",
                   "bool", "inf", "nan"}


def metric_names(expr: str) -> set:
    """The metric names a PromQL expression selects (Prometheus 2.42 has no /api/v1/parse_query):
    strings, label matchers, ranges and grouping label lists are taken out, then every identifier
    not followed by `(` (a function or aggregation) and not a keyword is a metric name."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`', '""', expr)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    text = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    names = set()
    for match in re.finditer(r"(?<![\w:.])[A-Za-z_:][\w:]*", text):
        if text[match.end():].lstrip().startswith("(") or match.group(0).lower() in PROMQL_KEYWORDS:
            continue
        names.add(match.group(0))
    return names


def test_metric_names_are_read_from_expressions():
    assert metric_names('sum by (le) (rate(a_bucket{x=~"b|c", y="by"}[5m])) / on (i) group_left (j) b offset 1d '
                        'and c > 1e3 unless histogram_quantile(0.5, d) or time() - e') == {"a_bucket", "b", "c", "d", "e"}


def dashboard_targets() -> list:
    """(panel title, expression with Grafana's variables substituted) for every panel target."""
    found = []

    def walk(panels):
        for panel in panels:
            walk(panel.get("panels", []))
            for target in panel.get("targets", []):
                expr = target["expr"]
                for variable, value in VARIABLES.items():
                    expr = expr.replace(variable, value)
                assert "$" not in expr, f"{panel['title']}: a variable the test does not know in {expr}"
                found.append((panel["title"], expr))

    walk(json.loads(DASHBOARD.read_text())["panels"])
    return found


def alert_expressions() -> list:
    rules = yaml.safe_load(RULES.read_text())
    return [(rule.get("alert") or rule["record"], rule["expr"]) for group in rules["groups"] for rule in group["rules"]]


@needs_promtool
def test_the_rules_pass_promtool_check_and_their_unit_tests():
    checked = subprocess.run([PROMTOOL, "check", "rules", str(RULES)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    tested = subprocess.run([PROMTOOL, "test", "rules", RULE_TESTS.name], cwd=RULE_TESTS.parent, capture_output=True,
                            text=True)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    # Every alert has a severity and a runbook line, and is tested.
    tests = RULE_TESTS.read_text()
    for group in yaml.safe_load(RULES.read_text())["groups"]:
        for rule in group["rules"]:
            assert rule["labels"]["severity"] in ("warning", "critical"), rule["alert"]
            assert rule["annotations"]["runbook"].strip() and "\n" not in rule["annotations"]["runbook"], rule["alert"]
            assert f"alertname: {rule['alert']}\n" in tests, f"{rule['alert']} has no promtool test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Prometheus:
    """A real `prometheus` on a free loopback port, scraping `targets` every second with the
    alert rules loaded, its storage in `workdir`."""

    def __init__(self, workdir: Path, targets: list):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = workdir / "prometheus.yml"
        config.write_text(yaml.safe_dump({
            "global": {"scrape_interval": "1s", "scrape_timeout": "1s", "evaluation_interval": "1s"},
            "rule_files": [str(RULES)],
            "scrape_configs": [{"job_name": "push-relay", "static_configs": [{"targets": targets}]}],
        }))
        self.log = open(workdir / "prometheus.log", "wb")
        self.process = subprocess.Popen(
            [PROMETHEUS, f"--config.file={config}", f"--storage.tsdb.path={workdir / 'tsdb'}",
             f"--web.listen-address=127.0.0.1:{self.port}", "--log.level=warn"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while not self.ready():
            assert self.process.poll() is None, (workdir / "prometheus.log").read_text()
            assert time.monotonic() < deadline, "prometheus did not become ready"
            time.sleep(0.1)

    def ready(self) -> bool:
        try:
            return requests.get(f"{self.url}/-/ready", timeout=2).status_code == 200
        except requests.ConnectionError:
            return False

    def query(self, expr: str) -> dict:
        r = requests.get(f"{self.url}/api/v1/query", params={"query": expr}, timeout=10)
        return r.json()

    def names(self) -> set:
        return set(requests.get(f"{self.url}/api/v1/label/__name__/values", timeout=10).json()["data"])

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def exported_names(text: str) -> set:
    return {re.split(r"[{ ]", line, maxsplit=1)[0] for line in text.splitlines() if line and not line.startswith("#")}


def event(message_id: int, users: list, app: str = APP_ID) -> bytes:
    """An event in which u0 (online) writes to `users` (offline)."""
    members = [{"user_id": "u0", "nickname": "sender", "is_online": True, "state": "joined"}]
    members += [{"user_id": f"u{u}", "nickname": f"n{u}", "is_online": False, "state": "joined"} for u in users]
    body = {"category": "group_channel:message_send", "app_id": app, "type": "MESG",
            "sender": {"user_id": "u0", "nickname": "Sender"}, "members": members,
            "payload": {"message_id": message_id, "created_at": 1700000000000, "message": f"metrics {message_id}"},
            "channel": {"channel_url": "ch-prometheus", "name": "Metrics"}}
    return json.dumps(body, separators=(",", ":")).encode()


def wait_for(condition, what: str, deadline_s: float = 60):
    """Polls `condition` until it returns something true; fails naming `what` at the deadline."""
    deadline = time.monotonic() + deadline_s
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def send_traffic(fleet: Fleet):
    """APNs, FCM, HMS and Web Push pushes; a dead FCM token; a 429 then a refused credential; a click; a
    webhook refused 503 (an app without provider settings)."""
    http = requests.Session()
    fleet.register_users()
    fcm_admin = fleet.fcm_admin

    def arm(faults):
        r = http.post(f"{fcm_admin}/faults", json=faults, timeout=10)
        assert r.status_code in (200, 204), r.text

    # u3 holds a token of each kind and a Web Push subscription; u5 an FCM token, which is dead.
    arm({"unregistered": [fcm_token_for(5)]})
    assert fleet.post_event(http, event(9_300_001, [2, 3, 5])).status_code == 200

    def metrics():
        return "".join(http.get(f"{url}/metrics", timeout=10).text for url in fleet.urls())

    wait_for(lambda: "pushrelay_token_removals_total{" in metrics(), "the dead token's removal")
    # u1's only token is an FCM token: 429 (retried a second later), then SENDER_ID_MISMATCH.
    arm({"quota_exceeded": {"count": 1, "retry_after": 1}, "sender_id_mismatch": 1})
    assert fleet.post_event(http, event(9_300_002, [1])).status_code == 200
    wait_for(lambda: "pushrelay_credential_errors_total{" in metrics() and "pushrelay_retries_total{" in metrics(),
             "the retry and the refused credential")

    # A click on u3's APNs push (it acknowledges it too).
    record = wait_for(lambda: next((r for r in fleet.recorded() if r["deviceToken"] == token_for(3)), None),
                      "u3's APNs push at the mock")
    tracking = payload(record)["sendbird"]["push_tracking_id"]
    r = http.post(f"{fleet.url}/v3/sdk/push_click", json={"device_token": token_for(3), "push_tracking_id": tracking},
                  headers={"Api-Token": API_TOKEN}, timeout=10)
    assert r.status_code == 200, r.text

    body = event(1, [1], app=BARE_APP)
    r = http.post(f"{fleet.url}/webhooks/sendbird/{BARE_APP}", data=body, timeout=10,
                  headers={"Content-Type": "application/json",
                           "x-sendbird-signature": hmac.new(BARE_TOKEN.encode(), body, hashlib.sha256).hexdigest()})
    assert r.status_code == 503, r.text


@needs_prometheus
@needs_build
def test_every_panel_and_alert_expression_parses_and_names_what_the_relays_export(tmp_path):
    certificate = private_copy(CERTS / "client.p12", tmp_path / "keys")
    more_apps = (
        f"  - app_id: {CERT_APP}\n"
        f"    api_token: {CERT_TOKEN}\n"
        "    apns:\n"
        "      topic: com.example.cert\n"
        f"      environment: {{url: \"https://127.0.0.1:9\", ca_file: {CERTS / 'ca.pem'}}}\n"
        f"      auth: {{certificate: {{p12_file: {certificate}, password: secret}}}}\n"
        f"  - app_id: {BARE_APP}\n"
        f"    api_token: {BARE_TOKEN}\n")
    started = time.monotonic()
    fleet = Fleet(tmp_path, size=2, fcm=True, hms=True, webpush=True, more_apps=more_apps)
    prometheus = None
    try:
        targets = [url.removeprefix("http://") for url in fleet.urls()]
        prometheus = Prometheus(tmp_path, targets)
        send_traffic(fleet)

        # Everything the relays export now is in Prometheus (one scrape after the traffic).
        exported = set()
        for url in fleet.urls():
            exported |= exported_names(requests.get(f"{url}/metrics", timeout=10).text)
        wait_for(lambda: exported <= prometheus.names(), f"Prometheus to have {sorted(exported - prometheus.names())}")
        known = exported | prometheus.names() | {"up"}

        panels = dashboard_targets()
        alerts = alert_expressions()
        assert len(panels) > 30 and len(alerts) >= 13, (len(panels), len(alerts))
        for source, expr in [(f"panel {t}", e) for t, e in panels] + [(f"alert {a}", e) for a, e in alerts]:
            answer = prometheus.query(expr)
            assert answer["status"] == "success", f"{source}: {expr}\n{answer}"
            names = metric_names(expr)
            assert names, f"{source}: no metric in {expr}"
            assert names <= known, f"{source}: {sorted(names - known)} are not exported by the relay ({expr})"

        # Every panel shows something with this traffic (a series, if only a 0 or NaN): a
        # misspelt label value or a selector matching nothing leaves one empty. Polled: a rate
        # needs two samples of its series.
        for title, expr in panels:
            wait_for(lambda: prometheus.query(expr)["data"]["result"], f"data in panel {title!r}: {expr}", deadline_s=30)

        # The fleet as each relay sees it, and the relays' own state.
        nodes = prometheus.query("max(pushrelay_fleet_nodes)")["data"]["result"]
        assert nodes and float(nodes[0]["value"][1]) == 2, nodes
        ready = prometheus.query("sum(pushrelay_ready)")["data"]["result"]
        assert float(ready[0]["value"][1]) == 2, ready

        # Every rule evaluates without error in the real Prometheus (the rules loaded from the file).
        def evaluated():
            groups = requests.get(f"{prometheus.url}/api/v1/rules", timeout=10).json()["data"]["groups"]
            rules = [rule for group in groups for rule in group["rules"]]
            done = len(rules) == len(alerts) and all(
                r["health"] != "unknown" and not r.get("lastEvaluation", "0001").startswith("0001") for r in rules)
            return rules if done else None
        rules = wait_for(evaluated, "every rule evaluated", deadline_s=30)
        assert all(rule["health"] == "ok" for rule in rules), [(r["name"], r.get("lastError")) for r in rules
                                                               if r["health"] != "ok"]
        print(f"\nprometheus: {len(panels)} panel targets and {len(alerts)} alert expressions evaluated against "
              f"{len(exported)} exported metric names, in {time.monotonic() - started:.1f} s")
    finally:
        if prometheus:
            prometheus.stop()
        fleet.stop()
