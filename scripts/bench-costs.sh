#!/usr/bin/env bash
# How the relay's cost grows with the work. Every figure is compared with the small case of the
# same run (these machines vary about 3x in speed from day to day; only ratios taken in one run
# compare). The real `push-relay serve` (release build, its default log level, synchronous=FULL)
# against nghttpd as the APNs sink (HTTP/2 + TLS on loopback, certs/dev, a .p8 token key), as in
# scripts/bench-compare.sh; load from wrk with pre-signed webhook events (scripts/bench_events.py).
#
#   1. registered users  USERS_SIZES (10k 100k 1M): events/s of 10-member events (8 offline) and
#      relay RSS.                                    goals: events/s >= 0.8x, RSS <= 1.5x the 10k case
#   2. channel size      MEMBER_SIZES (10 100 1000 members, 80 % offline): pushes/s sent during
#      the load, 503s past delivery.max_backlog, webhook latency (wrk's, and open loop at a tenth
#      of the events/s wrk reached).               goal: pushes/s >= 0.7x the 10-member case
#   3. delivery log      LOG_ROWS (10M) sent deliveries (with payloads, attempts, events,
#      decisions) already in the database: events/s and pushes/s against an empty database,
#      the time to prune PRUNE_ROWS (1M) of them with the relay's own prune (and the longest a
#      write waited behind it), and database bytes per million pushes.
#                                                   goal: events/s >= 0.8x the empty database
#   4. backlog           BACKLOG (1M) pending deliveries as an APNs outage leaves them (one failed
#      attempt each, due now): time to drain, peak RSS and the relay's CPU per push once it starts
#      against the sink; then the project's APNs client (apns-bench, if built) against the same
#      sink, for the drain's ratio to it (goal 1's sending path without intake).
#                                                   goal: drain rate >= 0.8x the steady pushes/s
#                                                   of curve 1's small case, RSS bounded
#
#   scripts/bench-costs.sh 2>&1 | tee bench-costs.log     # the full run: 15-30 min, ~10 GB of disk
#   QUICK=1 scripts/bench-costs.sh                         # smoke test with small sizes (~3 min)
#   CURVES="2 4" DURATION=30 scripts/bench-costs.sh        # some curves only, longer loads
#   PERF_OUT=/tmp/costs.perf CURVES=1 scripts/bench-costs.sh  # perf record of the relay in each load
#   (PERF_ARGS, default "-g -F 499"; "--call-graph dwarf -F 199" also sees through SQLite)
#                                                          # (files /tmp/costs.perf-<case label>)
#
# Knobs (environment): CURVES USERS_SIZES MEMBER_SIZES C2_USERS LOG_ROWS PRUNE_ROWS BACKLOG
# DURATION CONNS THREADS EVENTS LAT_DURATION DRAIN_TIMEOUT ROUNDS BENCH_TMPDIR RELAY_BIN
# PIPELINE_BENCH (curves 3-4; default: beside RELAY_BIN) KEEP=1 (keep the work
# directory) RESULTS=FILE (also write the results as JSON lines there) RECIPIENT_CACHE (the relay's
# database.recipient_cache, e.g. "{max_users: 1200000, max_bytes: 1073741824}"; default: its defaults).
#
# Users and device tokens are seeded straight into the relay's SQLite file (the relay creates the
# schema first; one transaction): registering a million users through REST would take hours. User
# u<N> has token hex(N+1), as in bench-compare.sh. The delivery log and the backlog are written by
# `pipeline-bench --seed-log` of the relay's own build: each event parsed, its members read,
# planned, committed and its outcomes recorded by the relay's store code, so the rows are exactly
# what that relay writes (packed payloads, skip decisions, no attempt row for APNs' plain 200).
# It writes about 50,000 deliveries a second here (10M in 3–4 minutes).
#
# The sink: nghttpd answers 200 only for paths it has a file for, and `--echo-upload` (200 for
# any POST) costs it 10x its throughput (h2load: 4.5-9k/s against 67-86k/s), so it would measure
# the sink. So every token an event can reach (every member of every pre-signed event, and all
# users of the backlog) gets an empty file under htdocs/3/device/.
#
# Needs: nghttpd (nghttp2-server), wrk, sqlite3, python3; the release build of push-relay (built
# with `swift build -c release --product push-relay` only if missing). The binary is copied to the
# work directory first, so a rebuild of .build/release during the run does not change it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
base=${BENCH_TMPDIR:-${TMPDIR:-/tmp}}
work=$(mktemp -d "$base/bench-costs.XXXXXX")
mkdir -p "$work/bin"
# The binaries first: others rebuild .build/release while this runs. RELAY_BIN: another build
# (e.g. a previous commit's, from a worktree) to compare in the same session.
if [ -n "${RELAY_BIN:-}" ]; then
  cp "$RELAY_BIN" "$work/bin/push-relay"
  BIN_INFO="$RELAY_BIN, built $(date -u -r "$RELAY_BIN" +'%F %H:%M') UTC"
else
  if [ ! -x .build/release/push-relay ]; then
    swift build -c release --product push-relay >/dev/null
  fi
  cp .build/release/push-relay "$work/bin/push-relay"
  BIN_INFO="$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- Sources 2>/dev/null || echo '+changes'), binary built $(date -u -r .build/release/push-relay +'%F %H:%M') UTC"
fi
RELAY="$work/bin/push-relay"

QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then
  : "${USERS_SIZES:=2000 20000}" "${MEMBER_SIZES:=10 100}" "${LOG_ROWS:=200000}" "${PRUNE_ROWS:=40000}"
  : "${BACKLOG:=40000}" "${DURATION:=5}" "${EVENTS:=20000}" "${LAT_DURATION:=4}" "${C2_USERS:=2000}" "${ROUNDS:=1}"
fi
CURVES=${CURVES:-"1 2 3 4"}
# Curves 3 and 4 seed the log and prune it through the relay's own store code: pipeline-bench of
# the same build (beside RELAY_BIN, or PIPELINE_BENCH), so the rows follow that build's schema.
PIPELINE_BENCH_BIN=''
case " $CURVES " in *" 3 "*|*" 4 "*)
  if [ -n "${PIPELINE_BENCH:-}" ]; then PIPELINE_BENCH_BIN=$PIPELINE_BENCH
  elif [ -n "${RELAY_BIN:-}" ]; then PIPELINE_BENCH_BIN=$(dirname "$RELAY_BIN")/pipeline-bench
  else
    [ -x .build/release/pipeline-bench ] || swift build -c release --product pipeline-bench >/dev/null
    PIPELINE_BENCH_BIN=.build/release/pipeline-bench
  fi
  [ -x "$PIPELINE_BENCH_BIN" ] || { echo "curves 3 and 4 need pipeline-bench of the relay's build: $PIPELINE_BENCH_BIN (or PIPELINE_BENCH=)" >&2; exit 2; }
  cp "$PIPELINE_BENCH_BIN" "$work/bin/pipeline-bench"
  ;;
esac
PIPELINE_BENCH=$work/bin/pipeline-bench
USERS_SIZES=${USERS_SIZES:-"10000 100000 1000000"}
MEMBER_SIZES=${MEMBER_SIZES:-"10 100 1000"}
C2_USERS=${C2_USERS:-10000}          # users of curves 2-4
LOG_ROWS=${LOG_ROWS:-10000000}       # curve 3: sent deliveries already in the database
PRUNE_ROWS=${PRUNE_ROWS:-1000000}    # curve 3: the oldest of them pruned
BACKLOG=${BACKLOG:-1000000}          # curve 4: pending deliveries at start
DURATION=${DURATION:-20}             # seconds of wrk per case
CONNS=${CONNS:-64}
THREADS=${THREADS:-2}
EVENTS=${EVENTS:-100000}             # pre-signed 10-member events per file (fewer for larger channels)
LAT_DURATION=${LAT_DURATION:-10}     # curve 2: open-loop seconds (more, up to 30, for 100 samples)
DRAIN_TIMEOUT=${DRAIN_TIMEOUT:-1200}
ROUNDS=${ROUNDS:-2}                  # curves 1-3: every size measured ROUNDS times, interleaved (A B C A B C)
SINK_PORT=${SINK_PORT:-$((20000 + RANDOM % 10000))}
RELAY_PORT=${RELAY_PORT:-$((30000 + RANDOM % 10000))}
LOG_BASE=1000000000                  # message ids of seeded events (bench events: 1,000,000+; open loop 50,000,000+)

relay_pid='' sink_pid=''
cleanup() {
  for pid in $relay_pid $sink_pid; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "work directory kept: $work" >&2; else rm -rf "$work"; fi
}
. scripts/bench-exit.sh
bench_on_exit cleanup

for tool in nghttpd wrk sqlite3 python3 curl; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install nghttp2-server wrk sqlite3 curl)" >&2; exit 2; }
done

cat > "$work/helper.py" <<'PY'
"""Helpers of bench-costs.sh: seeding, pruning, parsing, recording, the report."""
import json, os, re, sqlite3, sys, time

APP = "bench-app"


def connect(db):
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("PRAGMA busy_timeout = 60000")
    return con


def bulk(con):
    """Seeding outside the relay: a rollback journal (appends need none of it) and no fsync."""
    con.execute("PRAGMA journal_mode = DELETE")
    con.execute("PRAGMA synchronous = OFF")
    con.execute("PRAGMA cache_size = -524288")


def seed_users(db, users, now_ms):
    """Users u0..u(N-1), each with one token hex(N+1), registered a day ago."""
    con = connect(db)
    bulk(con)
    cte = f"WITH RECURSIVE n(u) AS (SELECT 0 UNION ALL SELECT u + 1 FROM n WHERE u < {users - 1})"
    at = now_ms - 86_400_000
    con.execute("BEGIN")
    con.execute(f"{cte} INSERT INTO users (app_id, user_id, created_at) SELECT '{APP}', 'u' || u, {at} FROM n")
    con.execute(f"""{cte} INSERT INTO device_tokens (app_id, token, user_id, registered_at)
                    SELECT '{APP}', printf('%064x', u + 1), 'u' || u, {at} FROM n""")
    con.execute("COMMIT")
    con.execute("PRAGMA journal_mode = WAL")
    con.close()


def live_bytes(db):
    """Bytes the database holds: pages in use (the WAL checkpointed first)."""
    con = connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = con.execute("PRAGMA page_size").fetchone()[0]
    used = con.execute("PRAGMA page_count").fetchone()[0] - con.execute("PRAGMA freelist_count").fetchone()[0]
    con.close()
    print(page * used)


