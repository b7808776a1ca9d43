// Package pgtest gives each test a PostgreSQL schema of its own on the
// test machine's server, so that tests of the PostgreSQL store run side by
// side and leave nothing behind.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultURL is the server tests use unless BRETTER_TEST_POSTGRES names
// another.
const DefaultURL = "postgres://root@127.0.0.1:5432/test?sslmode=disable"

// URL creates an empty schema with a random name and returns the address
// of the test server with that schema first on the search path. The
// schema is dropped when t ends. A server that cannot be reached fails t:
// the PostgreSQL store is never left untested.
func URL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("BRETTER_TEST_POSTGRES")
	if base == "" {
		base = DefaultURL
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("BRETTER_TEST_POSTGRES: %v", err)
	}
	b := make([]byte, 8)
	rand.Read(b)
	schema := "test_" + hex.EncodeToString(b)
	exec(t, base, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { exec(t, base, "DROP SCHEMA "+schema+" CASCADE") })
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func exec(t testing.TB, url, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("PostgreSQL for the tests (BRETTER_TEST_POSTGRES, scripts/test.sh starts one): %v", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}
