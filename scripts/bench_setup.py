"""Set-up shared by the benchmark scripts that run the real relay against an nghttpd sink.

    python3 scripts/bench_setup.py sink-tokens WORK USERS   # WORK/htdocs/3/device/<token> for each user
    python3 scripts/bench_setup.py register PORT USERS      # each user's APNs token through the REST API
    python3 scripts/bench_setup.py relay-config OUT PORT SINK_PORT DATABASE [MAX_BACKLOG]
                                     # the relay's YAML: the benchmark app, APNs at the sink (dev certs)

Users are u0…u(USERS-1) and user u's token is the hex of u+1 in 64 digits (bench_events.py's
users); nghttpd answers 200 for every path it has a file for, so each token gets one.
"""
import concurrent.futures
import os
import shutil
import sys

API_TOKEN = "bench-token-0123456789abcdef0123456789abcdef"


def token(u):
    return f"{u + 1:064x}"


def sink_tokens(work, users):
    os.makedirs(f"{work}/htdocs/3/device", exist_ok=True)
    for u in range(users):
        with open(f"{work}/htdocs/3/device/{token(u)}", "w") as out:
            out.write("ok\n")


def post_within_rate(session, url, **kwargs):
    """POST as an app server should: a 429's Retry-After waited out (the relay holds each API
    token to apps[].limits.api_token_requests_per_second), any other error raised."""
    import time
    while True:
        answer = session.post(url, **kwargs)
        if answer.status_code != 429:
            answer.raise_for_status()
            return answer
        time.sleep(float(answer.headers.get("Retry-After", "1")))


def register(port, users):
    """As an app server would, eight at a time."""
    import requests
    session = requests.Session()

    def one(u):
        post_within_rate(session, f"http://127.0.0.1:{port}/v3/users/u{u}/push/apns", timeout=30,
                         headers={"Api-Token": API_TOKEN}, json={"apns_device_token": token(u)})

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(one, range(users)))


def private_key(directory):
    """The dev .p8 key copied into `directory`, readable by its owner only: the relay refuses a
    key file every user can read, and a checkout's files are 0644."""
    certs = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "certs", "dev")
    key = os.path.join(directory, "AuthKey_DEVKEY1234.p8")
    shutil.copyfile(os.path.join(certs, "AuthKey_DEVKEY1234.p8"), key)
    os.chmod(key, 0o600)
    return key


def relay_config(out, port, sink_port, database, max_backlog=""):
    certs = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "certs", "dev")
    key = private_key(os.path.dirname(os.path.abspath(out)))
    delivery = f"delivery: {{max_backlog: {max_backlog}}}\n" if max_backlog else ""
    with open(out, "w") as config:
        # LOG_LEVEL: the relay's log_level (default info, as installed): what its log lines cost.
        log_level = f"log_level: {os.environ['LOG_LEVEL']}\n" if os.environ.get("LOG_LEVEL") else ""
        config.write(f"""listen: {{host: 127.0.0.1, port: {port}}}
database: {{path: {database}}}
{log_level}{delivery}apps:
  - app_id: bench-app
    api_token: {API_TOKEN}
    apns:
      topic: com.example.pushrelay
      environment: {{url: "https://127.0.0.1:{sink_port}", ca_file: {certs}/ca.pem}}
      auth: {{token: {{key_file: {key}, key_id: DEVKEY1234, team_id: DEVTEAM123}}}}
""")


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "relay-config":
        relay_config(*sys.argv[2:])
    else:
        {"sink-tokens": sink_tokens, "register": register}[command](sys.argv[2], int(sys.argv[3]))
