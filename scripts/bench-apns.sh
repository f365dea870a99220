#!/usr/bin/env bash
# APNs client benchmark: pushes N notifications (~700-byte payloads) as fast as the client can to
# an accept-all HTTP/2 + TLS sink on loopback, and runs h2load against the same sink with the same
# payload as the ceiling.
#
#   scripts/bench-apns.sh                 # N=200000, sink=nghttpd
#   N=500000 SINK=apns-mock scripts/bench-apns.sh
#
# Sinks: nghttpd (Debian nghttp2-server, C, one thread) or apns-mock --mode sink (swift-nio-http2).
# Needs: h2load (nghttp2-client), nghttpd (nghttp2-server) for that sink.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200000}
SINK=${SINK:-nghttpd}
POOL=${POOL:-2}
INFLIGHT=${INFLIGHT:-1000}
PORT=${PORT:-$((20000 + RANDOM % 20000))}
TOKEN=$(printf 'ab%.0s' $(seq 32))
work=$(mktemp -d)
cleanup() { [ -n "${sink_pid:-}" ] && kill "$sink_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
. scripts/bench-exit.sh
bench_on_exit cleanup

swift build -c release --product apns-bench >/dev/null
python3 - "$work/payload.json" <<'PY'
import sys
head = '{"aps":{"alert":"Jane: hello","badge":1,"sound":"default"},"sendbird":{"message":"'
tail = '"}}'
open(sys.argv[1], "w").write(head + "x" * (700 - len(head) - len(tail)) + tail)
PY

case "$SINK" in
  nghttpd)
    mkdir -p "$work/htdocs/3/device" && echo ok > "$work/htdocs/3/device/$TOKEN"
    nghttpd -d "$work/htdocs" "$PORT" certs/dev/server.key certs/dev/server.pem >/dev/null 2>&1 &
    sink_pid=$! ;;
  apns-mock)
    swift build -c release --product apns-mock >/dev/null
    .build/release/apns-mock --mode sink --port "$PORT" > "$work/mock.log" 2>&1 &
    sink_pid=$! ;;
  *) echo "SINK must be nghttpd or apns-mock" >&2; exit 2 ;;
esac
for _ in $(seq 100); do
  (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break
  sleep 0.1
done

echo "== sink: $SINK on 127.0.0.1:$PORT, $N notifications of $(wc -c < "$work/payload.json") bytes"
echo "-- ceiling: h2load, 1 connection, 100 streams"
h2load -n "$N" -c 1 -m 100 -d "$work/payload.json" -H 'apns-topic: com.example.pushrelay' \
  -H 'apns-push-type: alert' "https://127.0.0.1:$PORT/3/device/$TOKEN" | grep -E "finished in|succeeded"
echo "-- push-relay APNs client, 1 connection"
.build/release/apns-bench --port "$PORT" --count "$N" --concurrency "$INFLIGHT" --connections 1
echo "-- push-relay APNs client, pool of $POOL connections"
.build/release/apns-bench --port "$PORT" --count "$N" --concurrency "$INFLIGHT" --connections "$POOL"
