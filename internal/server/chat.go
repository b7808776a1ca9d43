package server

import (
	"context"
	"net/http"

	"bretter/game"
	"bretter/internal/store"
)

// Chat between the two players of a game. It is kept with the game but
// apart from its events, and goes only to the players' pages: watchers
// never see it.

// errNoChat refuses a line that nobody would read: the computer does not
// chat, and its player's page has no chat.
var errNoChat = refuse(http.StatusConflict, "no_chat", "a game against the computer has no chat")

// maxChat is the longest chat line, in characters.
const maxChat = 500

// cleanChat trims a chat line and checks it.
func cleanChat(text string) (string, error) {
	line := game.Word{Key: "why.line.chat", Text: "a chat line"}
	text, err := cleanLine(line, text, maxChat)
	if err == nil && text == "" {
		err = badLine(game.Because("why.line.empty", "{what} needs some text", "what", line))
	}
	return text, err
}

// say stores a chat line from the holder of secret and sends it to both
// players' pages.
func (h *hub) say(ctx context.Context, id, secret, text string) (store.ChatLine, error) {
	text, err := cleanChat(text)
	if err != nil {
		return store.ChatLine{}, err
	}
	return within(ctx, h, id, func(g *liveGame) (store.ChatLine, error) {
		seat, err := g.seat(secret)
		if err != nil {
			return store.ChatLine{}, err
		}
		if g.rec.Computer != "" {
			return store.ChatLine{}, errNoChat
		}
		// At the store's precision: the line read back later, after a
		// restart or on another instance, has the same time.
		line, err := h.store.Say(ctx, g.rec.ID, store.ChatLine{Seat: seat, Text: text, At: storedTime(h.now())})
		if err != nil {
			return store.ChatLine{}, err
		}
		g.chat = append(g.chat, line)
		h.broadcastChat(g, line)
		h.publish(g, busMessage{Kind: "chat", Line: &line})
		return line, nil
	})
}

// broadcastChat sends a chat line to the players' pages.
func (h *hub) broadcastChat(g *liveGame, line store.ChatLine) {
	h.broadcast(g, func(seat string) any {
		if seat == "" {
			return nil
		}
		return map[string]any{"type": "chat", "line": line}
	})
}

func (s *Server) apiChat(w http.ResponseWriter, r *http.Request) {
	if !s.chats.allow(clientKey(r), s.hub.now()) {
		writeError(w, refuse(http.StatusTooManyRequests, "rate", "too many chat lines from your address: slow down"))
		return
	}
	var req struct {
		Text string `json:"text"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	line, err := s.hub.say(r.Context(), id, s.secret(r, id), req.Text)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, line)
}
