package server

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"

	"bretter/internal/store"
)

// A browser has one identity cookie, a random token, and the store keeps
// the seats it holds against the token's hash. One cookie instead of one
// per game means a browser never loses its oldest seats to the cookie
// limit, and "my games" can list them. The store keeps each seat's secret
// sealed with a key derived from the token: a copy of the database alone
// gives nobody a seat.
const (
	browserCookie = "browser"
	browserBytes  = 32
	cookieAge     = 400 * 24 * 3600 // the longest a browser keeps a cookie
)

// holdingStore is what keeping seats against browsers needs of the store.
type holdingStore interface {
	Hold(ctx context.Context, browser []byte, h store.Holding) error
	Holding(ctx context.Context, browser []byte, gameID string) (store.Holding, error)
	Holdings(ctx context.Context, browser []byte, limit int) ([]store.Holding, error)
}

// browserToken is the identity the request's cookie carries, "" when it
// has none or a malformed one.
func browserToken(r *http.Request) string {
	c, err := r.Cookie(browserCookie)
	if err != nil {
		return ""
	}
	if b, err := base64.RawURLEncoding.DecodeString(c.Value); err != nil || len(b) != browserBytes {
		return ""
	}
	return c.Value
}

// browserID is what the store knows a browser by.
func browserID(token string) []byte {
	h := sha256.Sum256([]byte("browser\x00" + token))
	return h[:]
}

// sealer is the AEAD that seals a browser's secrets.
func sealer(token string) cipher.AEAD {
	key := sha256.Sum256([]byte("seal\x00" + token))
	block, err := aes.NewCipher(key[:])
	if err != nil {
		panic(err) // a 32-byte key is always valid
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return aead
}

// seal encrypts a seat's secret for a browser. The game's id is bound in,
// so a sealed secret moved to another game's row does not open.
func seal(token, gameID, secret string) []byte {
	aead := sealer(token)
	nonce := make([]byte, aead.NonceSize())
	rand.Read(nonce)
	return aead.Seal(nonce, nonce, []byte(secret), []byte(gameID))
}

func unseal(token, gameID string, sealed []byte) (string, bool) {
	aead := sealer(token)
	if len(sealed) < aead.NonceSize() {
		return "", false
	}
	plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], []byte(gameID))
	if err != nil {
		return "", false
	}
	return string(plain), true
}

// heldSecret is the secret of the seat this browser holds in a game, ""
// when it holds none there.
func (s *Server) heldSecret(r *http.Request, id string) string {
	token := browserToken(r)
	if token == "" {
		return ""
	}
	h, err := s.holdings.Holding(r.Context(), browserID(token), id)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.Error("reading a browser's seat", "game", id, "err", err)
		}
		return ""
	}
	secret, _ := unseal(token, id, h.Sealed)
	return secret
}

// holdSeat keeps a seat for this browser, replacing the one it held in
// that game, and gives the browser its identity when it has none.
func (s *Server) holdSeat(w http.ResponseWriter, r *http.Request, id, secret string) {
	s.keepSeat(w, r, s.identity(w, r), id, secret)
}

// identity is this browser's token; a browser without one is given one.
// The cookie is set again each time, so that it lives 400 days from the
// last seat taken.
func (s *Server) identity(w http.ResponseWriter, r *http.Request) string {
	token := browserToken(r)
	if token == "" {
		b := make([]byte, browserBytes)
		rand.Read(b)
		token = base64.RawURLEncoding.EncodeToString(b)
	}
	s.setCookie(w, r, browserCookie, token, cookieAge)
	return token
}

// keepSeat stores a seat against a browser's token. Should the store fail,
// the seat goes into a cookie of its own, as browsers kept seats before
// there were identities, so that it is never lost.
func (s *Server) keepSeat(w http.ResponseWriter, r *http.Request, token, id, secret string) {
	err := s.holdings.Hold(r.Context(), browserID(token), store.Holding{Game: id, Sealed: seal(token, id, secret), At: s.hub.now()})
	if err != nil {
		s.log.Error("keeping a browser's seat", "game", id, "err", err)
		s.setCookie(w, r, seatCookie(id), secret, cookieAge)
		return
	}
	if _, err := r.Cookie(seatCookie(id)); err == nil {
		s.setCookie(w, r, seatCookie(id), "", -1)
	}
}

// foldSeats moves the seats of per-game cookies, which browsers were
// given before they had an identity, into this browser's holdings. A seat
// the identity already holds in that game wins over the old cookie. It
// returns the browser's identity, "" when it has none.
//
// Only a cookie that holds a seat of its game is kept: anyone can send
// any cookie, and each kept one is a row in the store. The others are
// deleted, as is a cookie of a game no longer stored. The rest of a
// browser's old cookies are folded in on its next pages.
func (s *Server) foldSeats(w http.ResponseWriter, r *http.Request) string {
	const most = 20 // per request, so that one request stays cheap
	token := browserToken(r)
	n := 0
	for _, c := range r.Cookies() {
		id, ok := strings.CutPrefix(c.Name, "seat_")
		if !ok || !validID(id) || n == most {
			continue
		}
		n++
		seat, err := within(r.Context(), s.hub, id, func(g *liveGame) (string, error) {
			if !validSecret(c.Value) {
				return "", nil
			}
			return g.seatOf(c.Value), nil
		})
		if err != nil && !errors.Is(err, errNotFound) {
			continue // the store failed: the cookie waits for a later page
		}
		if seat == "" {
			s.setCookie(w, r, c.Name, "", -1)
			continue
		}
		if token == "" {
			token = s.identity(w, r)
		}
		if _, err := s.holdings.Holding(r.Context(), browserID(token), id); err == nil {
			s.setCookie(w, r, c.Name, "", -1)
			continue
		}
		s.keepSeat(w, r, token, id, c.Value)
	}
	return token
}

func seatCookie(id string) string { return "seat_" + id }

// setCookie sets (maxAge < 0: deletes) one of the site's cookies: out of
// scripts' reach, sent on links from other sites but never on their posts.
func (s *Server) setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name: name, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: secureRequest(r), SameSite: http.SameSiteLaxMode,
	})
}
