#!/usr/bin/env bash
# PushRelay quick start: builds, then runs the bundled apns-mock and fcm-mock (validating,
# recording every push they accept) and the relay (Config/quickstart.yaml) on loopback. No Apple
# or Google credentials: the relay signs with the development keys in certs/dev, which the mocks
# trust.
#
#   scripts/quickstart.sh          # start them and print the commands to try (Ctrl-C stops)
#   scripts/quickstart.sh --demo   # also register Bob's iPhone and Android tokens, post the
#                                  # signed sample event and wait for both pushes
# State (database, logs, recorded pushes) is in .quickstart/, emptied at every start.
set -euo pipefail
cd "$(dirname "$0")/.."

API_TOKEN=quickstart-token-0123456789abcdef
RELAY=http://127.0.0.1:8080
DEVICE_TOKEN=$(printf 'ab%.0s' $(seq 1 32))   # any 64 hex digits
FCM_TOKEN="bob-pixel:APA91b$(printf 'Qk%.0s' $(seq 1 60))"   # an FCM registration token's shape
STATE=.quickstart
RECORD=$STATE/apns-mock.jsonl
FCM_RECORD=$STATE/fcm-mock.jsonl

echo "==> building push-relay, apns-mock and fcm-mock (the first build takes about 10-12 minutes on 2 cores; later builds seconds)"
# Only the products this runs, no tests or benchmarks. One call each: `swift build` takes one
# --product (given twice, it silently builds the last only), and a plain `swift build` also
# builds the benchmarks and the test support target (measured: 12 % more CPU time).
swift build --product push-relay
swift build --product apns-mock
swift build --product fcm-mock
BIN=$(swift build --show-bin-path)

# Each run starts from an empty database: the sample event has a fixed message id, and a
# second run would (rightly) answer it as a duplicate and push nothing.
mkdir -p "$STATE"
rm -f "$STATE"/push-relay.sqlite "$STATE"/push-relay.sqlite-wal "$STATE"/push-relay.sqlite-shm
# The relay refuses a key file every user can read; a checkout's files are 0644.
install -d -m 0700 "$STATE/keys"
install -m 0600 certs/dev/AuthKey_DEVKEY1234.p8 certs/dev/fcm-service-account.json "$STATE/keys/"
: > "$RECORD"
: > "$FCM_RECORD"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

# Waits until $2 contains $3 (the server's "listening" line), or fails after 60 s.
wait_for_line() {
  local name=$1 file=$2 text=$3
  for _ in $(seq 1 600); do
    grep -q "$text" "$file" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "$name did not start; its log ($file):" >&2
  cat "$file" >&2
  exit 1
}

echo "==> starting apns-mock on https://127.0.0.1:2197 (recording to $RECORD)"
"$BIN/apns-mock" --port 2197 --team-id DEVTEAM123 --record "$RECORD" --log-level warning \
  > "$STATE/apns-mock.log" 2>&1 &
pids+=($!)
wait_for_line apns-mock "$STATE/apns-mock.log" "listening"

echo "==> starting fcm-mock on https://127.0.0.1:2198 (recording to $FCM_RECORD)"
"$BIN/fcm-mock" --port 2198 --service-account certs/dev/fcm-service-account.json --record "$FCM_RECORD" \
  --log-level warning > "$STATE/fcm-mock.log" 2>&1 &
pids+=($!)
wait_for_line fcm-mock "$STATE/fcm-mock.log" "listening"

echo "==> checking the configuration and probing the mocks (APNs, and FCM: token exchange, then a validate_only send)"
"$BIN/push-relay" check-config --config Config/quickstart.yaml --probe

echo "==> starting push-relay on $RELAY (log: $STATE/push-relay.log)"
"$BIN/push-relay" serve --config Config/quickstart.yaml > "$STATE/push-relay.log" 2>&1 &
pids+=($!)
wait_for_line push-relay "$STATE/push-relay.log" "listening on"

# The webhook signature: lowercase hex HMAC-SHA256 of the raw body, keyed with the API token.
sign() { openssl dgst -sha256 -hmac "$API_TOKEN" -hex < "$1" | sed 's/^.*= //'; }

