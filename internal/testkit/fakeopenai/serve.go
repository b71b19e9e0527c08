package fakeopenai

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// maxBody bounds what the fake reads of a request body.
const maxBody = 64 << 20

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return
	}
	s.handlers.Add(1) // under mu: Close waits only once no handler can start
	s.mu.Unlock()
	defer s.handlers.Done()
	raw, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	req := &Request{Method: r.Method, Path: r.URL.Path, Host: r.Host, Header: r.Header.Clone(), RawBody: raw}
	json.Unmarshal(raw, &req.Body) // stays nil when not JSON
	s.record(req)
	w.Header().Set("x-request-id", fmt.Sprintf("req_fake_%04d", s.nextSeq()))
	switch {
	case r.Method == http.MethodConnect:
		// As a proxy sink: nothing leaves the machine.
		http.Error(w, "fakeopenai: outbound connections are refused", http.StatusForbidden)
		s.finish(req, http.StatusForbidden, "connect", false)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/responses":
		s.responses(w, r, req)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": "gpt-fake", "object": "model", "created": 0, "owned_by": "fake"}}})
		s.finish(req, http.StatusOK, "models", false)
	default:
		writeJSON(w, http.StatusOK, map[string]any{})
		s.finish(req, http.StatusOK, "other", false)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (s *Server) responses(w http.ResponseWriter, r *http.Request, req *Request) {
	body := parseBody(req.RawBody)
	p := s.decide(body)
	switch {
	case p.down:
		hangUp(w)
		s.finish(req, 0, p.kind, false)
		return
	case p.status != http.StatusOK:
		writeJSON(w, p.status, map[string]any{"error": map[string]any{
			"type": "server_error", "message": p.errMsg, "code": nil, "param": nil}})
		s.finish(req, p.status, p.kind, false)
		return
	}
	model := body.Model
	if model == "" {
		model = "gpt-fake"
	}
	err := s.stream(w, r, p, model)
	s.finish(req, http.StatusOK, p.kind, err != nil)
}

// hangUp closes the connection without an answer, as an API that cannot
// be reached: the client sees the connection fail.
func hangUp(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // net/http closes the connection
	}
	conn.Close()
}

// pause waits d, or reports false when the client went away or the server
// is closing.
func (s *Server) pause(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.quit:
	}
	return false
}

// wait blocks until the client leaves or the server closes.
func (s *Server) wait(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-s.quit:
	}
}
