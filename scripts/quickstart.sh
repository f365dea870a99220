#!/usr/bin/env bash
# PushRelay quick start: builds, then runs the bundled apns-mock, fcm-mock, hms-mock and webpush-mock
# (validating, recording every push they accept) and the relay (Config/quickstart.yaml) on
# loopback. No Apple, Google or Huawei credentials: the relay signs with the development keys in
# certs/dev and a development client secret, which the mocks trust.
#
#   scripts/quickstart.sh          # start them and print the commands to try (Ctrl-C stops)
#   scripts/quickstart.sh --demo   # first register Bob's iPhone, Android and Huawei tokens and his
#                                  # browser's subscription, post the signed sample event, wait for
#                                  # the four pushes, send Bob
#                                  # a test push (push-relay test-push) and show a dead token's
#                                  # answer; then the same: everything keeps running (the console
#                                  # has the demo's data) until Ctrl-C
#   scripts/quickstart.sh --build  # build even when the binaries look newer than the sources
# State (database, logs, recorded pushes) is in .quickstart/, emptied at every start.
set -euo pipefail
cd "$(dirname "$0")/.."

API_TOKEN=quickstart-token-0123456789abcdef
RELAY=http://127.0.0.1:8080
DEVICE_TOKEN=$(printf 'ab%.0s' $(seq 1 32))   # any 64 hex digits
FCM_TOKEN="bob-pixel:APA91b$(printf 'Qk%.0s' $(seq 1 60))"   # an FCM registration token's shape
HMS_TOKEN="IQAAAACy0kYkAAD-bob-mate$(printf 'Qa9_%.0s' $(seq 1 28))"   # an HMS push token's shape
HMS_APP_ID=104783201
HMS_CLIENT_SECRET=quickstart-hms-client-secret
STATE=.quickstart
RECORD=$STATE/apns-mock.jsonl
FCM_RECORD=$STATE/fcm-mock.jsonl
HMS_RECORD=$STATE/hms-mock.jsonl
WEBPUSH_RECORD=$STATE/webpush-mock.jsonl

demo=no
build=no
for argument in "$@"; do
  case "$argument" in
    --demo) demo=yes ;;
    --build) build=yes ;;
    *) echo "usage: scripts/quickstart.sh [--demo] [--build]" >&2; exit 2 ;;
  esac
done

# `swift build` with nothing to compile still spends 10-40 s planning per product, so a later
# run starts the binaries it finds when each is newer than every source file and the manifest.
PRODUCTS=(push-relay apns-mock fcm-mock hms-mock webpush-mock)
BIN=.build/debug
up_to_date() {
  local product
  for product in "${PRODUCTS[@]}"; do
    [[ -x "$BIN/$product" ]] || return 1
    [[ -z "$(find Sources Package.swift -newer "$BIN/$product" -print -quit)" ]] || return 1
  done
}
if [[ "$build" == no ]] && up_to_date; then
  echo "==> push-relay and the four mocks are built and newer than the sources: starting them (--build rebuilds)"
else
  echo "==> building push-relay and the four mocks (the first build takes about 10-12 minutes on 2 cores)"
  # Only the products this runs, no tests or benchmarks. One call each: `swift build` takes one
  # --product (given twice, it silently builds the last only), and a plain `swift build` also
  # builds the benchmarks and the test support target (measured: 12 % more CPU time).
  for product in "${PRODUCTS[@]}"; do swift build --product "$product"; done
  BIN=$(swift build --show-bin-path)
  # A build that compiled nothing leaves the binary's time as it was: mark them as checked now.
  for product in "${PRODUCTS[@]}"; do touch "$BIN/$product"; done
fi

