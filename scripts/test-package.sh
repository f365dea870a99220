#!/usr/bin/env bash
# Tests the .deb that scripts/package-deb.sh makes, as an operator gets it.
#
#   scripts/test-package.sh                 # packages a release build (package-deb.sh builds it)
#   scripts/test-package.sh --binary PATH [--bundle-swift-runtime]
#                                           # packages this binary (scripts/test: its debug build)
#
# As root with dpkg, and push-relay not already installed: dpkg -i (apt-get install -f if a
# dependency is missing), push-relay --version, check-config on the installed example
# configuration, the files, user, state directory and token, the unit (systemd-analyze verify and
# security, when present), `push-relay serve` started by hand as the push-relay user answering
# /health, a reinstall keeping the token, dpkg -r keeping data, and dpkg --purge leaving nothing.
# Otherwise: dpkg-deb -x into a temporary directory, then --version and check-config from there.
# Either way: the installed documentation has no dead relative links (scripts/check-links.py).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v dpkg-deb >/dev/null; then
  echo "test-package: SKIPPED: no dpkg-deb on this machine (the package is Debian's)"
  exit 0
fi
binary_args=("$@")   # passed to package-deb.sh

work=$(mktemp -d)
chmod 0755 "$work"
installed=no
serve_pid=""
cleanup() {
  if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
  if [ "$installed" = yes ]; then dpkg --purge push-relay >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "test-package: FAIL: $*" >&2; exit 1; }
pass() { echo "test-package: ok: $*"; }

deb=$(scripts/package-deb.sh "${binary_args[@]}" --output "$work/out" --compress none | tail -n1)
[ -f "$deb" ] || fail "package-deb.sh made no .deb"
version=$(dpkg-deb -f "$deb" Version)
pass "built $(basename "$deb") ($(du -h "$deb" | cut -f1)); Depends: $(dpkg-deb -f "$deb" Depends)"
dpkg-deb -c "$deb" | grep ' ./etc/push-relay/push-relay.yaml$' >/dev/null || fail "no example configuration in the package"

# The package's version is the binary's, with at most a +git suffix.
check_version() {
  local got
  got=$("$1" --version) || fail "$1 --version failed"
  [ "${version%%+*}" = "$got" ] || fail "$1 --version says $got, the package $version"
  pass "$1 --version: $got"
}

