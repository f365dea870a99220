#!/usr/bin/env bash
# One run, three measurements against the same HTTP/2 + TLS sink (nghttpd on loopback), and the
# ratios between them — the figures the README quotes, because these machines vary about 3x in
# speed from day to day and only ratios taken in one run compare:
#
#   1. h2load, 1 connection x 100 streams          — the ceiling of the sink and of HTTP/2 itself
#   2. the project's APNs client (apns-bench), 1 connection, and a pool of POOL connections
#      (1 and 2 alternate CLIENT_ROUNDS times, default 3; the ratios are of the medians)
#   3. the whole relay: the real `push-relay serve` (its default log level, synchronous=FULL,
#      every event committed before its 200), loaded by wrk with pre-signed webhook events of
#      channels of MEMBERS (default 10: sender, 1 online, 8 offline with a token each; 80 % offline)
#   4. latency under load: an open-loop generator (scripts/bench_openloop.py, latency from each
#      request's scheduled time) at a tenth and at half of the events/s wrk reached in 3, the two
#      alternating LAT_ROUNDS times (default 3), and the ratio of the median webhook p99s; and at
#      each load the end-to-end wait, webhook accepted -> provider answered (p50 and p99)
#
# Between 2 and 3, the floors (FLOORS=0 leaves them out): SQLite's own accept + claim + record of
# an 8-push event in C, pipeline-bench's stages and http-floor under wrk (Hummingbird reading each
# body and answering 200), FLOOR_ROUNDS times (default 2). With step 2's CPU per push they make the
# goal the results end with: the whole relay's CPU per event during step 3 (load and drain, by
# thread group) divided by the sum of its floors, and each stage against its own floor.
# scripts/bench-goal.sh runs this for those figures and checks the first against a recorded one.
#
#   scripts/bench-compare.sh                    # N=200000 pushes for 1-2, DURATION=20 s for 3
#   DURATION=30 CONNS=32 scripts/bench-compare.sh
#   MEMBERS=100 DURATION=10 scripts/bench-compare.sh   # the burst: 100-member channels, 80 offline;
#                                                      # "queue empty N s after" is the catch-up
#   RELAY_BIN=/tmp/old/push-relay scripts/bench-compare.sh   # step 3-4 with another build (a previous commit)
#   MAX_BACKLOG=5s scripts/bench-compare.sh                  # the relay with another delivery.max_backlog
#   PERF_OUT=/tmp/relay.perf scripts/bench-compare.sh         # perf record of the relay during step 3
#   SCRATCH=.build-release scripts/bench-compare.sh           # release builds in another build folder
#   TIMELINE=/tmp/t scripts/bench-compare.sh                  # step 4's latency per request: /tmp/t-tenth-1.csv, /tmp/t-half-1.csv, ...
#   WAL_FRAMES=1 scripts/bench-compare.sh                     # step 3's WAL frames by table and index (scripts/wal-frames.py)
#   WRK2=/path/to/wrk2 scripts/bench-compare.sh               # step 4 sent by wrk2 instead (see bench_openloop.py)
#   MAX_EVENTS=2400 scripts/bench-compare.sh                  # step 4 at 240/s and 1,200/s whatever step 3 reached
#   LOG_LEVEL=notice scripts/bench-compare.sh                 # the relay without its line per event (what logging costs)
#   SUMMARY=/tmp/s.json scripts/bench-compare.sh              # the figures as one JSON object as well
#
# Needs: h2load (nghttp2-client), nghttpd (nghttp2-server), wrk, sqlite3, python3; release builds.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200000}
POOL=${POOL:-2}
CLIENT_ROUNDS=${CLIENT_ROUNDS:-3}
INFLIGHT=${INFLIGHT:-1000}
DURATION=${DURATION:-20}
CONNS=${CONNS:-64}
THREADS=${THREADS:-2}
USERS=${USERS:-10000}
MEMBERS=${MEMBERS:-10}
EVENTS=${EVENTS:-200000}
SINK_PORT=${SINK_PORT:-$((20000 + RANDOM % 10000))}
RELAY_PORT=${RELAY_PORT:-$((30000 + RANDOM % 10000))}
work=$(mktemp -d)
cleanup() {
  for pid in ${relay_pid:-} ${sink_pid:-} ${floor_pid:-}; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
. scripts/bench-exit.sh
bench_on_exit cleanup
# Waits up to 10 s for PORT to accept connections; a server that never listens ends the run.
wait_port() {
  for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0; sleep 0.1; done
  echo "nothing listens on port $1 after 10 s ($2)" >&2
  exit 1
}

for tool in h2load nghttpd wrk sqlite3 python3; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install nghttp2-client nghttp2-server wrk sqlite3)" >&2; exit 2; }
done
# SCRATCH: the build folder (a release build beside a debug one in .build, say).
SCRATCH=${SCRATCH:-.build}
FLOOR_ROUNDS=${FLOOR_ROUNDS:-2}
bin=$SCRATCH/release
swift build -c release --scratch-path "$SCRATCH" --product apns-bench >/dev/null
# RELAY_BIN: another build of the relay (e.g. the previous commit's, from a worktree) to compare.
RELAY_BIN=${RELAY_BIN:-$bin/push-relay}
[ "$RELAY_BIN" != "$bin/push-relay" ] || swift build -c release --scratch-path "$SCRATCH" --product push-relay >/dev/null

