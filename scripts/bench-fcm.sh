#!/usr/bin/env bash
# FCM beside APNs, in one run: the real `push-relay serve` (default log level, synchronous=FULL,
# every event committed before its 200), loaded by wrk with the pre-signed events of
# bench-compare.sh (channels of MEMBERS, default 10: 8 offline with a token each), once with
# every user holding an APNs token (against `apns-mock --mode sink`) and once with every user
# holding an FCM token (against `fcm-mock`, which checks each bearer token and message as Google
# does), alternating ROUNDS times on a fresh database each. Prints pushes/s sent during the load
# for each and the ratio FCM ÷ APNs — the comparison that holds on machines whose speed varies.
#
#   scripts/bench-fcm.sh                         # DURATION=15 s per phase, ROUNDS=2
#   RELAY_BIN=.build/debug/push-relay MOCK_DIR=.build/debug scripts/bench-fcm.sh   # a debug build
#   PERF_OUT=/tmp/fcm.perf ROUNDS=1 scripts/bench-fcm.sh     # perf record of the relay in the FCM phase
#
# The two mocks are both swift-nio-http2 servers on the same two cores as the relay and wrk; fcm-mock
# parses every message body (apns-mock's sink does not), so the ratio is a floor for FCM.
# Needs: wrk, sqlite3, python3 (requests); release builds.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-2}
CONNS=${CONNS:-64}
THREADS=${THREADS:-2}
USERS=${USERS:-10000}
MEMBERS=${MEMBERS:-10}
EVENTS=${EVENTS:-200000}
work=$(mktemp -d)
cleanup() {
  for pid in ${relay_pid:-} ${apns_pid:-} ${fcm_pid:-}; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
. scripts/bench-exit.sh
bench_on_exit cleanup

for tool in wrk sqlite3 python3; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install wrk sqlite3)" >&2; exit 2; }
done
RELAY_BIN=${RELAY_BIN:-.build/release/push-relay}
MOCK_DIR=${MOCK_DIR:-.build/release}
if [ "$RELAY_BIN" = .build/release/push-relay ]; then swift build -c release --product push-relay >/dev/null; fi
if [ "$MOCK_DIR" = .build/release ]; then
  swift build -c release --product apns-mock >/dev/null
  swift build -c release --product fcm-mock >/dev/null
fi

python3 scripts/bench_events.py "$work/events.txt" "$EVENTS" "$USERS" 1000000 "$MEMBERS"

port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_line() { for _ in $(seq 600); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; cat "$1" >&2; exit 1; }

apns_port=$(port)
"$MOCK_DIR/apns-mock" --port "$apns_port" --mode sink --log-level warning > "$work/apns-mock.out" 2>&1 &
apns_pid=$!
wait_line "$work/apns-mock.out" "listening on"
fcm_port=$(port)
"$MOCK_DIR/fcm-mock" --port "$fcm_port" --service-account certs/dev/fcm-service-account.json --max-streams 1000 \
  --log-level warning > "$work/fcm-mock.out" 2>&1 &
fcm_pid=$!
wait_line "$work/fcm-mock.out" "listening on"

echo "== $(date -u +%F), $(nproc) cores; relay $RELAY_BIN; $MEMBERS-member channels, ${DURATION}s of wrk ($THREADS threads x $CONNS connections) per phase"
results=()
for round in $(seq "$ROUNDS"); do
  for provider in apns fcm; do
    rm -f "$work"/relay.sqlite*
    relay_port=$(port)
    # The relay refuses a key file every user can read; a checkout's files are 0644.
    install -m 0600 certs/dev/AuthKey_DEVKEY1234.p8 certs/dev/fcm-service-account.json "$work/"
    cat > "$work/relay.yaml" <<YAML
listen: {host: 127.0.0.1, port: $relay_port}
database: {path: $work/relay.sqlite}
apps:
  - app_id: bench-app
    api_token: bench-token-0123456789abcdef0123456789abcdef
    apns:
      topic: com.example.pushrelay
      environment: {url: "https://127.0.0.1:$apns_port", ca_file: $PWD/certs/dev/ca.pem}
      auth: {token: {key_file: $work/AuthKey_DEVKEY1234.p8, key_id: DEVKEY1234, team_id: DEVTEAM123}}
    fcm:
      service_account: $work/fcm-service-account.json
      url: "https://127.0.0.1:$fcm_port"
      token_url: "https://127.0.0.1:$fcm_port/token"
      ca_file: $PWD/certs/dev/ca.pem
YAML
    scripts/as-service "$RELAY_BIN" serve --config "$work/relay.yaml" > "$work/relay.out" 2> "$work/relay.log" &
    relay_pid=$!
    wait_line "$work/relay.out" "listening"
    # Every user's token through the REST API, as an app server would.
    python3 - "$relay_port" "$USERS" "$provider" <<'PY'
