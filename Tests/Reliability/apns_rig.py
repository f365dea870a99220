"""A relay and apns-mock processes for end-to-end APNs tests: one app, its `apns:` section
written by the test, REST and webhook helpers, and what each mock received."""

import json
import time

import requests

from cluster import API_TOKEN, CERTS, MOCK_BIN, RELAY_BIN, private_copy, read_json_lines, signed, start_and_wait, terminate

APP = "config-app"
TOPIC = "com.example.chat"


def single(mocks, auth, ca):
    """One configuration on the production mock."""
    return ("    apns:\n"
            f"      topic: {TOPIC}\n"
            f"      environment: {{url: \"{mocks['production']['url']}\", ca_file: {ca}}}\n"
            f"      auth: {auth}\n")


class Rig:
    """apns-mock processes (one per Apple environment named) and the real relay, with one app
    whose `apns:` section `apns(mocks, auth, ca)` writes."""

    def __init__(self, tmp_path, environments=("production",), apns=None, mock_args=()):
        self.mocks = {}
        for environment in environments:
            record = tmp_path / f"{environment}.jsonl"
            process, line = start_and_wait(
                [str(MOCK_BIN), "--port", "0", "--admin-port", "0", "--team-id", "DEVTEAM123", "--record", str(record),
                 "--cert", str(CERTS / "server.pem"), "--key", str(CERTS / "server.key"),
                 "--jwt-key", f"DEVKEY1234={CERTS / 'AuthKey_DEVKEY1234.pub.pem'}", "--environment", environment,
                 "--log-level", "warning", *mock_args],
                tmp_path / f"{environment}-mock.log", "listening on")
            self.mocks[environment] = {
                "process": process, "record": record, "url": line.split("listening on ")[1].split()[0],
                "admin": line.split("admin on ")[1].split()[0],
                "manage": line.split("manage on ")[1].split(",")[0].split()[0] if "manage on " in line else None}
        key = private_copy(CERTS / "AuthKey_DEVKEY1234.p8", tmp_path / "keys")
        auth = f"{{token: {{key_file: {key}, key_id: DEVKEY1234, team_id: DEVTEAM123}}}}"
        ca = CERTS / "ca.pem"
        config = tmp_path / "relay.yaml"
        config.write_text(
            "listen: {host: 127.0.0.1, port: 0}\n"
            f"database: {{path: {tmp_path / 'relay.sqlite'}}}\n"
            "log_level: notice\n"
            "apps:\n"
            f"  - app_id: {APP}\n"
            f"    api_token: {API_TOKEN}\n"
            + (apns or single)(self.mocks, auth, ca))
        self.relay, line = start_and_wait([str(RELAY_BIN), "serve", "--config", str(config)], tmp_path / "relay.log",
                                          "listening on")
        self.url = line.split("listening on ")[1].split()[0]
        self.log = tmp_path / "relay.log"
        self.http = requests.Session()
        self.http.headers["Api-Token"] = API_TOKEN

    def stop(self):
        terminate(self.relay)
        for mock in self.mocks.values():
            terminate(mock["process"])

    def register(self, user, token, **extra):
        r = self.http.post(f"{self.url}/v3/users/{user}/push/apns", json={"apns_device_token": token, **extra}, timeout=30)
        return r

    def webhook(self, message_id, users):
        members = [{"user_id": "sender", "nickname": "S", "is_online": True, "state": "joined"}]
        members += [{"user_id": u, "nickname": u, "is_online": False, "state": "joined", "total_unread_message_count": 1}
                    for u in users]
        body = json.dumps({
            "category": "group_channel:message_send", "app_id": APP, "type": "MESG",
            "sender": {"user_id": "sender", "nickname": "Sender"}, "members": members,
            "payload": {"message_id": message_id, "created_at": 1700000000000, "message": f"hello {message_id}"},
            "channel": {"channel_url": "general", "name": "General"}}).encode()
        r = requests.post(f"{self.url}/webhooks/sendbird", data=body, timeout=30,
                          headers={"x-sendbird-signature": signed(body), "content-type": "application/json"})
        assert r.status_code == 200, r.text

    def notifications(self, environment="production"):
        """What the mock accepted: device token, headers and the payload parsed."""
        return [{**n, "payload": json.loads(n["payload"])} for n in read_json_lines(self.mocks[environment]["record"])]

    def received(self, environment="production"):
        return [(n["deviceToken"], json.loads(n["payload"])["sendbird"]["message_id"])
                for n in read_json_lines(self.mocks[environment]["record"])]

    def requests_seen(self, environment="production"):
        stats = requests.get(f"{self.mocks[environment]['admin']}/stats", timeout=10).json()
        return stats["requestsReceived"]

    def wait(self, condition, deadline_s):
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.02)
        return condition()

    def log_of(self, message_id, user):
        r = self.http.get(f"{self.url}/v3/push/deliveries", params={"message_id": message_id, "user_id": user}, timeout=30)
        assert r.status_code == 200, r.text
        return r.json()