cat <<EOT

PushRelay is running against apns-mock and fcm-mock. Try it from another terminal:

  # 1. the app's server (which holds the API token) gets a session token for Bob ...
  SESSION=\$(curl -sS -X POST $RELAY/v3/users/bob/token -H 'Api-Token: $API_TOKEN' | sed 's/.*"token":"\\([0-9a-f]*\\)".*/\\1/')
  #    ... and Bob's device registers its token with it (devices never hold the API token)
  curl -sS -X POST $RELAY/v3/users/bob/push/apns \\
    -H "Session-Token: \$SESSION" -H 'Content-Type: application/json' \\
    -d '{"apns_device_token": "$DEVICE_TOKEN"}'
  #    ... and so does his Android phone, with its FCM registration token
  curl -sS -X POST $RELAY/v3/users/bob/push/gcm \\
    -H "Session-Token: \$SESSION" -H 'Content-Type: application/json' \\
    -d '{"gcm_reg_token": "$FCM_TOKEN"}'

  # 2. post the signed sample event (Alice writes to Bob, who is offline)
  curl -sS -X POST $RELAY/webhooks/sendbird \\
    -H "x-sendbird-signature: \$(openssl dgst -sha256 -hmac '$API_TOKEN' -hex < scripts/sample-event.json | sed 's/^.*= //')" \\
    -H 'Content-Type: application/json' --data-binary @scripts/sample-event.json

  # 3. see the pushes arrive at the mocks (one JSON line per notification)
  tail -f $RECORD $FCM_RECORD

  # health, readiness, metrics
  curl -sS $RELAY/health; curl -sS $RELAY/ready; curl -sS $RELAY/metrics

Logs: $STATE/push-relay.log, $STATE/apns-mock.log, $STATE/fcm-mock.log. Ctrl-C stops them all.
EOT

if [[ "${1:-}" == "--demo" ]]; then
  echo "==> demo: a session token for Bob, his iPhone's and his Android phone's tokens registered with it, the sample event posted"
  session=$(curl -sS -f -X POST "$RELAY/v3/users/bob/token" -H "Api-Token: $API_TOKEN" | sed 's/.*"token":"\([0-9a-f]*\)".*/\1/')
  curl -sS -f -X POST "$RELAY/v3/users/bob/push/apns" -H "Session-Token: $session" \
    -H 'Content-Type: application/json' -d "{\"apns_device_token\": \"$DEVICE_TOKEN\"}"
  echo
  curl -sS -f -X POST "$RELAY/v3/users/bob/push/gcm" -H "Session-Token: $session" \
    -H 'Content-Type: application/json' -d "{\"gcm_reg_token\": \"$FCM_TOKEN\"}"
  echo
  curl -sS -f -X POST "$RELAY/webhooks/sendbird" -H "x-sendbird-signature: $(sign scripts/sample-event.json)" \
    -H 'Content-Type: application/json' --data-binary @scripts/sample-event.json
  echo
  # (The check-config probe above left a line for its dummy APNs token; wait for Bob's.)
  apns_seen=""; fcm_seen=""
  for _ in $(seq 1 600); do
    [[ -z "$apns_seen" ]] && grep -q "\"deviceToken\":\"$DEVICE_TOKEN\"" "$RECORD" && apns_seen=1 &&
      echo "==> the push reached apns-mock (Bob's iPhone):" && grep "\"deviceToken\":\"$DEVICE_TOKEN\"" "$RECORD"
    [[ -z "$fcm_seen" ]] && grep -q "\"token\":\"$FCM_TOKEN\"" "$FCM_RECORD" && fcm_seen=1 &&
      echo "==> the push reached fcm-mock (Bob's Android phone):" && grep "\"token\":\"$FCM_TOKEN\"" "$FCM_RECORD"
    [[ -n "$apns_seen" && -n "$fcm_seen" ]] && exit 0
    sleep 0.1
  done
  echo "not every push reached its mock within 60 s (APNs: ${apns_seen:-no}, FCM: ${fcm_seen:-no}); see $STATE/push-relay.log" >&2
  exit 1
fi
wait
