#!/usr/bin/env bash
# Relay pipeline benchmark: webhook → plan → group-committed SQLite queue → dispatcher → APNs
# sink. Runs the in-process harness `relay-bench` (REST + webhook + dispatcher, release build)
# against `apns-mock --mode sink`, drives it with wrk posting pre-signed webhook events
# (channels of 10 members: the sender, 1 online, 8 offline with one token each, unique
# message ids), waits until every queued push is sent, and prints events/s, pushes/s, webhook
# latency percentiles (wrk) and the relay's peak RSS.
#
#   scripts/bench-relay.sh                      # DURATION=20 CONNS=64 THREADS=2
#   DURATION=30 CONNS=8 scripts/bench-relay.sh  # lighter load, for latency
#   DURABILITY=normal scripts/bench-relay.sh    # PRAGMA synchronous=NORMAL instead of FULL
#   LOG_LEVEL=info scripts/bench-relay.sh       # with serve's default logging (a line per event)
# Needs: wrk (apt-get install wrk), python3, sqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-20}
CONNS=${CONNS:-64}
THREADS=${THREADS:-2}
USERS=${USERS:-10000}
EVENTS=${EVENTS:-200000}
DURABILITY=${DURABILITY:-full}
LOG_LEVEL=${LOG_LEVEL:-warning}
CONFIG=${CONFIG:-release}   # CONFIG=debug only to check the script itself; figures need release
RELAY_PORT=${RELAY_PORT:-$((20000 + RANDOM % 10000))}
SINK_PORT=${SINK_PORT:-$((30000 + RANDOM % 10000))}
work=$(mktemp -d)
cleanup() {
  [ -n "${relay_pid:-}" ] && kill "$relay_pid" 2>/dev/null
  [ -n "${sink_pid:-}" ] && kill "$sink_pid" 2>/dev/null
  wait 2>/dev/null; rm -rf "$work"
}
. scripts/bench-exit.sh
bench_on_exit cleanup

swift build -c "$CONFIG" --product relay-bench >/dev/null
swift build -c "$CONFIG" --product apns-mock >/dev/null

python3 scripts/bench_events.py "$work/events.txt" "$EVENTS" "$USERS"

.build/"$CONFIG"/apns-mock --mode sink --port "$SINK_PORT" > "$work/sink.log" 2>&1 &
sink_pid=$!
.build/"$CONFIG"/relay-bench --port "$RELAY_PORT" --apns-port "$SINK_PORT" --database "$work/relay.sqlite" \
  --users "$USERS" --durability "$DURABILITY" --log-level "$LOG_LEVEL" > "$work/relay.log" 2>&1 &
relay_pid=$!
for _ in $(seq 600); do grep -q "listening" "$work/relay.log" && break; sleep 0.1; done
grep -q "listening" "$work/relay.log" || { cat "$work/relay.log"; exit 1; }

echo "== relay-bench (durability=$DURABILITY, log level $LOG_LEVEL) on :$RELAY_PORT, sink apns-mock on :$SINK_PORT, $USERS users"
echo "-- wrk: $THREADS threads, $CONNS connections, ${DURATION}s"
start=$(date +%s.%N)
BENCH_EVENTS="$work/events.txt" BENCH_THREADS="$THREADS" \
  wrk -t "$THREADS" -c "$CONNS" -d "${DURATION}s" --latency -s scripts/bench-post.lua "http://127.0.0.1:$RELAY_PORT" | tee "$work/wrk.txt"
load_end=$(date +%s.%N)
q() { sqlite3 "file:$work/relay.sqlite?mode=ro" "$1" 2>/dev/null || echo 0; }
sent_at_load_end=$(q "SELECT COUNT(*) FROM deliveries WHERE state = 'sent'")
while [ "$(q "SELECT COUNT(*) FROM deliveries WHERE state IN ('pending','in_flight')")" != "0" ]; do sleep 0.2; done
end=$(date +%s.%N)
events=$(q "SELECT COUNT(*) FROM events")
sent=$(q "SELECT COUNT(*) FROM deliveries WHERE state = 'sent'")
rss=$(awk '/VmHWM/ {print $2 / 1024 " MB"}' /proc/$relay_pid/status)
python3 - "$start" "$load_end" "$end" "$events" "$sent" "$rss" "$sent_at_load_end" "$DURATION" "$work/wrk.txt" <<'PY'
import re, sys
start, load_end, end = map(float, sys.argv[1:4]); events, sent = int(sys.argv[4]), int(sys.argv[5])
during, duration = int(sys.argv[7]), float(sys.argv[8])
rps = float(re.search(r"Requests/sec:\s+([0-9.]+)", open(sys.argv[9]).read()).group(1))
# wrk's own clock covers exactly the load window (its start-up, reading the events file, does not count).
print(f"events accepted : {events} = {rps:.0f} events/s (wrk's rate, every one answered 200 after its commit)")
print(f"pushes sent     : {during} during the {duration:.0f} s load = {during / duration:.0f} pushes/s; "
      f"all {sent} sent {end - load_end:.1f} s after the load ended")
print(f"relay peak RSS  : {sys.argv[6]}")
PY