def htdocs(directory, *event_files):
    """An empty file per token any member of these events has (token of u<N> = hex(N+1))."""
    os.makedirs(directory, exist_ok=True)
    have = set(os.listdir(directory))
    made = 0
    for path in event_files:
        with open(path) as f:
            for line in f:
                for user in re.findall(r'"user_id":"u([0-9]+)"', line):
                    name = f"{int(user) + 1:064x}"
                    if name not in have:
                        have.add(name)
                        open(os.path.join(directory, name), "w").close()
                        made += 1
    print(made)


def users_htdocs(directory, users):
    os.makedirs(directory, exist_ok=True)
    have = set(os.listdir(directory))
    for u in range(users):
        name = f"{u + 1:064x}"
        if name not in have:
            open(os.path.join(directory, name), "w").close()


def wrk(path):
    """wrk's output (with bench-post.lua's non-2xx line) as JSON; latencies in ms."""
    text = open(path).read()
    def ms(label):
        m = re.search(rf"^\s*{label}%\s+([0-9.]+)(us|ms|s)\s*$", text, re.M)
        if not m:
            return None
        return round(float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[m.group(2)], 2)
    requests = int(re.search(r"([0-9]+) requests in", text).group(1))
    non2xx = int(re.search(r"non-2xx: ([0-9]+)", text).group(1))
    timeouts = re.search(r"timeout ([0-9]+)", text)
    print(json.dumps({"requests": requests, "non_2xx": non2xx, "p50_ms": ms("50"), "p99_ms": ms("99"),
                      "timeouts": int(timeouts.group(1)) if timeouts else 0}))


def record(out, *pairs):
    """Appends one result: key=value pairs, values that parse as JSON are kept as such."""
    row = {}
    for pair in pairs:
        key, value = pair.split("=", 1)
        try:
            row[key] = json.loads(value)
        except ValueError:
            row[key] = value
    with open(out, "a") as f:
        f.write(json.dumps(row) + "\n")


