#!/usr/bin/env bash
# What the relay costs per webhook event at a steady, light rate, and on which threads: the real
# `push-relay serve` (default log level, synchronous=FULL) against an nghttpd sink, 10-member
# events (8 offline, one APNs token each) sent open loop by scripts/bench_openloop.py at RATE
# events/s for DURATION s. Prints the sender's JSON line, then per thread group (Swift's
# pools by QoS, the writer's and readers' queues, NIO's event loops) the CPU µs, voluntary and
# involuntary context switches per event, from /proc/<relay>/task before and after.
#
# At low rates little can be batched, so each event pays its own commit, wake-ups and hops:
# this is the figure an idle-ish production relay lives at (bench-compare.sh measures the busy
# end). Compare builds by running this with each, alternating.
#
#   scripts/bench-cpu-per-event.sh [RELAY_BIN]          # RATE=190 DURATION=8
#   RATE=600 scripts/bench-cpu-per-event.sh /tmp/old/push-relay
#   PERF_OUT=/tmp/quiet.perf scripts/bench-cpu-per-event.sh   # perf record -g of the measured phase
#
# With `perf` installed it also prints, per event, the context switches and the syscalls a commit
# and a wake-up cost (fdatasync, pwrite64, futex); and, from the WAL as the phase ends
# (scripts/wal-frames.py), the pages its commits wrote (the events' and the dispatcher's outcome
# records alike) and which tables and indexes they belong to. At a low rate, where each event
# commits alone, these counts barely move with the machine's speed (28.5-30.8 pwrites per event
# over four runs of two builds at 300/s): a change that writes more pages per commit or wakes threads more often
# shows there even when the timings are noisy. At higher rates they follow the batching, and so
# the timings.
#
# Needs: nghttpd (nghttp2-server), sqlite3, python3 with requests; a release build
# (SCRATCH=.build-release picks the build folder, as in bench-compare.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
RATE=${RATE:-190}
DURATION=${DURATION:-8}
USERS=${USERS:-10000}
SCRATCH=${SCRATCH:-.build}
RELAY_BIN=${1:-}
if [ -z "$RELAY_BIN" ]; then
  swift build -c release --scratch-path "$SCRATCH" --product push-relay >/dev/null
  RELAY_BIN=$SCRATCH/release/push-relay
fi
SINK_PORT=${SINK_PORT:-$((20000 + RANDOM % 10000))}
RELAY_PORT=${RELAY_PORT:-$((30000 + RANDOM % 10000))}
work=$(mktemp -d)
cleanup() {
  for pid in ${relay_pid:-} ${sink_pid:-}; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
. scripts/bench-exit.sh
bench_on_exit cleanup

# A second of warm-up, then the measured events: each message id once.
python3 scripts/bench_events.py "$work/events.txt" $((RATE * (DURATION + 1) + 100)) "$USERS" 1000000 10 >/dev/null
head -n "$RATE" "$work/events.txt" > "$work/warm.txt"
tail -n +$((RATE + 1)) "$work/events.txt" > "$work/measured.txt"
python3 scripts/bench_setup.py sink-tokens "$work" "$USERS"
nghttpd -d "$work/htdocs" "$SINK_PORT" certs/dev/server.key certs/dev/server.pem >/dev/null 2>&1 &
sink_pid=$!
python3 scripts/bench_setup.py relay-config "$work/relay.yaml" "$RELAY_PORT" "$SINK_PORT" "$work/relay.sqlite"
scripts/as-service "$RELAY_BIN" serve --config "$work/relay.yaml" > "$work/relay.out" 2> "$work/relay.log" &
relay_pid=$!
for _ in $(seq 600); do grep -q "listening" "$work/relay.out" "$work/relay.log" 2>/dev/null && break; sleep 0.1; done
python3 scripts/bench_setup.py register "$RELAY_PORT" "$USERS"
open_loop() {
  python3 scripts/bench_openloop.py --port "$RELAY_PORT" --path /webhooks/sendbird/bench-app \
    --events "$1" --rate "$RATE" --duration "$2"
}
open_loop "$work/warm.txt" 1 >/dev/null
sync
threads() { python3 scripts/thread_cpu.py snapshot "$relay_pid"; }
threads > "$work/before"
if [ -n "${PERF_OUT:-}" ]; then
  perf record -g -F 499 -p "$relay_pid" -o "$PERF_OUT" -- sleep "$DURATION" >/dev/null 2>&1 &
  perf_pid=$!
fi
if command -v perf >/dev/null; then
  # Counted over the phase and a second more, for the sends and records that finish after it.
  perf stat -x, -p "$relay_pid" -o "$work/syscalls.txt" \
    -e context-switches,syscalls:sys_enter_fdatasync,syscalls:sys_enter_pwrite64,syscalls:sys_enter_futex \
    -- sleep $((DURATION + 1)) 2>/dev/null &
  stat_pid=$!
fi
open_loop "$work/measured.txt" "$DURATION"
python3 scripts/wal-frames.py "$work/relay.sqlite" > "$work/wal.txt" 2>&1 || true
if [ -n "${perf_pid:-}" ]; then wait "$perf_pid"; fi
if [ -n "${stat_pid:-}" ]; then wait "$stat_pid" || true; fi
threads > "$work/after"
python3 scripts/thread_cpu.py diff "$work/before" "$work/after" $((RATE * DURATION))
if [ -s "$work/syscalls.txt" ]; then
  echo "per event (perf stat, the phase and a second after it):"
  awk -F, -v n=$((RATE * DURATION)) '$1 ~ /^[0-9]/ {sub(/^syscalls:sys_enter_/, "", $3); printf "  %-18s %8.2f\n", $3, $1 / n}' "$work/syscalls.txt"
fi
echo "the WAL as the phase ended (scripts/wal-frames.py):"
sed 's/^/  /' "$work/wal.txt"
