// Package fakeapi is a fake Anthropic Messages API for tests that run the
// real Claude Code CLI (or anything else that speaks the API). It listens on
// 127.0.0.1 only, logs every request, and answers per claude-cli.md §12:
// the reply is chosen from the last role:"user" message by keyword (see
// Server). It also serves as the CLI's HTTP(S) proxy, refusing and logging
// every CONNECT so a stray outbound attempt fails locally and visibly.
package fakeapi

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Server is a running fake API. Its methods may be called concurrently.
//
// Replies, by the text of the last role:"user" message (after stripping
// <system-reminder> blocks), checked in this order:
//
//   - "tools:<name>" in the turn's prompt (the last user message with text
//     and no tool results): the next step of a scripted tool sequence
//     (reply_tools.go), one reply per request of the turn: "todo" (TodoWrite,
//     a Bash call asking permission, TodoWrite all done), "edit" (Write
//     hello.py, then Edit it), "search" (Read hello.py), "image" (Read
//     pixel.png), "agent" (a Task whose subagent runs "sub": a Bash touch
//     that asks for permission).
//     When the steps are used up, the tool_result summary below.
//   - tool_result blocks: text "Tool finished. Results:\n- `Bash` (ok): '…'…".
//   - "error400": HTTP 400 invalid_request_error (the CLI retries it 5 times).
//   - "overloaded": HTTP 529 overloaded_error (set CLAUDE_CODE_MAX_RETRIES).
//   - "bash:<cmd>": a text block, then a Bash tool_use running <cmd> (the
//     rest of the line).
//   - "ask": an AskUserQuestion tool_use ("Which color do you prefer?",
//     Red or Blue).
//   - "slow": SlowChunks text_delta chunks SlowDelay apart; a client that
//     goes away is counted by Disconnects.
//   - "think": a thinking block, then the echo text.
//   - anything else: "Echo: <prompt> (request had N messages)".
//
// Keywords are whole words, case-insensitive. Requests with a json_schema
// output format get the smallest instance of the schema; requests without
// tools get the echo text. Non-streaming requests get the whole message.
type Server struct {
	// SlowChunks and SlowDelay shape the "slow" reply (default 50 and
	// 100 ms). Set them before the first request.
	SlowChunks int
	SlowDelay  time.Duration

	ts       *httptest.Server
	quit     chan struct{} // closed by Close: end slow streams now
	quitOnce sync.Once

	mu          sync.Mutex
	log         []*Request
	disconnects int
	seq         int // for ids: msg_fake_0001, toolu_fake_0002, req_fake_0003
}

// Start starts a fake API on 127.0.0.1 on a free port. Close it when done.
func Start() *Server {
	s := &Server{SlowChunks: 50, SlowDelay: 100 * time.Millisecond, quit: make(chan struct{})}
	// httptest listens on 127.0.0.1:0 (or [::1]:0 without IPv4).
	s.ts = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	return s
}

// New starts a fake API that tb's cleanup closes.
func New(tb testing.TB) *Server {
	s := Start()
	tb.Cleanup(s.Close)
	return s
}

// URL is the base URL, e.g. http://127.0.0.1:41234, for ANTHROPIC_BASE_URL
// and the proxy variables.
func (s *Server) URL() string { return s.ts.URL }

// Close ends running streams and stops the server, waiting for its
// handlers. It is idempotent.
func (s *Server) Close() {
	s.quitOnce.Do(func() {
		close(s.quit)
		s.ts.Close()
	})
}

// Requests returns a copy of the request log, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.log))
	for i, r := range s.log {
		out[i] = *r
	}
	return out
}

// MessageRequests returns the logged POST /v1/messages requests.
func (s *Server) MessageRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/messages" {
			out = append(out, r)
		}
	}
	return out
}

// Disconnects counts streams the client closed before they were complete.
func (s *Server) Disconnects() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.disconnects
}

func (s *Server) nextSeq() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return s.seq
}

// record logs r and returns the entry, to be completed with finish.
func (s *Server) record(r *Request) *Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, r)
	return r
}

// finish fills in how a logged request was answered.
func (s *Server) finish(r *Request, status int, reply string, disconnected bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.Status, r.Reply, r.Disconnected = status, reply, disconnected
	if disconnected {
		s.disconnects++
	}
}
