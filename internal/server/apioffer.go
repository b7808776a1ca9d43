package server

import (
	"net/http"
)

// offerRequest is the body of POST /api/games/{id}/offer. It has no
// "accept": an offer sent with one is refused, not taken as an answer.
type offerRequest struct {
	Kind string `json:"kind"`
}

// answerRequest is the body of POST /api/games/{id}/answer.
type answerRequest struct {
	Kind   string `json:"kind"`
	Accept *bool  `json:"accept"`
}

func (s *Server) apiOffer(w http.ResponseWriter, r *http.Request) {
	var req offerRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	version, err := s.hub.offer(r.Context(), id, s.secret(r, id), req.Kind)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"version": version})
}

func (s *Server) apiAnswer(w http.ResponseWriter, r *http.Request) {
	var req answerRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Accept == nil || req.Kind == "" {
		writeError(w, refuse(http.StatusBadRequest, "bad_request", `an answer needs "kind" and "accept"`))
		return
	}
	id := r.PathValue("id")
	version, err := s.hub.answer(r.Context(), id, s.secret(r, id), req.Kind, *req.Accept)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"version": version})
}
