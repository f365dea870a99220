#!/usr/bin/env bash
# Installs the documentation as the repository lays it out, so every relative link between the
# files works where they are installed (scripts/check-links.py passes over the installed tree):
#
#   DIR/README.md
#   DIR/docs/*.md, DIR/docs/console/*.png     operations.md (the unit's Documentation=), rest-api.md, …
#   DIR/openapi/push-relay.yaml               the REST API's contract
#   DIR/Config/push-relay.yaml                the example configuration, every key explained
#
#   scripts/install-docs.sh /usr/local/share/doc/push-relay     # from source (docs/operations.md)
#   scripts/install-docs.sh "$root/usr/share/doc/push-relay"    # scripts/package-deb.sh
set -euo pipefail

if [ $# -ne 1 ] || [ "${1#-}" != "$1" ]; then
  echo "usage: scripts/install-docs.sh DIR" >&2
  exit 2
fi
destination=$1
cd "$(dirname "$0")/.."

install -d -m 0755 "$destination" "$destination/docs" "$destination/docs/console" "$destination/openapi" "$destination/Config"
install -m 0644 README.md "$destination/"
install -m 0644 docs/*.md "$destination/docs/"
install -m 0644 docs/console/*.png "$destination/docs/console/"
# (openapi/push-relay.yaml is a link to the copy the relay serves; install copies the file.)
install -m 0644 openapi/push-relay.yaml "$destination/openapi/"
install -m 0644 Config/push-relay.yaml "$destination/Config/"