python3 scripts/bench_events.py "$work/events.txt" "$EVENTS" "$USERS" 1000000 "$MEMBERS"
# Tokens of the relay's users: the sink answers 200 for every path it has a file for.
python3 scripts/bench_setup.py sink-tokens "$work" "$USERS"
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
head = '{"aps":{"alert":"Jane: hello","badge":1,"sound":"default"},"sendbird":{"message":"'
tail = '"}}'
open(f"{work}/payload.json", "w").write(head + "x" * (700 - len(head) - len(tail)) + tail)
PY

nghttpd -d "$work/htdocs" "$SINK_PORT" certs/dev/server.key certs/dev/server.pem >/dev/null 2>&1 &
sink_pid=$!
wait_port "$SINK_PORT" nghttpd
# apns-bench's token.
TOKEN=$(printf 'ab%.0s' $(seq 32))
echo ok > "$work/htdocs/3/device/$TOKEN"

echo "== sink nghttpd on :$SINK_PORT; $(date -u +%F); $(nproc) cores"
# Steps 1 and 2 alternate CLIENT_ROUNDS times and the medians are compared: a single run of
# either varies by about 15 % on these machines.
median() { python3 -c 'import statistics, sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
h2rates=() ones=() pools=() sends=()
for round in $(seq "$CLIENT_ROUNDS"); do
  echo "-- 1. h2load, 1 connection x 100 streams, $N requests of $(wc -c < "$work/payload.json") bytes (round $round of $CLIENT_ROUNDS)"
  h2=$(h2load -n "$N" -c 1 -m 100 -d "$work/payload.json" -H 'apns-topic: com.example.pushrelay' \
    -H 'apns-push-type: alert' "https://127.0.0.1:$SINK_PORT/3/device/$TOKEN" | grep "finished in")
  echo "$h2"
  h2rates+=("$(echo "$h2" | sed -E 's/.* ([0-9.]+) req\/s.*/\1/')")
  echo "-- 2. APNs client, 1 connection and a pool of $POOL (round $round of $CLIENT_ROUNDS)"
  ones+=("$("$bin"/apns-bench --port "$SINK_PORT" --count "$N" --concurrency "$INFLIGHT" --connections 1 | tee /dev/stderr | grep -Eo '[0-9.]+ notifications/s' | head -1 | cut -d' ' -f1)")
  pooled=$("$bin"/apns-bench --port "$SINK_PORT" --count "$N" --concurrency "$INFLIGHT" --connections "$POOL" | tee /dev/stderr)
  pools+=("$(echo "$pooled" | grep -Eo '[0-9.]+ notifications/s' | head -1 | cut -d' ' -f1)")
  sends+=("$(echo "$pooled" | grep -Eo 'CPU [0-9.]+ µs per push' | cut -d' ' -f2)")
done
h2rate=$(median "${h2rates[@]}") one=$(median "${ones[@]}") pool=$(median "${pools[@]}") send=$(median "${sends[@]}")

# The floors the relay's CPU per event is held to (FLOORS=0 leaves them out): sending 8 pushes
# with the project's own client (step 2's pool, CPU per push), SQLite's own accept + claim +
# record of an 8-push event in C (Benchmarks/sqlite-floor, the relay's schema, a row per push),
# and parsing an event (pipeline-bench, whose other stages are printed beside their floors).
parse=0 sqlite_floor=0 pipeline=0 http_floor=0
if [ "${FLOORS:-1}" = 1 ]; then
  echo "-- floors: SQLite's accept + claim + record in C and pipeline-bench's stages, $FLOOR_ROUNDS round(s)"
  swift build -c release --scratch-path "$SCRATCH" --product pipeline-bench >/dev/null
  "$bin"/pipeline-bench --schema "$work/schema.sqlite"
  "${CC:-cc}" -O2 -o "$work/probe" Benchmarks/sqlite-floor/queue_layout_probe.c -lsqlite3
  for round in $(seq "$FLOOR_ROUNDS"); do
    for mode in pending in_flight; do
      TMPDIR=$work "$work/probe" "$work/schema.sqlite" rows 5000 $mode | tee -a "$work/probe.txt"
    done
    "$bin"/pipeline-bench 3000 | grep -E 'µs/event' | tee -a "$work/pipeline.txt"
  done
  # The HTTP side's floor: http-floor (Hummingbird reading each body and answering 200, nothing
  # else) under step 3's wrk and events, CPU per request, FLOOR_ROUNDS times.
  swift build -c release --scratch-path "$SCRATCH" --product http-floor >/dev/null
  floor_port=$((40000 + RANDOM % 10000))
  "$bin"/http-floor "$floor_port" >/dev/null 2>&1 &
  floor_pid=$!
  wait_port "$floor_port" http-floor
  for round in $(seq "$FLOOR_ROUNDS"); do
    python3 scripts/thread_cpu.py snapshot "$floor_pid" > "$work/floor-threads-0"
    BENCH_EVENTS="$work/events.txt" BENCH_THREADS="$THREADS" BENCH_PATH=/webhooks/sendbird/bench-app \
      wrk -t "$THREADS" -c "$CONNS" -d 5s -s scripts/bench-post.lua "http://127.0.0.1:$floor_port" > "$work/floor-wrk.txt"
    python3 scripts/thread_cpu.py snapshot "$floor_pid" > "$work/floor-threads-1"
    answered=$(python3 -c "import re; print(re.search(r'([0-9]+) requests in', open('$work/floor-wrk.txt').read()).group(1))")
    python3 scripts/thread_cpu.py diff "$work/floor-threads-0" "$work/floor-threads-1" "$answered" --json | tee -a "$work/http-floor.txt"
  done
  kill "$floor_pid"; wait "$floor_pid" 2>/dev/null || true
  read -r parse sqlite_floor pipeline http_floor < <(python3 - "$work/probe.txt" "$work/pipeline.txt" "$work/http-floor.txt" <<'PY'
import json, re, statistics, sys
figures = {}
for line in open(sys.argv[1]):
    layout, mode, *rest = line.split()
    for stage, value in zip(rest[0::2], rest[1::2]):
        if stage in ("accept", "claim", "record"):
            figures.setdefault((stage, mode), []).append(float(value))
accept = statistics.median(figures[("accept", "pending")] + figures[("accept", "in_flight")])
record = statistics.median(figures[("record", "pending")] + figures[("record", "in_flight")])
# The webhook's own work as pipeline-bench does it in one loop: the stages between the body and
# the rows (the commit is SQLite's floor).
stages = ("parse", "HMAC", "recipient read (sequential)", "plan", "to rows")
cpu = {stage: statistics.median(float(re.findall(r"([0-9.]+) µs/event CPU", line)[0]) for line in open(sys.argv[2]) if line.startswith(stage))
       for stage in stages}
http = statistics.median(json.loads(line)["cpu_us_per_event"] for line in open(sys.argv[3]))
print(f"{cpu['parse']:.1f} {accept + statistics.median(figures[('claim', 'pending')]) + record:.1f} {sum(cpu.values()):.1f} {http:.1f}")
PY
)
fi

echo "-- 3. push-relay serve (default log level, synchronous=FULL), wrk $THREADS threads x $CONNS connections, ${DURATION}s"
python3 scripts/bench_setup.py relay-config "$work/relay.yaml" "$RELAY_PORT" "$SINK_PORT" "$work/relay.sqlite" "${MAX_BACKLOG:-}"
scripts/as-service "$RELAY_BIN" serve --config "$work/relay.yaml" > "$work/relay.out" 2> "$work/relay.log" &
relay_pid=$!
for _ in $(seq 600); do grep -q "listening" "$work/relay.out" "$work/relay.log" 2>/dev/null && break; sleep 0.1; done
# Register every user's token through the REST API, as an app server would.
python3 scripts/bench_setup.py register "$RELAY_PORT" "$USERS"
q() { sqlite3 "file:$work/relay.sqlite?mode=ro" "$1" 2>/dev/null || echo 0; }
sent_before=$(q "SELECT COUNT(*) FROM deliveries WHERE state = 'sent'")
# Bytes the relay writes per event: write_bytes is what it sends to the disk (the WAL and the
# checkpoints, counted as pages are dirtied); wchar is every write call, sockets included (the
# pushes' TLS records, the webhook answers, the log).
io() { awk -v field="$1:" '$1 == field {print $2}' /proc/$relay_pid/io; }
wrote_before=$(io wchar) disk_before=$(io write_bytes)
# Nothing of the harness's own (token files, events) left to write back during the measurement:
# that writeback delays the relay's fsyncs (see bench_events.py).
sync
python3 scripts/thread_cpu.py snapshot "$relay_pid" > "$work/threads-0"
if [ -n "${PERF_OUT:-}" ]; then
  perf record -g -F 499 -p "$relay_pid" -o "$PERF_OUT" -- sleep "$DURATION" >/dev/null 2>&1 &
fi
# WAL_FRAMES=1: two thirds into the load, which tables and indexes the WAL's frames belong to.
if [ -n "${WAL_FRAMES:-}" ]; then
  (sleep $(( DURATION * 2 / 3 )); python3 scripts/wal-frames.py "$work/relay.sqlite" > "$work/wal-frames.txt" 2>&1) &
  wal_frames_pid=$!
fi
BENCH_EVENTS="$work/events.txt" BENCH_THREADS="$THREADS" BENCH_PATH=/webhooks/sendbird/bench-app \
  wrk -t "$THREADS" -c "$CONNS" -d "${DURATION}s" --latency -s scripts/bench-post.lua "http://127.0.0.1:$RELAY_PORT" > "$work/wrk.txt"
sent_during=$(( $(q "SELECT COUNT(*) FROM deliveries WHERE state = 'sent'") - sent_before ))
load_end=$(date +%s.%N)
while [ "$(q "SELECT COUNT(*) FROM deliveries WHERE state IN ('pending','in_flight')")" != "0" ]; do sleep 0.2; done
wrote=$(( $(io wchar) - wrote_before )) disk=$(( $(io write_bytes) - disk_before ))
# The relay's CPU from the load's start until its queue was empty, per event answered 200.
python3 scripts/thread_cpu.py snapshot "$relay_pid" > "$work/threads-1"
accepted_events=$(python3 -c "import re; w = open('$work/wrk.txt').read(); print(int(re.search(r'([0-9]+) requests in', w).group(1)) - int(re.search(r'non-2xx: ([0-9]+)', w).group(1)))")
python3 scripts/thread_cpu.py diff "$work/threads-0" "$work/threads-1" "$accepted_events" > "$work/threads.txt"
relay_cpu=$(python3 scripts/thread_cpu.py diff "$work/threads-0" "$work/threads-1" "$accepted_events" --json)
drained=$(python3 -c "import time; print(f'{time.time() - $load_end:.1f}')")
# Accepted-to-APNs-answer time of the pushes so far (the relay's own histogram), p50 and p99.
scrape() { curl -s "http://127.0.0.1:$RELAY_PORT/metrics" > "$1"; }
scrape "$work/metrics-load.txt"
wait_quantiles=$(python3 scripts/metric_quantiles.py /dev/null "$work/metrics-load.txt" pushrelay_push_wait_seconds)
grep -E "Requests/sec|99%|50%|non-2xx" "$work/wrk.txt"
if [ -n "${wal_frames_pid:-}" ]; then wait "$wal_frames_pid"; echo "WAL frames two thirds into the load:"; cat "$work/wal-frames.txt"; fi
rss=$(awk '/VmHWM/ {print $2 / 1024}' /proc/$relay_pid/status)

LAT_DURATION=${LAT_DURATION:-10}
# A tenth and half alternate LAT_ROUNDS times and the ratio is of the medians: a single pair of
# phases swung from 2.2x to 4.6x on one day with nothing changed.
LAT_ROUNDS=${LAT_ROUNDS:-3}
# MAX_EVENTS fixes the rates step 4 takes its tenth and half of, so two builds are compared at
# the same load (by default each at half of its own capacity, a faster build at a higher rate).
max_events=${MAX_EVENTS:-$(python3 -c "import re,sys; w=open('$work/wrk.txt').read(); print(int((int(re.search(r'([0-9]+) requests in', w).group(1)) - int(re.search(r'non-2xx: ([0-9]+)', w).group(1))) / $DURATION))")}
tenth=$(( max_events / 10 > 1 ? max_events / 10 : 1 )); half=$(( max_events / 2 > 1 ? max_events / 2 : 1 ))
echo "-- 4. open-loop latency at a tenth ($tenth/s) and half ($half/s) of $max_events events/s, ${LAT_DURATION}s each, $LAT_ROUNDS rounds"
python3 scripts/bench_events.py "$work/events-open.txt" $(( (tenth + half) * LAT_DURATION * LAT_ROUNDS + 10 )) "$USERS" 50000000 "$MEMBERS"
# One file of events per phase and round (each event once: a repeated message id is a duplicate).
python3 - "$work/events-open.txt" "$tenth" "$half" "$LAT_DURATION" "$LAT_ROUNDS" <<'PY'
import sys
path, tenth, half, duration, rounds = sys.argv[1], *(int(x) for x in sys.argv[2:])
lines, at = open(path).readlines(), 0
for r in range(rounds):
    for phase, rate in (("tenth", tenth), ("half", half)):
        count = rate * duration + (10 if r == rounds - 1 and phase == "half" else 0)
        open(f"{path}.{phase}.{r}", "w").writelines(lines[at:at + count])
        at += count
PY
sync
# Each phase also reads the relay's own histograms, to tell its share of the latency (from a
# request's head to its answer, and the commit within it) from the sender's and the kernel's.
# And how busy the machine's CPUs were (sender, relay and sink share them): a queue for a core
# shows in every latency here, the relay's own histograms included.
cpu() { echo "$(awk '/^cpu / {print $2+$3+$4+$5+$6+$7+$8, $5+$6}' /proc/stat) $(awk '{printf "%d ", $14 + $15}' /proc/$relay_pid/stat /proc/$sink_pid/stat)"; }
sender_cpu() { python3 -c "import json, sys; print(json.loads(sys.argv[1])['sender_cpu_pct'])" "$1"; }
relay_side() {
  echo "answer $(python3 scripts/metric_quantiles.py "$1" "$2" pushrelay_webhook_duration_seconds);" \
    "commit $(python3 scripts/metric_quantiles.py "$1" "$2" pushrelay_event_commit_seconds);" \
    "$(python3 -c "import sys, os; t0, i0, r0, s0, t1, i1, r1, s1 = map(int, sys.argv[1:]); n = os.cpu_count()
print(f'CPUs {100 * (1 - (i1 - i0) / (t1 - t0)):.0f} % busy: the relay {100 * n * (r1 - r0) / (t1 - t0):.0f} % of one,'
      f' the sink {100 * n * (s1 - s0) / (t1 - t0):.0f} %, the sender', end='')" $3 $4) $5 %"
}
# One phase, PHASE RATE ROUND: the sender's JSON line and the relay's side go to files.
open_loop() {
  local phase=$1 rate=$2 round=$3 result cpu_0 cpu_1
  scrape "$work/metrics-$phase-$round-0.txt"; cpu_0=$(cpu)
  result=$(python3 scripts/bench_openloop.py --port "$RELAY_PORT" --path /webhooks/sendbird/bench-app \
    --events "$work/events-open.txt.$phase.$round" --rate "$rate" --duration "$LAT_DURATION" \
    ${TIMELINE:+--timeline "$TIMELINE-$phase-$((round + 1)).csv"} ${WRK2:+--wrk2 "$WRK2"} | tee /dev/stderr)
  scrape "$work/metrics-$phase-$round-1.txt"; cpu_1=$(cpu)
  echo "$result" >> "$work/open-$phase.jsonl"
  echo "round $((round + 1)): $(relay_side "$work/metrics-$phase-$round-0.txt" "$work/metrics-$phase-$round-1.txt" "$cpu_0" "$cpu_1" "$(sender_cpu "$result")")" >> "$work/relay-$phase.txt"
  while [ "$(q "SELECT COUNT(*) FROM deliveries WHERE state IN ('pending','in_flight')")" != "0" ]; do sleep 0.2; done
  # With the queue empty, every push of the phase has its answer: the end-to-end wait.
  scrape "$work/metrics-$phase-$round-2.txt"
  echo "         end to end (webhook accepted -> provider answered) $(python3 scripts/metric_quantiles.py "$work/metrics-$phase-$round-0.txt" "$work/metrics-$phase-$round-2.txt" pushrelay_push_wait_seconds)" >> "$work/relay-$phase.txt"
}
for round in $(seq 0 $(( LAT_ROUNDS - 1 ))); do
  open_loop tenth "$tenth" "$round"
  open_loop half "$half" "$round"
done

python3 - "$h2rate" "$one" "$pool" "$sent_during" "$DURATION" "$work/wrk.txt" "$drained" "$rss" "$work/open-tenth.jsonl" "$work/open-half.jsonl" "$wait_quantiles" "$wrote" "$disk" "$work/relay-tenth.txt" "$work/relay-half.txt" \
  "$relay_cpu" "$send" "$sqlite_floor" "$parse" "$work" "$LAT_ROUNDS" "${SUMMARY:-}" "$pipeline" "$http_floor" <<'PY'
import glob, json, re, statistics, sys
sys.path.insert(0, "scripts")
from metric_quantiles import buckets
h2, one, pool = (float(x) for x in sys.argv[1:4])
sent, duration = int(sys.argv[4]), float(sys.argv[5])
wrk = open(sys.argv[6]).read()
requests = int(re.search(r"([0-9]+) requests in", wrk).group(1))
refused = int(re.search(r"non-2xx: ([0-9]+)", wrk).group(1))
events = (requests - refused) / duration
relay = sent / duration
print(f"== results")
print(f"h2load                      {h2:10,.0f} req/s (medians of the rounds)")
print(f"APNs client, 1 connection   {one:10,.0f} /s   = {one / h2:.2f} x h2load        (goal >= 0.6)")
print(f"APNs client, pool           {pool:10,.0f} /s")
print(f"whole relay                 {relay:10,.0f} pushes/s sent during the load ({events:,.0f} events/s answered 200, {refused:,} answered 503 past "
      f"delivery.max_backlog; "
      f"queue empty {sys.argv[7]} s after; peak RSS {float(sys.argv[8]):.0f} MB; "
      f"{int(sys.argv[13]) / max(1, requests - refused) / 1024:.1f} KB to the disk per event, "
      f"{int(sys.argv[12]) / max(1, requests - refused) / 1024:.1f} KB of writes with the sockets)")
print(f"                            = {relay / pool:.2f} x the pooled client               (goal >= 0.6)")
print(f"push wait (accepted -> APNs answer, pushrelay_push_wait_seconds buckets): {sys.argv[11]}")
tenth = [json.loads(line) for line in open(sys.argv[9])]
half = [json.loads(line) for line in open(sys.argv[10])]
t99, h99 = statistics.median(r["p99_ms"] for r in tenth), statistics.median(r["p99_ms"] for r in half)
print(f"webhook p99, open loop      {t99:.2f} ms at {tenth[0]['rate']:.0f}/s, {h99:.2f} ms at {half[0]['rate']:.0f}/s "
      f"= {h99 / t99:.1f} x   (goal <= 3; medians of {len(tenth)} rounds; sent by {tenth[0].get('tool', 'bench_openloop.py')})")
for n, (t, h) in enumerate(zip(tenth, half), 1):
    print(f"  round {n}: {t['p99_ms']} / {h['p99_ms']} ms = {h['p99_ms'] / t['p99_ms']:.1f} x; non-2xx {t['non_2xx']} / {h['non_2xx']}, "
          f"failed {t['failed']} / {h['failed']}, "
          f"sender behind {t['sender_behind_ms']} / {h['sender_behind_ms']} ms")
print("  in the relay (its histograms, to the bucket), at a tenth:")
print("".join(f"    {line}" for line in open(sys.argv[14])), end="")
print("  at half:")
print("".join(f"    {line}" for line in open(sys.argv[15])), end="")

# End to end, every round of a phase together: webhook accepted -> provider answered (the
# relay's pushrelay_push_wait_seconds, to the bucket).
def end_to_end(phase):
    counts = {}
    for round in range(int(sys.argv[21])):
        before = buckets(f"{sys.argv[20]}/metrics-{phase}-{round}-0.txt", "pushrelay_push_wait_seconds")
        after = buckets(f"{sys.argv[20]}/metrics-{phase}-{round}-2.txt", "pushrelay_push_wait_seconds")
        for le, n in after.items():
            counts[le] = counts.get(le, 0) + n - before.get(le, 0)
    ordered = sorted((float("inf") if le == "+Inf" else float(le), n) for le, n in counts.items())
    total = ordered[-1][1] if ordered else 0
    quantile = lambda q: next(le for le, n in ordered if n >= q * total) * 1000 if total else float("nan")
    return quantile(0.5), quantile(0.99), total
e2e = {phase: end_to_end(phase) for phase in ("tenth", "half")}
print("end to end (webhook accepted -> provider answered, to the bucket): "
      + "; ".join(f"at {'a tenth' if p == 'tenth' else 'half'} p50 <= {e2e[p][0]:g} ms, p99 <= {e2e[p][1]:g} ms over {e2e[p][2]:,.0f} pushes"
                  for p in e2e))
within = sum(1 for t, h in zip(tenth, half) if h["p99_ms"] <= 3 * t["p99_ms"])
print(f"p99 ratio within 3 x in {within} of {len(tenth)} rounds")

def stage_floors(relay_cpu, send8, sqlite_floor, pipeline, http, summary):
    """Each stage against its own floor, by the threads it runs on: the webhook (NIO's event loops
    and the default-QoS tasks: the handler and the event's work) against http-floor's HTTP plus
    pipeline-bench's stages from body to rows; sending (the user-initiated threads: the dispatch
    loop, whose tasks run at high priority, and the connections) against the client alone;
    SQLite's writer (Dispatch's overcommit queues) against SQLite in C."""
    groups = relay_cpu["groups"]
    part = lambda *prefixes: sum(us for name, us in groups.items() if name.startswith(prefixes))
    stages = [("webhook: HTTP + the event's work", part("NIO", "oot.default"), http + pipeline,
               f"http-floor {http:.1f} + pipeline-bench {pipeline:.1f}"),
              ("sending: the dispatch loop + the connections", part("r-initiated"), send8, f"the pooled client {send8:.1f}"),
              ("SQLite's writer", part("-qos.overcommit"), sqlite_floor, f"in C {sqlite_floor:.1f}")]
    rest = relay_cpu["cpu_us_per_event"] - sum(relay for _, relay, _, _ in stages)
    every = http + pipeline + send8 + sqlite_floor
    print("stage by stage (µs of CPU per event; each stage's own floor):")
    for name, relay, floor, what in stages:
        print(f"  {name:55} {relay:7.1f} / {floor:6.1f} = {relay / floor:.2f} x   ({what})")
    print(f"  {'other threads':55} {max(0.0, rest):7.1f}")
    print(f"every stage's floor: {relay_cpu['cpu_us_per_event']:.1f} / {every:.1f} = {relay_cpu['cpu_us_per_event'] / every:.2f} x")
    summary |= {"stage_floors_us": {"http": http, "pipeline": pipeline, "every": round(every, 1)},
                "stages": {name.split(":")[0]: round(relay / floor, 3) for name, relay, floor, _ in stages},
                "every_stage_quotient": round(relay_cpu["cpu_us_per_event"] / every, 3)}

relay_cpu = json.loads(sys.argv[16])
send, sqlite_floor, parse = (float(x) for x in sys.argv[17:20])
floors = 8 * send + sqlite_floor + parse
groups = sorted(relay_cpu["groups"].items(), key=lambda item: -item[1])
print(f"relay CPU per event answered 200 (from the load's start until its queue was empty): {relay_cpu['cpu_us_per_event']:.1f} µs; "
      + ", ".join(f"{name} {us:.1f}" for name, us in groups[:6]))
summary = {"relay_cpu_us": relay_cpu["cpu_us_per_event"], "pushes_per_s": round(relay), "relay_per_pooled": round(relay / pool, 3),
           "p99_tenth_ms": t99, "p99_half_ms": h99, "p99_ratio": round(h99 / t99, 2), "p99_rounds_within_3": within,
           "rounds": len(tenth), "end_to_end_ms": {p: {"p50": v[0], "p99": v[1]} for p, v in e2e.items()}}
if parse:
    print(f"floors: sending 8 pushes {8 * send:.1f} µs (the pooled client, {send:.2f} per push) + SQLite's accept, claim and record "
          f"{sqlite_floor:.1f} + parsing {parse:.1f} = {floors:.1f} µs")
    print(f"GOAL: the relay's CPU per event / the sum of its floors = {relay_cpu['cpu_us_per_event']:.1f} / {floors:.1f} "
          f"= {relay_cpu['cpu_us_per_event'] / floors:.2f} x   (goal <= 1.5)")
    summary |= {"floors_us": {"send8": round(8 * send, 1), "sqlite": sqlite_floor, "parse": parse, "sum": round(floors, 1)},
                "goal_quotient": round(relay_cpu["cpu_us_per_event"] / floors, 3)}
    stage_floors(relay_cpu, 8 * send, sqlite_floor, *(float(x) for x in sys.argv[23:25]), summary)
if sys.argv[22]:
    json.dump(summary, open(sys.argv[22], "w"))
PY
if [ -s "$work/pipeline.txt" ]; then
  echo "-- pipeline-bench's stages (µs CPU per event), each round:"; cat "$work/pipeline.txt"
fi
echo "-- the relay's threads from the load's start until its queue was empty:"; cat "$work/threads.txt"
