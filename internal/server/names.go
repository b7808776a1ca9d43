package server

import (
	"context"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"bretter/game"
	"bretter/internal/store"
)

// A player may give a name, without an account: an event "name" with the
// name as its Move, so that every page, a replay and the record agree.

// maxName is the longest name, in characters.
const maxName = 20

// cleanName trims a name and checks it: at most maxName characters, any
// script, one line, and not what a record calls the site's computer,
// which an import of the record would show as the computer. An empty
// name removes it.
func cleanName(name string) (string, error) {
	what := game.Word{Key: "why.line.name", Text: "a name"}
	name, err := cleanLine(what, name, maxName)
	if err != nil {
		return "", err
	}
	if computerLevel(name) > 0 {
		return "", badLine(game.Because("why.line.computer", "{what} cannot be what the site calls its computer", "what", what))
	}
	return name, nil
}

// cleanLine trims a line of text that people write for others to read
// and checks it: UTF-8, at most max characters, no control characters or
// line breaks, nothing that turns the writing round, and, unless empty,
// something to see. what is the line in the words of a refusal, which the
// person who wrote it reads in the page's language.
func cleanLine(what game.Word, text string, max int) (string, error) {
	text = strings.TrimSpace(text)
	switch {
	case !utf8.ValidString(text):
		return "", badLine(game.Because("why.line.not_text", "{what} must be text (UTF-8)", "what", what))
	case utf8.RuneCountInString(text) > max:
		return "", badLine(game.Because("why.line.too_long", "{what} has at most {max} characters", "what", what, "max", max))
	case strings.IndexFunc(text, func(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }) >= 0:
		return "", badLine(game.Because("why.line.control", "{what} cannot hold control characters or line breaks", "what", what))
	case strings.IndexFunc(text, turnsRound) >= 0:
		return "", badLine(game.Because("why.line.turns_round", "{what} cannot hold characters that change the direction of writing", "what", what))
	case text != "" && strings.IndexFunc(text, visible) < 0:
		return "", badLine(game.Because("why.line.invisible", "{what} must show something", "what", what))
	}
	return text, nil
}

// turnsRound reports whether r is an explicit embedding, override or
// isolate. A page can fence a name in, but a push notice or a record
// cannot, and there "\u202eBob" would turn the words after it round.
// The marks (U+200E, U+200F, U+061C) are left: right-to-left writers use
// them, and they turn nothing but the characters next to them.
func turnsRound(r rune) bool {
	return '\u202a' <= r && r <= '\u202e' || '\u2066' <= r && r <= '\u2069'
}

// visible reports whether r shows anything. Format characters such as
// the zero-width space and joiners, variation selectors and the fillers
// that draw nothing (the blank Braille pattern among them, which no
// property names) are only invisible; they may sit in a name, since
// emoji and some scripts need them, but not make one up.
func visible(r rune) bool {
	return !unicode.IsSpace(r) && r != '\u2800' && !unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// badLine refuses a line that a person wrote, for why.
func badLine(why game.Reason) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "bad_request", Message: why.String(), Cause: game.Refuse(why)}
}

// rename gives the holder of secret a name and returns the game's new
// version.
func (h *hub) rename(ctx context.Context, id, secret, name string) (int, error) {
	name, err := cleanName(name)
	if err != nil {
		return 0, err
	}
	return within(ctx, h, id, func(g *liveGame) (int, error) {
		seat, err := g.seat(secret)
		if err != nil {
			return 0, err
		}
		if g.names[seatIndex(seat)] == name {
			return len(g.events), nil
		}
		e := store.Event{Kind: "name", Seat: seat, Move: name}
		if g.rec.Status == "over" {
			// For the record: it ends nothing, and nobody's turn comes.
			return h.commitAfterEnd(ctx, g, e)
		}
		return h.commit(ctx, g, step{e, g.state})
	})
}

func (s *Server) apiName(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name *string `json:"name"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Name == nil {
		writeError(w, refuse(http.StatusBadRequest, "bad_request", `give a "name" (empty to remove it)`))
		return
	}
	id := r.PathValue("id")
	version, err := s.hub.rename(r.Context(), id, s.secret(r, id), *req.Name)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"version": version})
}