# Each run starts from an empty database: the sample event has a fixed message id, and a
# second run would (rightly) answer it as a duplicate and push nothing.
mkdir -p "$STATE"
rm -f "$STATE"/push-relay.sqlite "$STATE"/push-relay.sqlite-wal "$STATE"/push-relay.sqlite-shm
# The relay refuses a key file every user can read; a checkout's files are 0644.
install -d -m 0700 "$STATE/keys"
install -m 0600 certs/dev/AuthKey_DEVKEY1234.p8 certs/dev/fcm-service-account.json certs/dev/vapid-dev.pem "$STATE/keys/"
(umask 077 && printf '%s' "$HMS_CLIENT_SECRET" > "$STATE/keys/hms-client-secret" && printf '%s' "$API_TOKEN" > "$STATE/keys/api-token")
: > "$RECORD"
: > "$FCM_RECORD"
: > "$HMS_RECORD"
: > "$WEBPUSH_RECORD"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
# Ctrl-C (or SIGTERM) is how the quick start ends: everything stops, exit 0.
trap 'echo; echo "==> stopping push-relay and the mocks"; exit 0' INT TERM

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

echo "==> starting apns-mock on https://127.0.0.1:2197 (recording to $RECORD; admin API on http://127.0.0.1:2196)"
"$BIN/apns-mock" --port 2197 --admin-port 2196 --team-id DEVTEAM123 --record "$RECORD" --log-level warning \
  > "$STATE/apns-mock.log" 2>&1 &
pids+=($!)
wait_for_line apns-mock "$STATE/apns-mock.log" "listening"

echo "==> starting fcm-mock on https://127.0.0.1:2198 (recording to $FCM_RECORD)"
"$BIN/fcm-mock" --port 2198 --service-account certs/dev/fcm-service-account.json --record "$FCM_RECORD" \
  --log-level warning > "$STATE/fcm-mock.log" 2>&1 &
pids+=($!)
wait_for_line fcm-mock "$STATE/fcm-mock.log" "listening"

echo "==> starting hms-mock on https://127.0.0.1:2199 (recording to $HMS_RECORD)"
"$BIN/hms-mock" --port 2199 --app-id "$HMS_APP_ID" --client-secret "$HMS_CLIENT_SECRET" --record "$HMS_RECORD" \
  --log-level warning > "$STATE/hms-mock.log" 2>&1 &
pids+=($!)
wait_for_line hms-mock "$STATE/hms-mock.log" "listening"

echo "==> starting webpush-mock on https://127.0.0.1:2299 (recording to $WEBPUSH_RECORD; admin API on http://127.0.0.1:2298)"
"$BIN/webpush-mock" --port 2299 --admin-port 2298 --record "$WEBPUSH_RECORD" --log-level warning \
  > "$STATE/webpush-mock.log" 2>&1 &
pids+=($!)
wait_for_line webpush-mock "$STATE/webpush-mock.log" "listening"

echo "==> checking the configuration and probing the mocks (APNs; FCM and HMS: token exchange, then a validate_only send)"
"$BIN/push-relay" check-config --config Config/quickstart.yaml --probe

echo "==> starting push-relay on $RELAY (log: $STATE/push-relay.log)"
"$BIN/push-relay" serve --config Config/quickstart.yaml > "$STATE/push-relay.log" 2>&1 &
pids+=($!)
wait_for_line push-relay "$STATE/push-relay.log" "listening on"

# The webhook signature: lowercase hex HMAC-SHA256 of the raw body, keyed with the API token.
sign() { openssl dgst -sha256 -hmac "$API_TOKEN" -hex < "$1" | sed 's/^.*= //'; }

