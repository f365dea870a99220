#!/usr/bin/env bash
# Makes push-relay_VERSION_ARCH.deb: what an operator installs instead of building from source.
# Run with --help for what it contains and the options.
set -euo pipefail

usage() {
  cat <<'EOT'
Usage: scripts/package-deb.sh [--binary PATH [--bundle-swift-runtime]] [--output DIR]
                              [--version VERSION] [--compress TYPE]

Builds the release binary (swift build -c release --static-swift-stdlib --product push-relay:
the Swift runtime linked in, so the package needs no Swift toolchain) and packages it as
DIR/push-relay_VERSION_ARCH.deb:

  /usr/bin/push-relay                      the relay
  /lib/systemd/system/push-relay.service   systemd/push-relay.service, as the user push-relay
  /etc/push-relay/push-relay.yaml          example configuration (a conffile): one app, no APNs;
                                           its API token is the credential api-token
  /usr/share/doc/push-relay/               the documentation as the repository lays it out
                                           (scripts/install-docs.sh): README.md, docs/ (operations.md,
                                           the unit's Documentation=, and the rest, with the console's
                                           pictures), openapi/push-relay.yaml and the fully commented
                                           Config/push-relay.yaml

Installing it makes the system user push-relay, its state directory /var/lib/push-relay, a
random API token in /etc/push-relay/credentials/api-token (kept if present; the unit loads it
with LoadCredential=), enables the service and starts it when systemd runs. Removing it stops the service; purging it also deletes
the database, the token and the user.

Options:
  --binary PATH      package this push-relay binary instead of building one (it must not need
                     the Swift toolchain's libraries: checked with ldd)
  --bundle-swift-runtime
                     for tests only (scripts/test packages its debug build so): accept a binary
                     linked to the toolchain's Swift runtime, and ship those libraries beside it in
                     /usr/lib/push-relay, with /usr/bin/push-relay a script that points the
                     dynamic loader there
  --output DIR       where the .deb goes (default: dist in the repository)
  --version VERSION  package version (default: the binary's --version, plus +git<date>.<commit>
                     when run in a git checkout)
  --compress TYPE    dpkg-deb's compression: xz (default; a minute for the ~100 MB binary), gzip
                     or none (what the tests use: they only unpack it)
  -h, --help         this text

Needs dpkg-deb; dpkg -S (for Depends) when the runtime libraries are installed.
EOT
}

die() { echo "package-deb.sh: $*" >&2; exit 1; }

binary=""
output=""
version=""
compress=xz
bundle=no
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) [ $# -ge 2 ] || die "--binary needs a path"; binary=$2; shift 2 ;;
    --output) [ $# -ge 2 ] || die "--output needs a directory"; output=$2; shift 2 ;;
    --version) [ $# -ge 2 ] || die "--version needs a value"; version=$2; shift 2 ;;
    --compress) [ $# -ge 2 ] || die "--compress needs a type"; compress=$2; shift 2 ;;
    --bundle-swift-runtime) bundle=yes; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
command -v dpkg-deb >/dev/null || die "dpkg-deb is missing (apt-get install dpkg)"
[ "$bundle" = no ] || [ -n "$binary" ] || die "--bundle-swift-runtime needs --binary"
# Paths given are relative to where the script was called from.
[ -z "$binary" ] || binary=$(realpath -- "$binary")
[ -z "$output" ] || output=$(realpath -m -- "$output")
cd "$(dirname "$0")/.."
output=${output:-$PWD/dist}

if [ -z "$binary" ]; then
  echo "==> building the release binary (static Swift runtime)"
  swift build -c release --static-swift-stdlib --product push-relay
  binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/push-relay"
fi
[ -x "$binary" ] || die "$binary is not an executable"

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
root=$staging/push-relay
install -d -m 0755 "$root/DEBIAN" "$root/usr/bin" "$root/lib/systemd/system" "$root/etc/push-relay"

# The package must run without a Swift toolchain: nothing may resolve into one (a Swift runtime
# library, or anything under the toolchain's directory).
toolchain_libs='/(swift|swift_static)/|libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime'
if [ "$bundle" = no ]; then
  install -m 0755 "$binary" "$root/usr/bin/push-relay"
  installed_binary=$root/usr/bin/push-relay
  libraries=$(ldd "$installed_binary") || die "ldd $binary failed"
  if grep -Eq "$toolchain_libs" <<<"$libraries"; then
    die "$binary links the Swift runtime dynamically (build it with --static-swift-stdlib):"$'\n'"$(grep -E "$toolchain_libs" <<<"$libraries")"
  fi
else
  # Test packages only: the toolchain's libraries beside the binary. The binary's RUNPATH names
  # the toolchain first, so the script sets LD_LIBRARY_PATH, which the loader searches before it.
  private=$root/usr/lib/push-relay
  install -d -m 0755 "$private"
  install -m 0755 "$binary" "$private/push-relay"
  installed_binary=$private/push-relay
  ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | { grep -E "$toolchain_libs" || true; } | while read -r lib; do
    install -m 0644 "$lib" "$private/"
  done
  cat > "$root/usr/bin/push-relay" <<'EOT'