def report(path, header):
    rows = [json.loads(l) for l in open(path)]

    def mean(values):
        values = [v for v in values if isinstance(v, (int, float))]
        return sum(values) / len(values) if values else None

    def by_size(curve, key, extra=lambda r: True):
        """Rows of one curve grouped by size (in the order first seen), each the mean of its rounds,
        with the rounds' values kept under '<field>_rounds'."""
        groups = {}
        for r in rows:
            if r.get("curve") == curve and extra(r):
                groups.setdefault(r[key], []).append(r)
        out = []
        for size, rs in groups.items():
            m = {k: mean([r.get(k) for r in rs]) for k in rs[0] if k not in ("curve", "kind", "round", key)}
            m[key] = size
            for k in ("events_s", "pushes_s", "e2e_s", "rss_mb"):
                m[k + "_rounds"] = [r.get(k) for r in rs]
            m["non_2xx"] = sum(r.get("non_2xx", 0) for r in rs)
            m["requests"] = len(rs)
            out.append(m)
        return out

    def n(x, digits=0):
        return "-" if x is None else f"{x:,.{digits}f}"

    def ratio(x, base):
        return "-" if not x or not base else f"{x / base:.2f}"

    def rounds(values, base_values):
        return "/".join(ratio(v, b) for v, b in zip(values, base_values))

    def verdict(ok):
        return "MET" if ok else "NOT MET"

    print("== results  " + header)
    print("   (each row: the mean of its rounds; 'per round' gives each round's ratio to the same round's small case;")
    print("    start/ready: seconds until the relay listened / from then until a first event's pushes were sent)")
    steady = None
    c1 = by_size(1, "users")
    if c1:
        b = steady = c1[0]
        print("\n-- curve 1: registered users (10-member events, 8 offline)")
        print(f"{'users':>10} {'events/s':>9} {'ratio':>6} {'per round':>10} {'pushes/s':>9} {'RSS MB':>7} {'ratio':>6} "
              f"{'p50 ms':>7} {'p99 ms':>7} {'503s':>5} {'start/ready s':>14} {'load':>5}")
        for r in c1:
            print(f"{r['users']:>10,} {n(r['events_s']):>9} {ratio(r['events_s'], b['events_s']):>6} "
                  f"{rounds(r['events_s_rounds'], b['events_s_rounds']):>10} {n(r['pushes_s']):>9} "
                  f"{n(r['rss_mb']):>7} {ratio(r['rss_mb'], b['rss_mb']):>6} {n(r['p50_ms'], 1):>7} "
                  f"{n(r['p99_ms'], 1):>7} {r['non_2xx']:>5} {n(r['startup_s'], 1) + '/' + n(r.get('ready_s'), 1):>14} {n(r['load'], 1):>5}")
        big = c1[-1]
        e, m = big["events_s"] / b["events_s"], big["rss_mb"] / b["rss_mb"]
        print(f"   goal at {big['users']:,} users: events/s >= 0.80x: {e:.2f}x {verdict(e >= 0.8)}; "
              f"RSS <= 1.5x: {m:.2f}x {verdict(m <= 1.5)}")
        if b["non_2xx"] > 0 and big["non_2xx"] == 0:
            # Then the small case's events/s is the sending rate (the backlog promise refused the
            # rest) and the large case's is the webhook's: the ratio compares two limits.
            print(f"   note: the {b['users']:,}-user case answered {b['non_2xx']} requests 503 past delivery.max_backlog and the "
                  f"{big['users']:,}-user case none; its events/s is what the relay sent, not what its webhook could take")
    c2 = by_size(2, "members")
    if c2:
        b = c2[0]
        print("\n-- curve 2: channel size (80 % offline). end-to-end = accepted pushes / (load + time until the queue"
              " was empty); sent = pushes sent during the load")
        print(f"{'members':>8} {'events/s':>9} {'end-to-end':>10} {'ratio':>6} {'per round':>10} {'sent/s':>8} {'ratio':>6} "
              f"{'503s':>5} {'empty s':>7} {'wrk p50/p99 ms':>16} {'open loop p50/p99 ms':>24} {'RSS MB':>7} {'load':>5}")
        for r in c2:
            ol = f"{n(r['ol_p50_ms'], 1)}/{n(r['ol_p99_ms'], 1)} @{r['ol_rate']:g}/s" if r.get("ol_rate") else "-"
            print(f"{r['members']:>8,} {n(r['events_s'], 1):>9} {n(r['e2e_s']):>10} {ratio(r['e2e_s'], b['e2e_s']):>6} "
                  f"{rounds(r['e2e_s_rounds'], b['e2e_s_rounds']):>10} {n(r['pushes_s']):>8} "
                  f"{ratio(r['pushes_s'], b['pushes_s']):>6} {r['non_2xx']:>5} {n(r['drain_s'], 1):>7} "
                  f"{n(r['p50_ms'], 0) + '/' + n(r['p99_ms'], 0):>16} {ol:>24} {n(r['rss_mb']):>7} {n(r['load'], 1):>5}")
        big = c2[-1]
        p, q = big["e2e_s"] / b["e2e_s"], big["pushes_s"] / b["pushes_s"]
        print(f"   goal at {big['members']:,} members: pushes/s >= 0.70x: end-to-end {p:.2f}x {verdict(p >= 0.7)}, "
              f"sent during the load {q:.2f}x {verdict(q >= 0.7)}; 503s {big['non_2xx']} (all rounds); "
              f"webhook p50/p99 {n(big['p50_ms'])}/{n(big['p99_ms'])} ms under wrk, "
              f"{n(big.get('ol_p50_ms'), 1)}/{n(big.get('ol_p99_ms'), 1)} ms open loop at {big.get('ol_rate'):g} events/s")
    runs = by_size(3, "log_rows", lambda r: r.get("kind") == "run")
    if runs:
        b = runs[0]
        print("\n-- curve 3: delivery log already in the database (10-member events, 8 offline)")
        print(f"{'log rows':>11} {'events/s':>9} {'ratio':>6} {'per round':>10} {'pushes/s':>9} {'ratio':>6} {'RSS MB':>7} "
              f"{'p50 ms':>7} {'p99 ms':>7} {'503s':>5} {'start/ready s':>14} {'load':>5}")
        for r in runs:
            print(f"{r['log_rows']:>11,} {n(r['events_s']):>9} {ratio(r['events_s'], b['events_s']):>6} "
                  f"{rounds(r['events_s_rounds'], b['events_s_rounds']):>10} {n(r['pushes_s']):>9} "
                  f"{ratio(r['pushes_s'], b['pushes_s']):>6} {n(r['rss_mb']):>7} {n(r['p50_ms'], 1):>7} "
                  f"{n(r['p99_ms'], 1):>7} {r['non_2xx']:>5} {n(r['startup_s'], 1) + '/' + n(r.get('ready_s'), 1):>14} {n(r['load'], 1):>5}")
        big = runs[-1]
        e = big["events_s"] / b["events_s"]
        print(f"   goal at {big['log_rows']:,} rows: events/s >= 0.80x: {e:.2f}x {verdict(e >= 0.8)}")
        for r in rows:
            if r.get("curve") == 3 and r.get("kind") == "prune":
                print(f"   prune (the relay's PushStore.prune, transactions of 5,000 deliveries): {r['deleted']:,} deliveries "
                      f"(with payloads, attempts, events, decisions) in {r['prune_s']} s = "
                      f"{r['deleted'] / r['prune_s']:,.0f} deliveries/s; the longest a write waited behind it "
                      f"(a token registered every 10 ms) {r['longest_transaction_s'] * 1000:,.0f} ms; WAL {r['wal_bytes'] / 1e6:,.0f} MB")
            if r.get("curve") == 3 and r.get("kind") == "bytes":
                print(f"   database bytes per million pushes: {r['real_mb_per_m']:,.0f} MB written by the relay "
                      f"({r['real_pushes']:,} pushes), {r['seeded_mb_per_m']:,.0f} MB in the seeded log "
                      f"({r['seeded_rows']:,} rows, {r['seeded_gb']:.1f} GB, seeded in {r['seed_s']} s)")
    for r in rows:
        if r.get("curve") != 4:
            continue
        print("\n-- curve 4: backlog left by an APNs outage, drained against the sink")
        print(f"   {r['backlog']:,} pending: relay up in {r['startup_s']} s, drained {r['drain_s']} s after "
              f"= {r['drain_rate']:,.0f} pushes/s; peak RSS {r['rss_mb']:.0f} MB; relay CPU {r.get('cpu_us', '?')} us per push; "
              f"sent {r['sent']:,}, failed {r['failed']:,}")
        if isinstance(r.get("client_s"), (int, float)) and r["client_s"] > 0:
            c = r["drain_rate"] / r["client_s"]
            print(f"   the APNs client alone against the same sink: {r['client_s']:,.0f}/s; the relay's drain = {c:.2f}x it "
                  f"(goal 1's sending path, without intake)")
        if steady:
            d, m = r["drain_rate"] / steady["pushes_s"], r["rss_mb"] / steady["rss_mb"]
            print(f"   vs curve 1's small case ({steady['pushes_s']:,.0f} pushes/s, {steady['rss_mb']:.0f} MB): "
                  f"drain {d:.2f}x (goal >= 0.80: {verdict(d >= 0.8)}), RSS {m:.2f}x")


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command in ("seed_users",):
        seed_users(args[0], int(args[1]), int(args[2]))
    elif command in ("live_bytes", "wrk", "users_htdocs"):
        {"live_bytes": live_bytes, "wrk": wrk, "users_htdocs": lambda d, n: users_htdocs(d, int(n))}[command](*args)
    elif command == "htdocs":
        htdocs(*args)
    elif command == "record":
        record(*args)
    elif command == "report":
        report(*args)