if [[ "$demo" == yes ]]; then
  echo "==> demo: a session token for Bob, his iPhone's, Android phone's and Huawei phone's tokens and his browser's subscription registered with it, the sample event posted"
  session=$(curl -sS -f -X POST "$RELAY/v3/users/bob/token" -H "Api-Token: $API_TOKEN" | sed 's/.*"token":"\([0-9a-f]*\)".*/\1/')
  curl -sS -f -X POST "$RELAY/v3/users/bob/push/apns" -H "Session-Token: $session" \
    -H 'Content-Type: application/json' -d "{\"apns_device_token\": \"$DEVICE_TOKEN\"}"
  echo
  curl -sS -f -X POST "$RELAY/v3/users/bob/push/gcm" -H "Session-Token: $session" \
    -H 'Content-Type: application/json' -d "{\"gcm_reg_token\": \"$FCM_TOKEN\"}"
  echo
  curl -sS -f -X POST "$RELAY/v3/users/bob/push/huawei" -H "Session-Token: $session" \
    -H 'Content-Type: application/json' -d "{\"huawei_device_token\": \"$HMS_TOKEN\"}"
  echo
  # His browser subscribes at webpush-mock (as pushManager.subscribe() would at a push service) and
  # registers the subscription as PushSubscription.toJSON() gives it.
  made=$(curl -sS -f -X POST http://127.0.0.1:2298/subscriptions)
  subscription_id=$(printf '%s' "$made" | sed -E 's/.*"id":"([^"]*)".*/\1/')
  subscription=$(printf '%s' "$made" | sed -E 's/.*"subscription":(\{[^{}]*\{[^{}]*\}[^{}]*\}).*/\1/')
  curl -sS -f -X POST "$RELAY/v3/users/bob/push/webpush" -H "Session-Token: $session" \
    -H 'Content-Type: application/json' -d "{\"subscription\": $subscription}" | cut -c1-160
  echo "…"
  curl -sS -f -X POST "$RELAY/webhooks/sendbird" -H "x-sendbird-signature: $(sign scripts/sample-event.json)" \
    -H 'Content-Type: application/json' --data-binary @scripts/sample-event.json
  echo
  # (The check-config probe above left a line for its dummy APNs token; wait for Bob's.)
  apns_seen=""; fcm_seen=""; hms_seen=""; webpush_seen=""
  for _ in $(seq 1 600); do
    [[ -z "$apns_seen" ]] && grep -q "\"deviceToken\":\"$DEVICE_TOKEN\"" "$RECORD" && apns_seen=1 &&
      echo "==> the push reached apns-mock (Bob's iPhone):" && grep "\"deviceToken\":\"$DEVICE_TOKEN\"" "$RECORD"
    [[ -z "$fcm_seen" ]] && grep -q "\"token\":\"$FCM_TOKEN\"" "$FCM_RECORD" && fcm_seen=1 &&
      echo "==> the push reached fcm-mock (Bob's Android phone):" && grep "\"token\":\"$FCM_TOKEN\"" "$FCM_RECORD"
    [[ -z "$hms_seen" ]] && grep -q "\"token\":\"$HMS_TOKEN\"" "$HMS_RECORD" && hms_seen=1 &&
      echo "==> the push reached hms-mock (Bob's Huawei phone):" && grep "\"token\":\"$HMS_TOKEN\"" "$HMS_RECORD"
    [[ -z "$webpush_seen" ]] && grep -q "\"subscription\":\"$subscription_id\"" "$WEBPUSH_RECORD" && webpush_seen=1 &&
      echo "==> the push reached webpush-mock (Bob's browser; the mock decrypted it):" &&
      grep "\"subscription\":\"$subscription_id\"" "$WEBPUSH_RECORD" | sed -E 's/.*"plaintext":"((\\.|[^"\\])*)".*/\1/'
    [[ -n "$apns_seen" && -n "$fcm_seen" && -n "$hms_seen" && -n "$webpush_seen" ]] && break
    sleep 0.1
  done
  if [[ -z "$apns_seen" || -z "$fcm_seen" || -z "$hms_seen" || -z "$webpush_seen" ]]; then
    echo "not every push reached its mock within 60 s (APNs: ${apns_seen:-no}, FCM: ${fcm_seen:-no}, HMS: ${hms_seen:-no}, Web Push: ${webpush_seen:-no}); see $STATE/push-relay.log" >&2
    exit 1
  fi
  echo "==> a notification from the app's server to Bob (POST /v3/notifications: not a chat message)"
  curl -sS -f -X POST "$RELAY/v3/notifications" -H "Api-Token: $API_TOKEN" -H 'Content-Type: application/json' \
    -d '{"user_ids": ["bob"], "title": "Quick start", "body": "Your first notification", "deep_link": "https://example.com/welcome"}'
  echo
  notified=""
  for _ in $(seq 1 600); do
    grep -q "Your first notification" "$RECORD" && notified=1 && break
    sleep 0.1
  done
  [[ -n "$notified" ]] || { echo "the notification did not reach apns-mock within 60 s; see $STATE/push-relay.log" >&2; exit 1; }
  echo "==> the notification reached apns-mock (Bob's iPhone):" && grep "Your first notification" "$RECORD" | head -1
  echo "==> a test push to Bob's four devices: push-relay test-push --config Config/quickstart.yaml --app quickstart-app --user bob"
  "$BIN/push-relay" test-push --config Config/quickstart.yaml --app quickstart-app --user bob
  echo "==> Bob's iPhone is unregistered at apns-mock (its admin API); a test push to it shows the token dead and removes it:"
  curl -sS -f -X POST http://127.0.0.1:2196/unregister -H 'Content-Type: application/json' -d "{\"token\": \"$DEVICE_TOKEN\"}"
  status=0
  "$BIN/push-relay" test-push --config Config/quickstart.yaml --app quickstart-app --token-type apns \
    --device-token "$DEVICE_TOKEN" || status=$?
  # Exit status 1: not every device got it.
  [[ $status == 1 ]] || { echo "push-relay test-push exited $status, not 1, for a dead token" >&2; exit 1; }
fi

if [[ "$demo" == yes ]]; then
  try_note=" (the demo did steps 1, 2 and 4 already: the sample event again is answered as a duplicate)"
  console_note=": the demo's data is there. \"Why no push?\" for bob shows the sample message 1001 and the test
pushes; his devices page shows his Android and Huawei tokens (apns-mock called the iPhone's token dead,
and the relay removed it)"
else
  try_note=""
  console_note=": once steps 1 and 2 have run, it has Bob and the sample message 1001 to show"
fi
cat <<EOT

PushRelay is running against apns-mock, fcm-mock, hms-mock and webpush-mock. Try it from another terminal$try_note:

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
  #    ... and his Huawei phone, with its HMS push token (his browser: the demo registers a
  #    subscription made at webpush-mock, POST http://127.0.0.1:2298/subscriptions)
  curl -sS -X POST $RELAY/v3/users/bob/push/huawei \\
    -H "Session-Token: \$SESSION" -H 'Content-Type: application/json' \\
    -d '{"huawei_device_token": "$HMS_TOKEN"}'

  # 2. post the signed sample event (Alice writes to Bob, who is offline)
  curl -sS -X POST $RELAY/webhooks/sendbird \\
    -H "x-sendbird-signature: \$(openssl dgst -sha256 -hmac '$API_TOKEN' -hex < scripts/sample-event.json | sed 's/^.*= //')" \\
    -H 'Content-Type: application/json' --data-binary @scripts/sample-event.json

  # 3. see the pushes arrive at the mocks (one JSON line per notification)
  tail -f $RECORD $FCM_RECORD $HMS_RECORD $WEBPUSH_RECORD

  # 4. a test push to Bob's devices, with each mock's answer (POST /v3/push/test does the same)
  $BIN/push-relay test-push --config Config/quickstart.yaml --app quickstart-app --user bob

  # 5. a notification from the app's server (not a chat message) to Bob, then its counts
  curl -sS -X POST $RELAY/v3/notifications -H 'Api-Token: $API_TOKEN' -H 'Content-Type: application/json' \
    -d '{"user_ids": ["bob"], "title": "Quick start", "body": "Your first notification"}'
  curl -sS $RELAY/v3/notifications/1 -H 'Api-Token: $API_TOKEN'

  # health, readiness, metrics
  curl -sS $RELAY/health; curl -sS $RELAY/ready; curl -sS $RELAY/metrics

The operator console: open $RELAY/console in a browser and sign in with the API token
$API_TOKEN (overview, "why no push?", devices and preferences)$console_note.

Logs: $STATE/push-relay.log, $STATE/apns-mock.log, $STATE/fcm-mock.log, $STATE/hms-mock.log,
$STATE/webpush-mock.log. Ctrl-C stops them all.
EOT
wait
