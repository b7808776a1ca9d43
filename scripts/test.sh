#!/usr/bin/env bash
# Runs every test of bretter on a fresh Debian machine: installs and starts
# what the tests need (Chromium, PostgreSQL, NATS with JetStream) where it is
# missing, then checks formatting, vets and tests all packages.
# Extra arguments go to `go test` (for example -count=1 or -run Havannah).
#
# The tests reach PostgreSQL at $BRETTER_TEST_POSTGRES and NATS at
# $BRETTER_TEST_NATS. Left unset, they are the local defaults below, which
# this script provides; set, they are used as they are.
set -euo pipefail

cd "$(dirname "$0")/.."

if ! command -v go >/dev/null; then
	echo "test.sh: go is not on PATH; install the Go version named in go.mod" >&2
	exit 1
fi

# Debian packages are installed only when missing, so that repeated runs
# need no network.
apt_updated=
apt_install() {
	echo "test.sh: installing $*" >&2
	export DEBIAN_FRONTEND=noninteractive
	if [ -z "$apt_updated" ]; then
		apt-get update
		apt_updated=1
	fi
	apt-get install -y --no-install-recommends "$@"
}

# listening HOST PORT: whether something accepts connections there.
listening() {
	(exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

# await HOST PORT NAME: wait up to a minute for NAME to listen.
await() {
	for _ in $(seq 600); do
		if listening "$1" "$2"; then
			return 0
		fi
		sleep 0.1
	done
	echo "test.sh: $3 does not listen on $1:$2" >&2
	exit 1
}

# The web flow is tested in Debian's Chromium.
if [ ! -x /usr/bin/chromium ]; then
	apt_install chromium
fi

# The PostgreSQL store is tested on a local server: trust authentication on
# 127.0.0.1:5432, a superuser root and a database test. Each test makes a
# schema of its own there and drops it.
if [ -z "${BRETTER_TEST_POSTGRES:-}" ]; then
	export BRETTER_TEST_POSTGRES="postgres://root@127.0.0.1:5432/test?sslmode=disable"
	if ! listening 127.0.0.1 5432; then
		if ! command -v pg_lsclusters >/dev/null; then
			apt_install postgresql
		fi
		version=$(ls /usr/lib/postgresql | sort -n | tail -1)
		if ! pg_lsclusters -h | awk '$2 == "main"' | grep -q .; then
			pg_createcluster "$version" main -p 5432
		fi
		version=$(pg_lsclusters -h | awk '$2 == "main" {print $1; exit}')
		hba=/etc/postgresql/$version/main/pg_hba.conf
		if ! grep -q '^host all all 127.0.0.1/32 trust' "$hba"; then
			sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
		fi
		echo "test.sh: starting PostgreSQL $version" >&2
		pg_ctlcluster "$version" main start
		await 127.0.0.1 5432 PostgreSQL
		su postgres -c "psql -qAt -d postgres" <<-'SQL'
			SELECT 'CREATE ROLE root SUPERUSER LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'root') \gexec
			SELECT 'CREATE DATABASE root OWNER root' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'root') \gexec
			SELECT 'CREATE DATABASE test OWNER root' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'test') \gexec
		SQL
	fi
fi

# The bus between instances is tested on a local NATS server with
# JetStream, on 127.0.0.1:4222.
if [ -z "${BRETTER_TEST_NATS:-}" ]; then
	export BRETTER_TEST_NATS="nats://127.0.0.1:4222"
	if ! listening 127.0.0.1 4222; then
		if ! command -v nats-server >/dev/null; then
			apt_install nats-server
		fi
		echo "test.sh: starting nats-server" >&2
		mkdir -p /var/lib/nats-server
		nohup nats-server -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log >/dev/null 2>&1 &
		await 127.0.0.1 4222 nats-server
	fi
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