PY
H() { python3 "$work/helper.py" "$@"; }
now_ms() { python3 -c 'import time; print(int(time.time() * 1000))'; }
now_s() { date +%s.%N; }
since() { python3 -c "import time; print(round(time.time() - $1, 1))"; }
loadavg() { cut -d' ' -f1 /proc/loadavg; }
results="$work/results.jsonl"
: > "$results"

# The sink, as in bench-compare.sh.
mkdir -p "$work/htdocs/3/device"
start_sink() {
  nghttpd -d "$work/htdocs" "$SINK_PORT" certs/dev/server.key certs/dev/server.pem >/dev/null 2>&1 &
  sink_pid=$!
  for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$SINK_PORT") 2>/dev/null && break; sleep 0.1; done
}
start_sink
# Checked before every case: on 2026-11-23 the sink vanished once mid-run (not killed by this
# script, no crash logged), and the relay then (rightly) retried for ever.
check_sink() {
  if ! kill -0 "$sink_pid" 2>/dev/null; then
    echo "   WARNING: the sink (nghttpd, pid $sink_pid) is gone; started again" >&2
    start_sink
  fi
}

# Writes the relay's configuration for database $1. 1,000-member events are ~95 KB, more than
# http.max_body_bytes' default 64 KB; apps[].limits.max_members_per_event (default 2,000) and
# delivery.max_backlog (default 2 s) keep their defaults, so 503s past the backlog promise show.
config() {
  # The relay refuses a key file every user can read; a checkout's files are 0644.
  install -m 0600 "$ROOT/certs/dev/AuthKey_DEVKEY1234.p8" "$work/"
  cat > "$work/relay.yaml" <<YAML
listen: {host: 127.0.0.1, port: $RELAY_PORT}
database: {path: $1${RECIPIENT_CACHE:+, recipient_cache: $RECIPIENT_CACHE}}
http: {max_body_bytes: 4194304}
apps:
  - app_id: bench-app
    api_token: bench-token-0123456789abcdef0123456789abcdef
    apns:
      topic: com.example.pushrelay
      environment: {url: "https://127.0.0.1:$SINK_PORT", ca_file: $ROOT/certs/dev/ca.pem}
      auth: {token: {key_file: $work/AuthKey_DEVKEY1234.p8, key_id: DEVKEY1234, team_id: DEVTEAM123}}
YAML
}
# Starts the relay on database $1; sets relay_pid, startup (seconds until it listens) and, unless
# $2 is nowarm, ready (seconds from then until one webhook event's pushes were sent).
start_relay() {
  config "$1"
  local t0; t0=$(now_s)
  scripts/as-service "$RELAY" serve --config "$work/relay.yaml" > "$work/relay.out" 2> "$work/relay.log" &
  relay_pid=$!
  for _ in $(seq 6000); do
    grep -q "listening" "$work/relay.out" 2>/dev/null && break
    kill -0 "$relay_pid" 2>/dev/null || { echo "the relay exited:" >&2; tail -20 "$work/relay.log" >&2; exit 1; }
    sleep 0.1
  done
  startup=$(since "$t0")
  db="$1"
  # The dispatcher opens only after counting the unsent deliveries (PushStore.unsentCountsByApp
  # and unsentCountsBySecond, each a scan of every delivery); until then nothing is sent and
  # accepted pushes wait as pending. Measure that, and start the load only once one event's
  # pushes have been sent.
  ready=''
  [ "${2:-}" != nowarm ] || return 0
  local t1 w id
  t1=$(now_s)
  warm_count=$((warm_count + 1))
  w=$(sed -n "${warm_count}p" "$work/warm.txt")
  id=$((60000000 + warm_count - 1))
  curl -s -o /dev/null --max-time 300 -H 'Content-Type: application/json' -H "x-sendbird-signature: ${w%% *}" \
    --data-binary "${w#* }" "http://127.0.0.1:$RELAY_PORT/webhooks/sendbird/bench-app"
  until [ "$(q "SELECT COUNT(*) FROM deliveries WHERE app_id = 'bench-app' AND message_id = $id AND state = 'sent'")" -gt 0 ] &&
    [ "$(q "SELECT COUNT(*) FROM deliveries WHERE app_id = 'bench-app' AND message_id = $id AND state != 'sent'")" = 0 ]; do
    kill -0 "$relay_pid" 2>/dev/null || { echo "the relay exited:" >&2; tail -20 "$work/relay.log" >&2; exit 1; }
    [ "$(python3 -c "import time; print(int(time.time() - $t1 > 600))")" = 0 ] || { echo "the warm-up event was not sent in 600 s" >&2; exit 1; }
    sleep 0.1
  done
  ready=$(since "$t1")
}
stop_relay() {
  kill -TERM "$relay_pid" 2>/dev/null || true
  wait "$relay_pid" 2>/dev/null || true
  relay_pid=''
}
rss_mb() { awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$relay_pid/status"; }
q() { sqlite3 "file:$db?mode=ro" "PRAGMA busy_timeout=10000; $1" 2>/dev/null | tail -1; }
unsent() { q "SELECT (SELECT COUNT(*) FROM deliveries WHERE state = 'pending') + (SELECT COUNT(*) FROM deliveries WHERE state = 'in_flight')"; }
wait_drained() {  # prints seconds since $1 when nothing is unsent (or DRAIN_TIMEOUT)
  local t0=$1
  while [ "$(unsent)" != 0 ]; do
    if [ "$(python3 -c "import time; print(int(time.time() - $t0 > $DRAIN_TIMEOUT))")" = 1 ]; then echo "timeout"; return; fi
    sleep 0.2
  done
  since "$t0"
}

# The schema: the relay creates it (and runs its migrations) on its first start.
template="$work/template.sqlite"
python3 scripts/bench_events.py "$work/warm.txt" 200 1000 60000000 10
H htdocs "$work/htdocs/3/device" "$work/warm.txt" >/dev/null
warm_count=0
config "$template"
scripts/as-service "$RELAY" serve --config "$work/relay.yaml" > "$work/relay.out" 2> "$work/relay.log" &
relay_pid=$!
for _ in $(seq 600); do grep -q "listening" "$work/relay.out" 2>/dev/null && break; sleep 0.1; done
stop_relay
[ ! -e "$template-wal" ] || sqlite3 "$template" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
# A database with N seeded users: users-N.sqlite.
# DB ROWS USERS sent|pending FROM_MS TO_MS DUE_MS MESSAGE_BASE: 10-member events written as the
# relay writes them (parse, read, plan, commit, outcome); prints the deliveries stored. Then on
# disk, so the relay's first checkpoint does not write the seeded gigabytes.
seed_log() {
  "$PIPELINE_BENCH" --seed-log "$@"
  sync
}

users_db() {
  local n=$1 out="$work/users-$1.sqlite"
  if [ ! -e "$out" ]; then
    cp "$template" "$out"
    H seed_users "$out" "$n" "$(now_ms)"
  fi
  echo "$out"
}
fresh_db() { cp "$(users_db "$1")" "$work/case.sqlite"; rm -f "$work/case.sqlite-wal" "$work/case.sqlite-shm"; echo "$work/case.sqlite"; }

# One wrk load of events file $2 for case label $1 against the running relay; sets the variables
# recorded by the callers (events_s, pushes_s, accepted_s, drain_s, wrk JSON, rss).
load() {
  local label=$1 events=$2
  check_sink
  local base_id ev_before sent t_end
  base_id=$(q "SELECT IFNULL(MAX(id), 0) FROM deliveries")
  ev_before=$(q "SELECT COUNT(*) FROM events WHERE app_id = 'bench-app' AND message_id BETWEEN 1000000 AND 49999999")
  load_before=$(loadavg)
  if [ -n "${PERF_OUT:-}" ]; then
    perf record ${PERF_ARGS:--g -F 499} -p "$relay_pid" -o "$PERF_OUT-$label" -- sleep "$DURATION" >/dev/null 2>&1 &
  fi
  BENCH_EVENTS="$events" BENCH_THREADS="$THREADS" BENCH_PATH=/webhooks/sendbird/bench-app \
    wrk -t "$THREADS" -c "$CONNS" -d "${DURATION}s" --timeout 60s --latency -s scripts/bench-post.lua \
    "http://127.0.0.1:$RELAY_PORT" > "$work/wrk-$label.txt"
  sent=$(q "SELECT COUNT(*) FROM deliveries WHERE id > $base_id AND state = 'sent'")
  t_end=$(now_s)
  drain_s=$(wait_drained "$t_end")
  local accepted ev_after failed
  accepted=$(q "SELECT COUNT(*) FROM deliveries WHERE id > $base_id")
  failed=$(q "SELECT COUNT(*) FROM deliveries WHERE id > $base_id AND state NOT IN ('sent', 'pending', 'in_flight')")
  ev_after=$(q "SELECT COUNT(*) FROM events WHERE app_id = 'bench-app' AND message_id BETWEEN 1000000 AND 49999999")
  wrk_json=$(H wrk "$work/wrk-$label.txt")
  rss=$(rss_mb)
  new_events=$((ev_after - ev_before))
  events_s=$(python3 -c "print(round($new_events / $DURATION, 1))")
  pushes_s=$(python3 -c "print(round($sent / $DURATION))")
  accepted_s=$(python3 -c "print(round($accepted / $DURATION))")
  # Every accepted push sent, per second from the load's start until the queue was empty.
  e2e_s=$(python3 -c "print(round($accepted / ($DURATION + float('$drain_s'.replace('timeout', 'inf')))))")
  pushes_total=$accepted
  local answered2xx
  answered2xx=$(python3 -c "import json; w = json.loads('$wrk_json'); print(w['requests'] - w['non_2xx'])")
  [ "$failed" = 0 ] || echo "   WARNING: $failed deliveries not sent (state failed/expired): is every token's sink file there?" >&2
  [ "$answered2xx" -le $((new_events + CONNS)) ] || echo "   WARNING: $answered2xx answered 200 but $new_events new events: wrk went round the events file (raise EVENTS)" >&2
  echo "   $label: first push sent $ready s after the relay listened; $events_s events/s, $pushes_s pushes/s sent during the load ($accepted_s/s accepted), queue empty $drain_s s after; wrk $wrk_json; RSS $rss MB; started in $startup s; load $load_before"
}
common() { echo "round=$round" "events_s=$events_s" "pushes_s=$pushes_s" "accepted_s=$accepted_s" "e2e_s=$e2e_s" "drain_s=$drain_s" \
  "rss_mb=$rss" "startup_s=$startup" "ready_s=$ready" "load=$load_before" "conns=$CONNS" "duration=$DURATION" \
  "non_2xx=$(python3 -c "import json; print(json.loads('$wrk_json')['non_2xx'])")" \
  "p50_ms=$(python3 -c "import json; print(json.loads('$wrk_json')['p50_ms'])")" \
  "p99_ms=$(python3 -c "import json; print(json.loads('$wrk_json')['p99_ms'])")"; }

echo "== bench-costs: $(date -u '+%F %H:%M') UTC, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); push-relay $BIN_INFO"
echo "   work directory $work; sink nghttpd :$SINK_PORT; relay :$RELAY_PORT; wrk $THREADS threads x $CONNS connections x ${DURATION}s"

# Pre-signed events, and a sink file for every token they reach.
events_file() {  # users members [first message id] -> path (generated once)
  local first=${3:-1000000}
  local out="$work/events-$1-$2-$first.txt" n
  if [ ! -e "$out" ]; then
    n=$(( EVENTS * 10 / $2 )); [ "$n" -ge 200 ] || n=200
    python3 scripts/bench_events.py "$out" "$n" "$1" "$first" "$2"
    H htdocs "$work/htdocs/3/device" "$out" >/dev/null
  fi
  echo "$out"
}

small_rss='' small_pushes=''
for curve in $CURVES; do
  case $curve in
  1)
    echo "-- 1. registered users: $USERS_SIZES (10-member events, 8 offline)"
    for n in $USERS_SIZES; do
      t=$(now_s); users_db "$n" >/dev/null; echo "   seeded $n users and tokens in $(since "$t") s"
      events_file "$n" 10 >/dev/null
    done
    for round in $(seq "$ROUNDS"); do
      for n in $USERS_SIZES; do
        start_relay "$(fresh_db "$n")"
        load "users-$n" "$(events_file "$n" 10)"
        stop_relay
        H record "$results" curve=1 "users=$n" $(common)
      done
    done
    ;;
  2)
    echo "-- 2. channel size: $MEMBER_SIZES members (80 % offline), $C2_USERS users"
    users_db "$C2_USERS" >/dev/null
    for m in $MEMBER_SIZES; do events_file "$C2_USERS" "$m" >/dev/null; done
    for round in $(seq "$ROUNDS"); do for m in $MEMBER_SIZES; do
      start_relay "$(fresh_db "$C2_USERS")"
      load "members-$m" "$(events_file "$C2_USERS" "$m")"
      # Open loop at a tenth of the events/s wrk reached: each event's latency without queueing
      # behind 64 others (bench_openloop.py measures from each request's scheduled time).
      rate=$(python3 -c "r = $events_s / 10; print(round(r, 1) if r < 10 else int(r)) if r >= 0.5 else print(0.5)")
      secs=$(python3 -c "print(min(30, max($LAT_DURATION, round(100 / $rate))))")
      python3 scripts/bench_events.py "$work/open-$m.txt" "$(python3 -c "print(int($rate * $secs) + 10)")" "$C2_USERS" 50000000 "$m"
      H htdocs "$work/htdocs/3/device" "$work/open-$m.txt" >/dev/null
      ol=$(python3 scripts/bench_openloop.py --port "$RELAY_PORT" --path /webhooks/sendbird/bench-app \
        --events "$work/open-$m.txt" --rate "$rate" --duration "$secs")
      echo "   open loop $ol"
      wait_drained "$(now_s)" >/dev/null
      rss=$(rss_mb)
      stop_relay
      H record "$results" curve=2 "members=$m" $(common) "accepted_total=$pushes_total" \
        "ol_rate=$rate" "ol_p50_ms=$(python3 -c "import json; print(json.loads('$ol')['p50_ms'])")" \
        "ol_p99_ms=$(python3 -c "import json; print(json.loads('$ol')['p99_ms'])")" \
        "ol_non_2xx=$(python3 -c "import json; print(json.loads('$ol')['non_2xx'])")"
    done; done
    ;;
  3)
    echo "-- 3. delivery log of $LOG_ROWS sent deliveries, against an empty one; prune $PRUNE_ROWS"
    logdb="$work/log.sqlite"
    cp "$(users_db "$C2_USERS")" "$logdb"
    users_bytes=$(H live_bytes "$logdb")
    now=$(now_ms); t0=$((now - 5 * 86400000)); t1=$((now - 3600000))
    t=$(now_s)
    rows=$(seed_log "$logdb" "$LOG_ROWS" "$C2_USERS" sent "$t0" "$t1" "$now" "$LOG_BASE")
    seed_s=$(since "$t")
    seeded_bytes=$(H live_bytes "$logdb")
    echo "   seeded $rows sent deliveries in $seed_s s: $(python3 -c "print(f'{$seeded_bytes / 1e9:.2f}')") GB"
    # The empty database first, then the full one right after: the two loads are minutes apart at most.
    for round in $(seq "$ROUNDS"); do
      # The log database keeps each round's events: the next round sends other message ids.
      ev=$(events_file "$C2_USERS" 10 $((1000000 + (round - 1) * 5000000)))
      empty=$(fresh_db "$C2_USERS")
      start_relay "$empty"
      load "log-0" "$ev"
      stop_relay
      H record "$results" curve=3 kind=run log_rows=0 $(common)
      real_pushes=$pushes_total
      real_bytes=$(( $(H live_bytes "$empty") - users_bytes ))
      start_relay "$logdb"
      load "log-$rows" "$ev"
      stop_relay
      H record "$results" curve=3 kind=run "log_rows=$rows" $(common)
    done
    # Prune the oldest PRUNE_ROWS seeded deliveries: events are spread evenly over [t0, t1), 8 each.
    cutoff=$(python3 -c "e = $rows // 8; print($t0 + ($PRUNE_ROWS // 8) * ($t1 - $t0) // e)")
    pr=$("$PIPELINE_BENCH" --prune "$logdb" "$cutoff")
    echo "   prune: $pr"
    H record "$results" curve=3 kind=prune $(python3 -c "import json; print(' '.join(f'{k}={v}' for k, v in json.loads('$pr').items()))")
    H record "$results" curve=3 kind=bytes "real_pushes=$real_pushes" "seeded_rows=$rows" "seed_s=$seed_s" \
      "real_mb_per_m=$(python3 -c "print(round($real_bytes / $real_pushes * 1e6 / 1e6, 1))")" \
      "seeded_mb_per_m=$(python3 -c "print(round(($seeded_bytes - $users_bytes) / $rows * 1e6 / 1e6, 1))")" \
      "seeded_gb=$(python3 -c "print(round($seeded_bytes / 1e9, 2))")"
    rm -f "$logdb" "$logdb-wal" "$logdb-shm"
    ;;
  4)
    echo "-- 4. backlog of $BACKLOG pending deliveries (an APNs outage), drained against the sink"
    H users_htdocs "$work/htdocs/3/device" "$C2_USERS"
    bl="$work/backlog.sqlite"
    cp "$(users_db "$C2_USERS")" "$bl"
    now=$(now_ms)
    t=$(now_s)
    rows=$(seed_log "$bl" "$BACKLOG" "$C2_USERS" pending "$((now - 600000))" "$((now - 1000))" "$((now - 1000))" "$LOG_BASE")
    echo "   seeded $rows pending deliveries in $(since "$t") s"
    t=$(now_s)
    load_before=$(loadavg)
    check_sink
    start_relay "$bl" nowarm
    t_listen=$(now_s)
    drain_s=$(wait_drained "$t_listen")
    rss=$(rss_mb)
    # The relay's CPU (user + system, clock ticks) over its whole run, per push drained.
    cpu_us=$(awk -v rows="$rows" -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) * 1e6 / hz / rows}' "/proc/$relay_pid/stat")
    sent=$(q "SELECT COUNT(*) FROM deliveries WHERE state = 'sent'")
    failed=$(q "SELECT COUNT(*) FROM deliveries WHERE state NOT IN ('sent', 'pending', 'in_flight')")
    stop_relay
    echo "   drained $rows in $drain_s s after the relay listened (started in $startup s); peak RSS $rss MB; relay CPU $cpu_us us per push; sent $sent, failed $failed"
    # Goal 1's sending path in one run: the project's own APNs client (apns-bench, a pool of 2
    # connections as the relay has, 1,000 in flight) against the same sink, right after the drain.
    client_s=''
    client_bin=${APNS_BENCH:-}
    for c in .build-release/release/apns-bench .build/release/apns-bench; do
      [ -n "$client_bin" ] || [ ! -x "$c" ] || client_bin=$c
    done
    if [ -n "$client_bin" ]; then
      echo ok > "$work/htdocs/3/device/$(printf 'ab%.0s' $(seq 32))"
      client_s=$("$client_bin" --port "$SINK_PORT" --ca-file "$ROOT/certs/dev/ca.pem" --count "$rows" --concurrency 1000 --connections 2 |
        grep -Eo '[0-9.]+ notifications/s' | head -1 | cut -d' ' -f1)
      echo "   the APNs client ($client_bin, pool of 2) against the same sink: $client_s notifications/s"
    else
      echo "   (no apns-bench build: swift build -c release --product apns-bench, or APNS_BENCH=<binary>, adds the client's rate)"
    fi
    H record "$results" curve=4 "backlog=$rows" "drain_s=$drain_s" "startup_s=$startup" "rss_mb=$rss" "cpu_us=$cpu_us" \
      "client_s=${client_s:-null}" \
      "sent=$sent" "failed=$failed" "load=$load_before" \
      "drain_rate=$(python3 -c "print(round($rows / max(0.1, float('$drain_s'.replace('timeout', 'inf')))))")"
    rm -f "$bl" "$bl-wal" "$bl-shm"
    ;;
  esac
done

echo
H report "$results" "$(date -u '+%F %H:%M') UTC, $(nproc) cores, load average now $(cut -d' ' -f1-3 /proc/loadavg); push-relay $BIN_INFO"
[ -z "${RESULTS:-}" ] || cp "$results" "$RESULTS"