#!/bin/sh
# Test package (scripts/package-deb.sh --bundle-swift-runtime): the Swift runtime is in ../lib/push-relay.
dir=$(dirname "$(readlink -f "$0")")/../lib/push-relay
LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec "$dir/push-relay" "$@"
EOT
  chmod 0755 "$root/usr/bin/push-relay"
  libraries=$(LD_LIBRARY_PATH=$private ldd "$installed_binary") || die "ldd $binary failed"
  if grep -E "$toolchain_libs" <<<"$libraries" | grep -v " => $private/" | grep -q .; then
    die "bundling left libraries resolving into the toolchain:"$'\n'"$(grep -E "$toolchain_libs" <<<"$libraries" | grep -v " => $private/")"
  fi
fi
if grep -q "not found" <<<"$libraries"; then
  die "$binary needs libraries that are not installed:"$'\n'"$(grep "not found" <<<"$libraries")"
fi

# Depends: the package of every library ldd resolves, plus what the relay needs beyond them
# (time zone names; adduser for the postinst).
depends=(adduser libnghttp2-14 libssl3 libsqlite3-0 liblz4-1 tzdata)
while read -r path; do
  owner=""
  for candidate in "$path" "$(readlink -f "$path")" "${path#/usr}" "/usr$path"; do
    owner=$(dpkg -S "$candidate" 2>/dev/null | head -n1 | cut -d: -f1) && [ -n "$owner" ] && break
  done
  [ -n "$owner" ] || die "no installed package owns $path (needed by $binary)"
  depends+=("$owner")
done < <(awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && $1 !~ /ld-linux/ { print $1 }' <<<"$libraries" | grep -v "^${private:-/nonexistent}/")
depends_line=$(printf '%s\n' "${depends[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')

if [ -z "$version" ]; then
  version=$("$root/usr/bin/push-relay" --version) || die "$binary --version failed"
  if git rev-parse --git-dir >/dev/null 2>&1; then
    version="$version+git$(git log -1 --format=%cd --date=format:%Y%m%d%H%M%S).$(git rev-parse --short HEAD)"
  fi
fi
arch=$(dpkg --print-architecture)

# Debug sections only; the symbol table stays, so crash backtraces still name functions.
if command -v strip >/dev/null; then strip --strip-debug "$installed_binary"; fi

# The unit is systemd/push-relay.service with the packaged paths and a static user instead of
# DynamicUser= (which would move /var/lib/push-relay to /var/lib/private). Each rewritten line
# is checked first, so a change to the unit cannot slip past the package unnoticed.
unit=systemd/push-relay.service
for pattern in '^ExecStart=/usr/local/bin/push-relay ' '^Documentation=file:///usr/local/share/doc/push-relay/docs/operations.md$' \
  '^DynamicUser=yes$' '^# A throw-away user' '^LoadCredential=api-token:/etc/push-relay/credentials/api-token$' \
  '^LoadCredential=apns-key.p8:/etc/push-relay/credentials/apns-key.p8$'; do
  grep -q "$pattern" "$unit" || die "$unit no longer has a line matching $pattern: update package-deb.sh"
done
{
  cat <<'EOT'
# PushRelay as a systemd service, installed by the push-relay package (made from the source's
# systemd/push-relay.service). Change it with a drop-in: systemctl edit push-relay
EOT
  sed -n '/^\[Unit\]/,$p' "$unit" | sed \
    -e 's#/usr/local/bin/push-relay#/usr/bin/push-relay#g' \
    -e 's#file:///usr/local/share/doc/push-relay/#file:///usr/share/doc/push-relay/#' \
    -e 's#^DynamicUser=yes$#User=push-relay\nGroup=push-relay#' \
    -e 's#^\# A throw-away user;.*#\# The system user push-relay (made at installation) owns the database in /var/lib/push-relay.#' \
    -e '/^LoadCredential=apns-key.p8:/c\
# The installed configuration has no APNs settings yet, so no key: with them, add this line in a\
# drop-in (systemctl edit push-relay; docs/operations.md, "Configure an app"):\
#   LoadCredential=apns-key.p8:/etc/push-relay/credentials/apns-key.p8'
} > "$root/lib/systemd/system/push-relay.service"
chmod 0644 "$root/lib/systemd/system/push-relay.service"

install -m 0644 packaging/deb/push-relay.yaml "$root/etc/push-relay/push-relay.yaml"
scripts/install-docs.sh "$root/usr/share/doc/push-relay"
install -m 0755 packaging/deb/postinst packaging/deb/prerm packaging/deb/postrm "$root/DEBIAN/"
echo /etc/push-relay/push-relay.yaml > "$root/DEBIAN/conffiles"
(cd "$root" && find usr lib -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOT
Package: push-relay
Version: $version
Architecture: $arch
Maintainer: ${DEB_MAINTAINER:-PushRelay maintainers <push-relay@localhost>}
Installed-Size: $installed_size
Depends: $depends_line
Section: net
Priority: optional
Description: self-hosted push-notification relay (Sendbird-compatible webhooks to APNs)
 PushRelay takes Sendbird-style offline-message webhooks, applies each member's push
 preferences, do-not-disturb and templates, and delivers the notifications to Apple Push
 Notification service over HTTP/2. Apps register device tokens through a REST API compatible
 with the Sendbird Platform API. State lives in one SQLite file; runs as a systemd service.
EOT

mkdir -p "$output"
deb="$output/push-relay_${version}_${arch}.deb"
dpkg-deb --build --root-owner-group -Z"$compress" "$root" "$deb" >/dev/null
echo "$deb"
