package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
)

// newSecret returns 128 random bits, URL-safe. Seat secrets and invitation
// tokens are made this way.
func newSecret() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// newID returns a game id: 10 characters, 50 random bits, easy to read
// aloud (no 0/o, 1/l).
func newID() string {
	const alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
	b := make([]byte, 10)
	rand.Read(b)
	for i := range b {
		b[i] = alphabet[b[i]&31]
	}
	return string(b)
}

// inviteToken derives a game's invitation token from its creator's
// secret, so that it never needs storing: the creator's page can show it
// again at any time, and nobody without that secret can compute it.
func inviteToken(creatorSecret string) string {
	h := sha256.Sum256([]byte("invite\x00" + creatorSecret))
	return base64.RawURLEncoding.EncodeToString(h[:16])
}

// hashSecret is what the store keeps instead of a secret.
func hashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// matches compares a secret with a stored hash in constant time.
func matches(secret string, hash []byte) bool {
	if secret == "" || len(hash) == 0 {
		return false
	}
	return subtle.ConstantTimeCompare(hashSecret(secret), hash) == 1
}

// A join key is a random string a friend's browser makes once per
// invitation. The store keeps its hash, and the friend's secret sealed
// with it: joining again with the same key opens the same secret, and
// the store alone never yields it.

func validJoinKey(key string) bool {
	return len(key) >= 16 && len(key) <= 128 && urlSafe(key)
}

// validSecret says whether s has the form of a secret newSecret makes.
func validSecret(s string) bool {
	return len(s) == 22 && urlSafe(s)
}

// urlSafe says whether s is made of URL-safe base64's letters only.
func urlSafe(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func joinKeyHash(id, key string) []byte {
	h := sha256.Sum256([]byte("join key\x00" + id + "\x00" + key))
	return h[:]
}

// sameJoinKey compares a key with a stored hash in constant time.
func sameJoinKey(id, key string, hash []byte) bool {
	return len(hash) > 0 && subtle.ConstantTimeCompare(joinKeyHash(id, key), hash) == 1
}

// sealSecret hides secret with a pad derived from the game and key; each
// game seals one secret, so a pad is never used twice. openSecret undoes
// it.
func sealSecret(id, key, secret string) []byte { return joinPad(id, key, []byte(secret)) }

func openSecret(id, key string, sealed []byte) string { return string(joinPad(id, key, sealed)) }

// joinPad XORs b with the pad of id and key; what is longer than a pad
// (no secret is) comes out empty.
func joinPad(id, key string, b []byte) []byte {
	pad := sha256.Sum256([]byte("join seal\x00" + id + "\x00" + key))
	if len(b) > len(pad) {
		return nil
	}
	out := make([]byte, len(b))
	for i := range b {
		out[i] = b[i] ^ pad[i]
	}
	return out
}

// validID reports whether s could be a game id, so that junk never reaches
// the store.
func validID(s string) bool {
	if len(s) != 10 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '9') {
			return false
		}
	}
	return true
}
