// Package fakeopenai is a fake OpenAI Responses API for tests that run the
// real Codex CLI (agents.md §C). It listens on 127.0.0.1 only, logs every
// request, and streams replies chosen by keywords in the prompt (see
// Server). It also serves as the CLI's HTTP(S) proxy, refusing and logging
// every CONNECT, so a stray outbound attempt fails here, visibly.
package fakeopenai

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Server is a running fake API. Its methods may be called concurrently.
//
// A POST /v1/responses request is answered by the first rule that applies:
//
//   - The input ends with function_call_output items (the CLI ran a tool):
//     the text "Tool finished. Output: '<output>'", <output> being what
//     the command printed (the part after the CLI's "Output:" line).
//   - The prompt (the text of the last user message that is not the CLI's
//     own <environment_context>…) decides, by whole, case-insensitive words:
//     "error500": HTTP 500; "error400": HTTP 400; "down": the connection is
//     closed without an answer (the CLI retries it for ever: an API that
//     cannot be reached); "hang": response.created, then nothing until the
//     client leaves; "bash:<cmd>": an exec_command function call running
//     <cmd> (the rest of the line); "patch:<file>": an exec_command call of
//     apply_patch adding <file> (one line, "hello"), which the CLI turns
//     into a file change; "edit:<file>": the same, changing that line to
//     "hello world"; "slow": SlowChunks text deltas SlowDelay apart;
//     "think": a reasoning item with a summary, then the echo text.
//   - Anything else: "Echo: <prompt> (N input items, M images)".
//
// Every reply ends with response.completed carrying usage: input_tokens
// 100 (of which 20 cached), output_tokens 10, total_tokens 110.
type Server struct {
	// SlowChunks and SlowDelay shape the "slow" reply (default 50 and
	// 100 ms). Set them before the first request.
	SlowChunks int
	SlowDelay  time.Duration

	ts       *httptest.Server
	quit     chan struct{} // closed by Close: end slow and hanging streams now
	quitOnce sync.Once

	down atomic.Bool // SetDown: refuse every connection

	mu          sync.Mutex
	log         []*Request
	disconnects int
	seq         int // for ids: resp_fake_0001, msg_fake_0002, call_fake_0003
}

// Start starts a fake API on 127.0.0.1 on a free port. Close it when done.
func Start() *Server {
	s := &Server{SlowChunks: 50, SlowDelay: 100 * time.Millisecond, quit: make(chan struct{})}
	s.ts = httptest.NewUnstartedServer(http.HandlerFunc(s.serveHTTP))
	s.ts.Listener = refusing{Listener: s.ts.Listener, down: &s.down}
	s.ts.Start()
	return s
}

// New starts a fake API that tb's cleanup closes.
func New(tb testing.TB) *Server {
	s := Start()
	tb.Cleanup(s.Close)
	return s
}

// URL is the server's address, e.g. http://127.0.0.1:41234: the proxy
// variables point here.
func (s *Server) URL() string { return s.ts.URL }

// BaseURL is the Responses API's base, URL()+"/v1": a model provider's
// base_url.
func (s *Server) BaseURL() string { return s.ts.URL + "/v1" }

// Close ends running streams and stops the server, waiting for its
// handlers. It is idempotent.
func (s *Server) Close() {
	s.quitOnce.Do(func() {
		close(s.quit)
		s.ts.CloseClientConnections()
		s.ts.Close()
	})
}

// SetDown takes the API down (true) or brings it back: while it is down
// every new connection is closed as soon as it is accepted, and the open
// ones are closed now, so the client cannot send a request: the CLI then
// retries for ever ("Reconnecting... waiting for network", agents.md §C).
func (s *Server) SetDown(down bool) {
	s.down.Store(down)
	if down {
		s.ts.CloseClientConnections()
	}
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

// ResponseRequests returns the logged POST /v1/responses requests.
func (s *Server) ResponseRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/responses" {
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

func (s *Server) record(r *Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, r)
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
