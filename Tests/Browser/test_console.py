"""The operator console in a real browser: headless Chromium from Debian (`chromium`,
`chromium-driver`) driven by Selenium against the real `push-relay serve` and apns-mock
(`cluster.py`). It signs in with the app's API token, reads the overview and checks its numbers
against `/metrics`, traces a delivered and a skipped push, sends a test push that reaches the mock,
does the same for a browser's Web Push subscription (webpush-mock decrypts what it got), and shows that a user id, a nickname and a message text holding `<script>` and `"><img onerror>`
appear as text while no script runs.

Screenshots of each page go to $CONSOLE_SCREENSHOTS when set (`CONSOLE_SCREENSHOTS=docs/console`
refreshes the docs' pictures), else to the test's temporary directory."""

import json
import os
import shutil
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import requests

from cluster import API_TOKEN, APP_ID, MOCK_BIN, RELAY_BIN, WEBPUSH_MOCK_BIN, Cluster, payload, signed, token_for

webdriver = pytest.importorskip(
    "selenium.webdriver", reason="selenium is not installed: pip install -r scripts/requirements-test.txt (docs/testing.md)")
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = Path(os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CHROMEDRIVER_BINARY", "/usr/bin/chromedriver"))
MESSAGE_ID = 7_300_001
# A user id and a nickname that would run script if the console wrote them as markup.
HOSTILE = '<script>window.__xss=1</script>"><img src=x onerror="window.__xss=2">'
USERS = {"bob": token_for(1), "carol": token_for(2), HOSTILE: token_for(3)}

pytestmark = pytest.mark.skipif(
    not all(p.exists() for p in (RELAY_BIN, MOCK_BIN, WEBPUSH_MOCK_BIN, CHROMIUM, CHROMEDRIVER)),
    reason="needs the built relay and mocks (scripts/test builds them) and Debian's chromium and chromium-driver")


def metric_sum(text: str, name: str, **labels) -> float:
    total, seen = 0.0, False
    for line in text.splitlines():
        if (line.startswith(name + "{") or line.startswith(name + " ")) and all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
            seen = True
    return total if seen else None


def event() -> bytes:
    """Alice (online) writes to bob, carol and the hostile user, all offline."""
    members = [{"user_id": "alice", "nickname": "Alice", "is_online": True, "state": "joined"}]
    members += [{"user_id": u, "nickname": u, "is_online": False, "state": "joined"} for u in USERS]
    body = {"category": "group_channel:message_send", "app_id": APP_ID, "type": "MESG",
            "sender": {"user_id": "alice", "nickname": "Alice"}, "members": members,
            "payload": {"message_id": MESSAGE_ID, "created_at": 1700000000000, "message": "Lunch at noon?"},
            "channel": {"channel_url": "lunch", "name": "Lunch"}}
    return json.dumps(body, separators=(",", ":")).encode()


@pytest.fixture(scope="module")
def relay(tmp_path_factory):
    cluster = Cluster(tmp_path_factory.mktemp("console"), extra_config="console: {enabled: true}\n", webpush=True)
    try:
        http = requests.Session()
        http.headers["Api-Token"] = API_TOKEN
        for user, token in USERS.items():
            r = http.post(f"{cluster.url}/v3/users", json={"user_id": user, "nickname": user, "profile_url": ""}, timeout=10)
            assert r.status_code == 200, r.text
            r = http.post(f"{cluster.url}/v3/users/{quote(user, safe='')}/push/apns", json={"apns_device_token": token}, timeout=10)
            assert r.status_code == 200, r.text
        r = http.put(f"{cluster.url}/v3/users/carol/push_preference", json={"push_trigger_option": "off"}, timeout=10)
        assert r.status_code == 200, r.text
        assert cluster.post_event(http, event()).status_code == 200
        want = {(MESSAGE_ID, USERS["bob"]), (MESSAGE_ID, USERS[HOSTILE])}
        assert cluster.wait_delivered(want, deadline_s=120), "the pushes never reached apns-mock"
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("CONSOLE_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser(relay):
    options = Options()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900",
                     "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def open_page(driver, relay, path: str):
    driver.get(relay.url + path)


def click_and_wait(driver, element):
    """Clicks a link or a form's button and waits until the next page has replaced this one (a
    click returns before the navigation it starts has finished). Asked in the middle of the
    navigation, chromedriver may answer "unhandled inspector error" (the old page's context is
    gone, the new one not there yet) rather than "stale element": the wait asks again."""
    page = driver.find_element(By.TAG_NAME, "html")
    element.click()
    navigating = (WebDriverException,)
    WebDriverWait(driver, 60, ignored_exceptions=navigating).until(expected_conditions.staleness_of(page))
    WebDriverWait(driver, 60, ignored_exceptions=navigating).until(
        lambda d: d.execute_script("return document.readyState") == "complete")


def shot(driver, folder: Path, name: str):
    driver.save_screenshot(str(folder / f"{name}.png"))


def text_of(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def figure(driver, element_id: str) -> str:
    return driver.find_element(By.CSS_SELECTOR, f"#{element_id} .value").text


def test_sign_in_with_the_apps_api_token(relay, browser, screenshots):
    open_page(browser, relay, "/console")
    assert browser.current_url.endswith("/console/sign-in")
    shot(browser, screenshots, "sign-in")
    browser.find_element(By.ID, "secret").send_keys("not-the-token-0123456789")
    click_and_wait(browser, browser.find_element(By.ID, "sign-in"))
    assert "Sign-in failed" in browser.find_element(By.CSS_SELECTOR, "[role=alert]").text
    browser.find_element(By.ID, "secret").send_keys(API_TOKEN)
    click_and_wait(browser, browser.find_element(By.ID, "sign-in"))
    assert browser.current_url.endswith("/console/overview")
    assert text_of(browser, "current-app") == APP_ID
    session = browser.get_cookie("pushrelay_console")
    assert session and session["httpOnly"] and session["sameSite"] == "Strict"
    assert browser.execute_script("return document.cookie") == "", "no cookie is readable by script"


def test_the_overview_shows_what_metrics_gives(relay, browser, screenshots):
    open_page(browser, relay, "/console/overview")
    metrics = requests.get(f"{relay.url}/metrics", timeout=10).text
    shot(browser, screenshots, "overview")

    def expect(element_id, value):
        shown = figure(browser, element_id)
        assert shown == ("—" if value is None else str(int(value))), f"{element_id}: page {shown}, /metrics {value}"

    # The relay has run for less than an hour: the hour's counts are the counters themselves.
    expect("sent", metric_sum(metrics, "pushrelay_pushes_total", app=APP_ID, status="sent"))
    assert figure(browser, "sent") == "2"
    failed = (metric_sum(metrics, "pushrelay_pushes_total", app=APP_ID, status="failed") or 0) + \
        (metric_sum(metrics, "pushrelay_pushes_total", app=APP_ID, status="expired") or 0)
    expect("failed", failed)
    expect("dead-tokens", metric_sum(metrics, "pushrelay_pushes_total", app=APP_ID, status="token_invalid") or 0)
    expect("acknowledged", metric_sum(metrics, "pushrelay_push_acknowledgements_total", app=APP_ID) or 0)
    expect("queue-depth", metric_sum(metrics, "pushrelay_app_queue_depth", app=APP_ID))
    # One app on this relay: its figures are the relay's to show.
    expect("relay-queue-depth", metric_sum(metrics, "pushrelay_queue_depth"))
    refused = sum(float(line.rsplit(" ", 1)[1]) for line in metrics.splitlines()
                  if line.startswith("pushrelay_webhook_events_total{")
                  and not any(f'result="{r}"' in line for r in ("accepted", "duplicate", "ignored")))
    expect("webhooks-refused", refused)
    expect("fleet-nodes", metric_sum(metrics, "pushrelay_fleet_nodes"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#credentials tbody tr")
    assert [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows] == ["APNs", "Web Push"]
    assert "does not expire" in rows[0].text
    assert "until replaced (subscriptions are bound to it)" in rows[1].text, rows[1].text


def trace(browser, relay, user: str, message_id=None):
    open_page(browser, relay, "/console/why")
    browser.find_element(By.ID, "user_id").send_keys(user)
    if message_id is not None:
        browser.find_element(By.ID, "message_id").send_keys(str(message_id))
    click_and_wait(browser, browser.find_element(By.ID, "trace"))


def test_trace_a_delivered_push(relay, browser, screenshots):
    trace(browser, relay, "bob")
    rows = browser.find_elements(By.CSS_SELECTOR, "#recent tbody tr")
    assert len(rows) == 1 and str(MESSAGE_ID) in rows[0].text and "sent" in rows[0].text
    click_and_wait(browser, rows[0].find_element(By.TAG_NAME, "a"))
    assert text_of(browser, "decision-code") == "push"
    delivery = browser.find_element(By.CSS_SELECTOR, "section.delivery")
    assert delivery.find_element(By.CSS_SELECTOR, ".state").text == "sent"
    assert "APNs answered 200" in delivery.text
    assert USERS["bob"] not in browser.page_source, "a device token is never shown whole"
    assert USERS["bob"][:4] + "…" in delivery.text
    shot(browser, screenshots, "why-delivered")


def test_trace_a_skipped_push(relay, browser, screenshots):
    # Without a message id: the user's skipped messages, each with its reason and a link to its timeline.
    trace(browser, relay, "carol")
    assert not browser.find_elements(By.CSS_SELECTOR, "#recent tbody tr a")
    skipped = browser.find_elements(By.CSS_SELECTOR, "#skipped tbody tr")
    assert len(skipped) == 1 and str(MESSAGE_ID) in skipped[0].text and "trigger_off" in skipped[0].text, skipped[0].text
    shot(browser, screenshots, "why-recent")
    click_and_wait(browser, skipped[0].find_element(By.TAG_NAME, "a"))
    assert text_of(browser, "decision-code") == "trigger_off"
    assert "turned push notifications off" in text_of(browser, "decision-reason")
    assert not browser.find_elements(By.CSS_SELECTOR, "section.delivery")
    shot(browser, screenshots, "why-skipped")
    click_and_wait(browser, browser.find_element(By.LINK_TEXT, "Devices and preferences of this user"))
    assert "trigger_off" in text_of(browser, "verdict-text")
    assert "off" in text_of(browser, "preferences")
    shot(browser, screenshots, "devices")


def test_what_users_typed_appears_as_text(relay, browser, screenshots):
    open_page(browser, relay, "/console/user")
    browser.find_element(By.ID, "user_id").send_keys(HOSTILE)
    click_and_wait(browser, browser.find_element(By.ID, "look-up"))
    heading = browser.find_element(By.CSS_SELECTOR, "h2 code.user-id").text
    assert heading == HOSTILE
    assert text_of(browser, "nickname") == HOSTILE
    assert HOSTILE in browser.find_element(By.TAG_NAME, "body").text
    assert browser.execute_script("return window.__xss === undefined")
    injected = browser.execute_script(
        "return document.querySelectorAll('main script, main img, img[onerror], [onerror]').length")
    assert injected == 0
    shot(browser, screenshots, "escaped")
    trace(browser, relay, HOSTILE, MESSAGE_ID)
    assert text_of(browser, "decision-code") == "push"
    assert browser.find_element(By.CSS_SELECTOR, "h2 code.user-id").text == HOSTILE
    assert browser.execute_script("return window.__xss === undefined")


def test_a_test_push_reaches_the_mock(relay, browser, screenshots):
    text = "Test from the console " + HOSTILE
    open_page(browser, relay, "/console/user?user_id=bob")
    click_and_wait(browser, browser.find_element(By.LINK_TEXT, "Send a test push"))
    radios = browser.find_elements(By.CSS_SELECTOR, "input[type=radio][name=device]")
    assert len(radios) == 1 and radios[0].is_selected()
    message = browser.find_element(By.ID, "message")
    message.clear()
    message.send_keys(text)
    browser.find_element(By.ID, "title").send_keys("Console")
    click_and_wait(browser, browser.find_element(By.ID, "send"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")
    assert len(rows) == 1
    cells = [c.text for c in rows[0].find_elements(By.TAG_NAME, "td")]
    assert cells[0] == "APNs" and cells[2] == "sent" and cells[3] == "200", cells
    assert text_of(browser, "sent-message") == text
    assert browser.execute_script("return window.__xss === undefined")
    shot(browser, screenshots, "test-push")
    deadline = time.monotonic() + 60
    while True:
        alerts = [payload(r)["aps"]["alert"] for r in relay.recorded() if r["deviceToken"] == USERS["bob"]]
        if any(isinstance(a, dict) and a.get("body") == text and a.get("title") == "Console" for a in alerts):
            break
        assert time.monotonic() < deadline, f"apns-mock never got the test push: {alerts}"
        time.sleep(0.1)
    # Listed as a test push, not as message 0 decided by the policy, and counted in the overview.
    trace(browser, relay, "bob")
    tests = [r for r in browser.find_elements(By.CSS_SELECTOR, "#recent tbody tr") if r.text.startswith("test push")]
    assert len(tests) == 1, [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#recent tbody tr")]
    click_and_wait(browser, tests[0].find_element(By.TAG_NAME, "a"))
    assert text_of(browser, "decision-code") == "no message"
    assert "policy decided" not in text_of(browser, "decision-reason")
    assert "APNs test push to" in browser.find_element(By.CSS_SELECTOR, "section.delivery").text
    open_page(browser, relay, "/console/overview")
    assert figure(browser, "test-pushes") == "1"


def test_a_browser_subscription_is_listed_traced_and_test_pushed(relay, browser, screenshots):
    """Dave uses the web app: a Web Push subscription, as the browser's `toJSON()` gave it."""
    subscription = relay.subscriptions[0]
    http = requests.Session()
    http.headers["Api-Token"] = API_TOKEN
    r = http.post(f"{relay.url}/v3/users/dave/push/webpush", json={"subscription": subscription["subscription"]}, timeout=10)
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    body = json.loads(event())
    body["members"] = body["members"][:1] + [{"user_id": "dave", "nickname": "Dave", "is_online": False, "state": "joined"}]
    body["payload"]["message_id"] = MESSAGE_ID + 1
    assert relay.post_event(http, json.dumps(body).encode()).status_code == 200
    assert relay.wait_delivered({(MESSAGE_ID + 1, token)}, deadline_s=120), "the push never reached webpush-mock"

    open_page(browser, relay, "/console/user?user_id=dave")
    devices = [[c.text for c in row.find_elements(By.TAG_NAME, "td")]
               for row in browser.find_elements(By.CSS_SELECTOR, "#devices tbody tr")]
    assert len(devices) == 1 and devices[0][0] == "Web Push", devices
    assert token not in browser.page_source and subscription["subscription"]["endpoint"] not in browser.page_source, \
        "a subscription is never shown whole"
    shot(browser, screenshots, "devices-webpush")

    trace(browser, relay, "dave", MESSAGE_ID + 1)
    assert text_of(browser, "decision-code") == "push"
    delivery = browser.find_element(By.CSS_SELECTOR, "section.delivery")
    assert delivery.find_element(By.CSS_SELECTOR, ".state").text == "sent"
    assert "Web Push answered 201" in delivery.text

    text = "Test from the console to a browser " + HOSTILE
    open_page(browser, relay, "/console/user?user_id=dave")
    click_and_wait(browser, browser.find_element(By.LINK_TEXT, "Send a test push"))
    message = browser.find_element(By.ID, "message")
    message.clear()
    message.send_keys(text)
    click_and_wait(browser, browser.find_element(By.ID, "send"))
    cells = [c.text for c in browser.find_element(By.CSS_SELECTOR, "#results tbody tr").find_elements(By.TAG_NAME, "td")]
    assert cells[0] == "Web Push" and cells[2] == "sent" and cells[3] == "201", cells
    assert browser.execute_script("return window.__xss === undefined")
    deadline = time.monotonic() + 60
    while True:
        bodies = [json.loads(r["plaintext"])["notification"]["body"] for r in relay.webpush_recorded()
                  if r["subscription"] == subscription["id"]]
        if any(text in b for b in bodies):
            break
        assert time.monotonic() < deadline, f"webpush-mock never got the test push: {bodies}"
        time.sleep(0.1)


def test_a_phone_sized_window_reads_without_sideways_scrolling(relay, browser, screenshots):
    browser.set_window_size(390, 844)
    try:
        open_page(browser, relay, "/console/overview")
        width = browser.execute_script("return document.documentElement.scrollWidth")
        viewport = browser.execute_script("return window.innerWidth")
        assert width <= viewport + 1, f"the page is {width}px wide in a {viewport}px window"
        shot(browser, screenshots, "overview-phone")
    finally:
        browser.set_window_size(1200, 900)


def test_sign_out_ends_the_session(relay, browser):
    open_page(browser, relay, "/console/overview")
    cookie = browser.get_cookie("pushrelay_console")["value"]
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "form[action='/console/sign-out'] button"))
    assert browser.current_url.endswith("/console/sign-in")
    # The old cookie opens nothing on the server either.
    r = requests.get(f"{relay.url}/console/overview", cookies={"pushrelay_console": cookie}, allow_redirects=False, timeout=10)
    assert r.status_code == 303 and r.headers["Location"] == "/console/sign-in"


def test_on_postgresql_the_overview_shows_the_fleet(tmp_path_factory, browser, screenshots):
    """A relay on PostgreSQL counts the fleet's relays (`pushrelay_fleet_nodes`); the overview
    shows the same number. Last: it signs the browser in on another port of 127.0.0.1, and a
    browser keeps one cookie per host, whatever the port."""
    fleet = Cluster(tmp_path_factory.mktemp("console-pg"), extra_config="console: {enabled: true}\n", store="postgres")
    try:
        deadline = time.monotonic() + 60
        while metric_sum(requests.get(f"{fleet.url}/metrics", timeout=10).text, "pushrelay_fleet_nodes") is None:
            assert time.monotonic() < deadline, "the relay never counted the fleet"
            time.sleep(0.2)
        open_page(browser, fleet, "/console/sign-in")
        browser.find_element(By.ID, "secret").send_keys(API_TOKEN)
        click_and_wait(browser, browser.find_element(By.ID, "sign-in"))
        metrics = requests.get(f"{fleet.url}/metrics", timeout=10).text
        assert figure(browser, "fleet-nodes") == str(int(metric_sum(metrics, "pushrelay_fleet_nodes"))) == "1"
        assert figure(browser, "claims-held") == str(int(metric_sum(metrics, "pushrelay_claims_held")))
    finally:
        fleet.stop()