import concurrent.futures, os, sys, requests
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
from bench_setup import post_within_rate
port, users, provider = sys.argv[1], int(sys.argv[2]), sys.argv[3]
session = requests.Session()
def register(u):
    kind, body = (("apns", {"apns_device_token": f"{u + 1:064x}"}) if provider == "apns"
                  else ("gcm", {"gcm_reg_token": f"bench{u}:APA91b" + "Qk" * 70}))
    post_within_rate(session, f"http://127.0.0.1:{port}/v3/users/u{u}/push/{kind}", timeout=30,
                     headers={"Api-Token": "bench-token-0123456789abcdef0123456789abcdef"}, json=body)
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    list(pool.map(register, range(users)))
PY
    q() { sqlite3 "file:$work/relay.sqlite?mode=ro" "$1" 2>/dev/null || echo 0; }
    # CPU seconds (user + system) of a process so far.
    cpu() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"; }
    mock_pid=$apns_pid; [ "$provider" = fcm ] && mock_pid=$fcm_pid
    relay_cpu=$(cpu "$relay_pid"); mock_cpu=$(cpu "$mock_pid")
    if [ -n "${PERF_OUT:-}" ] && [ "$provider" = fcm ]; then
      perf record -g -F 499 -p "$relay_pid" -o "$PERF_OUT" -- sleep "$DURATION" >/dev/null 2>&1 &
    fi
    BENCH_EVENTS="$work/events.txt" BENCH_THREADS="$THREADS" BENCH_PATH=/webhooks/sendbird/bench-app \
      wrk -t "$THREADS" -c "$CONNS" -d "${DURATION}s" -s scripts/bench-post.lua "http://127.0.0.1:$relay_port" > "$work/wrk.txt"
    sent=$(q "SELECT COUNT(*) FROM deliveries WHERE state = 'sent'")
    relay_cpu=$(python3 -c "print($(cpu "$relay_pid") - $relay_cpu)"); mock_cpu=$(python3 -c "print($(cpu "$mock_pid") - $mock_cpu)")
    load_end=$(date +%s.%N)
    for _ in $(seq 600); do [ "$(q "SELECT COUNT(*) FROM deliveries WHERE state IN ('pending','in_flight')")" = "0" ] && break; sleep 0.2; done
    drained=$(python3 -c "import time; print(f'{time.time() - $load_end:.1f}')")
    failed=$(q "SELECT COUNT(*) FROM deliveries WHERE state NOT IN ('sent','pending','in_flight')")
    rss=$(awk '/VmHWM/ {print int($2 / 1024)}' /proc/$relay_pid/status)
    kill "$relay_pid"; wait "$relay_pid" 2>/dev/null || true; relay_pid=
    line=$(python3 - "$work/wrk.txt" "$sent" "$DURATION" "$provider" "$round" "$drained" "$failed" "$rss" "$relay_cpu" "$mock_cpu" <<'PY'
import re, sys
wrk, sent, duration = open(sys.argv[1]).read(), int(sys.argv[2]), float(sys.argv[3])
requests = int(re.search(r"([0-9]+) requests in", wrk).group(1))
refused = int(re.search(r"non-2xx: ([0-9]+)", wrk).group(1))
per_push = lambda cpu: f"{float(cpu) / max(sent, 1) * 1e6:.0f}"  # CPU µs per push sent
print(f"{sys.argv[4]} {sent / duration:.0f} {(requests - refused) / duration:.0f} {refused} {sys.argv[6]} {sys.argv[7]} {sys.argv[8]} "
      f"{per_push(sys.argv[9])} {per_push(sys.argv[10])}")
PY
)
    echo "round $round $line" | awk '{printf "round %s  %-4s  %7s pushes/s sent during the load, %6s events/s answered 200, %6s answered 503, queue empty %s s after, %s failed, peak RSS %s MB; CPU per push: relay %s us, mock %s us\n", $2, $3, $4, $5, $6, $7, $8, $9, $10, $11}'
    results+=("$line")
  done
done
printf '%s\n' "${results[@]}" > "$work/results.txt"
python3 - "$work/results.txt" <<'PY'
import sys
rates = {"apns": [], "fcm": []}
for line in open(sys.argv[1]):
    provider, rate = line.split()[:2]
    rates[provider].append(float(rate))
mean = {p: sum(r) / len(r) for p, r in rates.items()}
print("== results")
for provider, name in (("apns", "APNs tokens"), ("fcm", "FCM tokens ")):
    rounds = ", ".join(f"{r:,.0f}" for r in rates[provider])
    print(f"{name}   {mean[provider]:9,.0f} pushes/s sent during the load (rounds: {rounds})")
print(f"FCM / APNs    {mean['fcm'] / mean['apns']:9.2f}")
PY
