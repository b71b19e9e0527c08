package fakeapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// maxBody bounds what the fake reads of a request body.
const maxBody = 64 << 20

var models = []map[string]string{
	{"type": "model", "id": "claude-opus-5-5", "display_name": "Claude Opus 5.5", "created_at": "2026-01-01T00:00:00Z"},
	{"type": "model", "id": "claude-sonnet-4-5", "display_name": "Claude Sonnet 4.5", "created_at": "2025-09-29T00:00:00Z"},
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	req := &Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Host: r.Host,
		Header: r.Header.Clone(), RawBody: raw}
	json.Unmarshal(raw, &req.Body) // stays nil when not JSON
	s.record(req)
	w.Header().Set("request-id", fmt.Sprintf("req_fake_%04d", s.nextSeq()))
	switch {
	case r.Method == http.MethodConnect:
		// As a proxy sink: nothing leaves the machine.
		http.Error(w, "fakeapi: outbound connections are refused", http.StatusForbidden)
		s.finish(req, http.StatusForbidden, "connect", false)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.messages(w, r, req)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		writeJSON(w, http.StatusOK, map[string]int{"input_tokens": inputTokens(parseBody(raw))})
		s.finish(req, http.StatusOK, "count_tokens", false)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		writeJSON(w, http.StatusOK, map[string]any{"data": models, "has_more": false,
			"first_id": models[0]["id"], "last_id": models[len(models)-1]["id"]})
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

// inputTokens is a plausible count: the CLI only adds it up.
func inputTokens(body messagesBody) int { return 2500 + 50*len(body.Messages) }

func (s *Server) messages(w http.ResponseWriter, r *http.Request, req *Request) {
	body := parseBody(req.RawBody)
	p := s.decide(body)
	if last, _ := lastUser(body.Messages); rateLimitHeaders(w, r, last.Text()) {
		p = rateLimitedPlan()
	}
	if p.status != http.StatusOK {
		writeJSON(w, p.status, map[string]any{"type": "error",
			"error": map[string]string{"type": p.errType, "message": p.errMsg}})
		s.finish(req, p.status, p.kind, false)
		return
	}
	model := body.Model
	if model == "" {
		model = "claude-opus-5-5"
	}
	if !body.Stream {
		writeJSON(w, http.StatusOK, s.wholeMessage(p, model, inputTokens(body)))
		s.finish(req, http.StatusOK, p.kind, false)
		return
	}
	err := s.stream(w, r, p, model, inputTokens(body))
	s.finish(req, http.StatusOK, p.kind, err != nil)
}

// wholeMessage is the non-streaming answer: the complete message object.
func (s *Server) wholeMessage(p plan, model string, in int) map[string]any {
	var content []any
	for _, b := range p.blocks {
		content = append(content, s.fullBlock(b))
	}
	return map[string]any{
		"id": fmt.Sprintf("msg_fake_%04d", s.nextSeq()), "type": "message", "role": "assistant",
		"model": model, "content": content, "stop_reason": p.stop, "stop_sequence": nil,
		"usage": usage(in, 20),
	}
}

func (s *Server) fullBlock(b block) map[string]any {
	switch b.Type {
	case "thinking":
		return map[string]any{"type": "thinking", "thinking": b.Text, "signature": signature}
	case "tool_use":
		return map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_fake_%04d", s.nextSeq()),
			"name": b.ToolName, "input": b.Input}
	}
	return map[string]any{"type": "text", "text": b.Text}
}

const signature = "fakesig_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

func usage(in, out int) map[string]int {
	return map[string]int{"input_tokens": in, "output_tokens": out,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
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