# Port 8080 (the example's) may be taken on a shared machine: then the copy uses a free one.
# The relay reads {credential: NAME} from $CREDENTIALS_DIRECTORY, which systemd sets; started by
# hand, it is the directory the unit loads them from.
serve_and_ask_health() {
  local config=$1 user=$2 credentials=$3 log=$work/serve.log
  if (exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null; then
    sed 's/^  port: 8080/  port: 0/' "$config" > "$work/serve.yaml"
    chmod 0644 "$work/serve.yaml"
    config=$work/serve.yaml
    echo "test-package: port 8080 is in use here; serving on a free port with a copy of the configuration"
  fi
  if [ -n "$user" ]; then
    # setpriv execs the relay itself (runuser would stay its parent and report SIGTERM as 143).
    (cd / && CREDENTIALS_DIRECTORY=$credentials exec setpriv --reuid="$user" --regid="$user" --init-groups -- push-relay serve --config "$config") > "$log" 2>&1 &
  else
    CREDENTIALS_DIRECTORY=$credentials "$root/usr/bin/push-relay" serve --config "$config" > "$log" 2>&1 &
  fi
  serve_pid=$!
  local url=""
  for _ in $(seq 1 300); do
    url=$(sed -n 's/^push-relay listening on \(http:[^ ]*\)$/\1/p' "$log")
    [ -n "$url" ] && break
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$url" ] || { cat "$log" >&2; fail "push-relay serve did not start"; }
  local health
  health=$(curl -sS -f "$url/health") || { cat "$log" >&2; fail "GET $url/health failed"; }
  pass "push-relay serve${user:+ as $user}: GET $url/health -> $health"
  kill -TERM "$serve_pid"
  local status=0
  wait "$serve_pid" || status=$?
  serve_pid=""
  [ "$status" = 0 ] || { cat "$log" >&2; fail "push-relay serve exited $status after SIGTERM"; }
  pass "push-relay serve stopped on SIGTERM (exit 0)"
}

# The installed documentation: the unit's Documentation= file is there, and every relative link
# between the installed files resolves (scripts/check-links.py over the installed tree).
check_docs() {
  local docs=$1 unit=$2 target
  target=$(sed -n 's#^Documentation=file://##p' "$unit")
  [ -n "$target" ] || fail "$unit has no Documentation=file:// line"
  [ -f "$docs/${target#/usr/share/doc/push-relay/}" ] || fail "the unit's Documentation= $target is not installed"
  local out
  out=$(find "$docs" -name '*.md' -print0 | xargs -0 python3 scripts/check-links.py 2>&1) \
    || { echo "$out" >&2; fail "dead links in the installed documentation ($docs)"; }
  pass "installed documentation: Documentation= $target present; $(tail -n1 <<<"$out")"
}

check_config() {
  local out
  out=$("$@" 2>&1) || { echo "$out" >&2; fail "$* failed"; }
  grep -q "configuration OK" <<<"$out" || { echo "$out" >&2; fail "$* did not say configuration OK"; }
  pass "$*: $(tr '\n' ' ' <<<"$out")"
}

if [ "$(id -u)" != 0 ] || ! command -v dpkg >/dev/null || dpkg -s push-relay >/dev/null 2>&1 || getent passwd push-relay >/dev/null; then
  echo "test-package: not root, or push-relay already on this machine: testing the extracted package"
  root=$work/root
  dpkg-deb -x "$deb" "$root"
  check_version "$root/usr/bin/push-relay"
  check_docs "$root/usr/share/doc/push-relay" "$root/lib/systemd/system/push-relay.service"
  # What postinst would make, under the extracted tree instead of / (the paths are rewritten).
  mkdir -p "$root/etc/push-relay/credentials" "$root/var/lib/push-relay"
  # Private, as postinst makes it (root:push-relay 0640): the relay refuses a secret file every user can read.
  (umask 077; od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$root/etc/push-relay/credentials/api-token")
  sed -e "s#/etc/push-relay/#$root/etc/push-relay/#g" -e "s#/var/lib/push-relay/#$root/var/lib/push-relay/#g" \
    "$root/etc/push-relay/push-relay.yaml" > "$work/extracted.yaml"
  check_config "$root/usr/bin/push-relay" check-config --config "$work/extracted.yaml" --credentials-dir "$root/etc/push-relay/credentials"
  serve_and_ask_health "$work/extracted.yaml" "" "$root/etc/push-relay/credentials"
  exit 0
fi

echo "test-package: installing $deb"
installed=yes
if ! dpkg -i "$deb"; then
  echo "test-package: dpkg -i left dependencies missing; apt-get install -f"
  DEBIAN_FRONTEND=noninteractive apt-get install -f -y -qq
fi
[ "$(dpkg-query -W -f='${Status}' push-relay)" = "install ok installed" ] || fail "push-relay is not installed"
[ "$(command -v push-relay)" = /usr/bin/push-relay ] || fail "push-relay is not /usr/bin/push-relay on PATH"
check_version push-relay
# As the docs say: as root, outside systemd, the credentials come from the unit's directory.
check_config push-relay check-config --config /etc/push-relay/push-relay.yaml
grep -qx 'LoadCredential=api-token:/etc/push-relay/credentials/api-token' /lib/systemd/system/push-relay.service \
  || fail "the unit does not load the credential api-token"

# Files, user, state directory, token.
for f in /usr/bin/push-relay /lib/systemd/system/push-relay.service /etc/push-relay/push-relay.yaml \
  /usr/share/doc/push-relay/docs/operations.md /usr/share/doc/push-relay/Config/push-relay.yaml; do
  [ -f "$f" ] || fail "$f is missing"
done
check_docs /usr/share/doc/push-relay /lib/systemd/system/push-relay.service
dpkg-query -W -f='${Conffiles}\n' push-relay | grep -q '^ /etc/push-relay/push-relay.yaml ' || fail "push-relay.yaml is not a conffile"
uid=$(id -u push-relay) || fail "no user push-relay"
[ "$uid" -lt 1000 ] || fail "push-relay is not a system user (uid $uid)"
[ "$(stat -c '%U:%G %a' /var/lib/push-relay)" = "push-relay:push-relay 700" ] || fail "/var/lib/push-relay: $(stat -c '%U:%G %a' /var/lib/push-relay)"
token=/etc/push-relay/credentials/api-token
[ "$(stat -c '%U:%G %a' "$token")" = "root:push-relay 640" ] || fail "$token: $(stat -c '%U:%G %a' "$token")"
[ "$(wc -c < "$token")" = 64 ] || fail "$token is not 64 hex digits"
token_before=$(cat "$token")
enabled="not enabled (no deb-systemd-helper, no systemd)"
if command -v deb-systemd-helper >/dev/null || [ -d /run/systemd/system ]; then
  [ -L /etc/systemd/system/multi-user.target.wants/push-relay.service ] || fail "the service is not enabled"
  enabled=enabled
fi
pass "files, conffile, system user push-relay (uid $uid), /var/lib/push-relay (push-relay 0700), $token (root:push-relay 0640), $enabled"

if command -v systemd-analyze >/dev/null; then
  findings=$(systemd-analyze verify /lib/systemd/system/push-relay.service 2>&1) || true
  [ -z "$findings" ] || fail "systemd-analyze verify: $findings"
  pass "systemd-analyze verify: no findings"
  exposure=$(systemd-analyze security --offline=true --no-pager /lib/systemd/system/push-relay.service 2>&1 | grep "Overall exposure level" || true)
  score=$(sed -n 's/.*: *\([0-9.]*\) .*/\1/p' <<<"$exposure")
  awk -v s="$score" 'BEGIN { exit !(s != "" && s + 0 <= 3.9) }' || fail "systemd-analyze security: $exposure"
  pass "systemd-analyze security: $exposure"
fi
if [ -d /run/systemd/system ]; then
  systemctl is-active --quiet push-relay || fail "systemd runs, but push-relay.service is not active: $(systemctl status push-relay --no-pager 2>&1 | tail -n 5)"
  pass "push-relay.service is active"
  systemctl stop push-relay
fi

serve_and_ask_health /etc/push-relay/push-relay.yaml push-relay /etc/push-relay/credentials

dpkg -i "$deb" >/dev/null
[ "$(cat "$token")" = "$token_before" ] || fail "a reinstall replaced the API token"
pass "reinstall keeps the API token"

dpkg -r push-relay >/dev/null
[ ! -e /usr/bin/push-relay ] || fail "dpkg -r left /usr/bin/push-relay"
[ -f /etc/push-relay/push-relay.yaml ] && [ -d /var/lib/push-relay ] && getent passwd push-relay >/dev/null \
  || fail "dpkg -r removed configuration, data or the user"
pass "dpkg -r keeps configuration, data and the user"

dpkg --purge push-relay >/dev/null
installed=no
left=()
for p in /etc/push-relay /var/lib/push-relay /lib/systemd/system/push-relay.service /usr/share/doc/push-relay \
  /etc/systemd/system/multi-user.target.wants/push-relay.service /etc/systemd/system/push-relay.service \
  /var/lib/systemd/deb-systemd-helper-enabled/push-relay.service.dsh-also \
  /var/lib/systemd/deb-systemd-helper-enabled/multi-user.target.wants/push-relay.service \
  /var/lib/systemd/deb-systemd-helper-masked/push-relay.service; do
  if [ -e "$p" ] || [ -L "$p" ]; then left+=("$p"); fi
done
getent passwd push-relay >/dev/null && left+=("user push-relay")
getent group push-relay >/dev/null && left+=("group push-relay")
dpkg -s push-relay >/dev/null 2>&1 && left+=("the package's dpkg status")
[ ${#left[@]} = 0 ] || fail "dpkg --purge left: ${left[*]}"
pass "dpkg --purge left nothing behind"
