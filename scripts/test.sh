#!/usr/bin/env bash
# Runs every test of bretter on a fresh Debian machine: installs what the
# browser tests need, then checks formatting, vets and tests all packages.
# Extra arguments go to `go test` (for example -count=1 or -run Havannah).
set -euo pipefail

cd "$(dirname "$0")/.."

if ! command -v go >/dev/null; then
	echo "test.sh: go is not on PATH; install the Go version named in go.mod" >&2
	exit 1
fi

# The web flow is tested in Debian's Chromium; install it only when missing so
# that repeated runs need no network.
if [ ! -x /usr/bin/chromium ]; then
	echo "test.sh: installing chromium" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	apt-get install -y --no-install-recommends chromium
fi

echo "test.sh: gofmt" >&2
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "test.sh: these files need gofmt:" >&2
	echo "$unformatted" >&2
	exit 1
fi

echo "test.sh: go vet" >&2
go vet ./...

echo "test.sh: go test" >&2
go test -timeout 15m "$@" ./...
