// Package fakeopenai is a fake OpenAI Responses API for tests that run the
// real Codex CLI (agents.md §C). It listens on 127.0.0.1 only, logs every
// request, and streams replies chosen by keywords in the prompt (see
// Server). It also serves as the CLI's HTTP(S) proxy, refusing and logging
// every CONNECT, so a stray outbound attempt fails here, visibly.
package fakeopenai

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Server is a running fake API. Its methods may be called concurrently.
//
// A POST /v1/responses request is answered by the first rule that applies:
//
//   - The input ends with function_call_output items (the CLI ran a tool):
//     the text "Tool finished. Output: '<output>'", <output> being what
//     the command printed (the part after the CLI's "Output:" line); an
//     output holding HoldNext: response.created, then nothing until the
//     client leaves.
//   - A restored allow (RestoredAllow and a tool's JSON input): that tool
//     again (reply_restored.go).
//   - The prompt (the text of the last user message that is not the CLI's
//     own <environment_context>…) decides, by whole, case-insensitive words:
//     "error500": HTTP 500; "error400": HTTP 400; "down": the connection is
//     closed without an answer (the CLI retries it for ever: an API that
//     cannot be reached); "hang": response.created, then nothing until the
//     client leaves; "tool:<name>" or "tool:<name> {json}": a function call
//     of <name> (a client's dynamic tool) with that JSON object as its
//     arguments ({} without), "tool:<ns>/<name>" the same in namespace
//     <ns> (an MCP server's tool: mcp__<server>/<tool>); "bash:<cmd>": an exec_command function call running
//     <cmd> (the rest of the line); "patch:<file>": an exec_command call of
//     apply_patch adding <file> (one line, "hello"), which the CLI turns
//     into a file change; "edit:<file>": the same, changing that line to
//     "hello world"; "slow": SlowChunks text deltas SlowDelay apart;
//     "think": a reasoning item with a summary, then the echo text;
//     "flood": FloodItems short messages ("flood 00001 …"), one output item
//     each, as fast as they can go (load tests).
//   - Anything else: "Echo: <prompt> (N input items, M images)".
//
// Every reply ends with response.completed carrying usage: input_tokens
// 100 (of which 20 cached), output_tokens 10, total_tokens 110.
type Server struct {
	// SlowChunks and SlowDelay shape the "slow" reply (default 50 and
	// 100 ms). Set them before the first request.
	SlowChunks int
	SlowDelay  time.Duration
	// FloodItems is how many messages the "flood" reply has (default
	// 1000). Set it before the first request.
	FloodItems int

	srv      *http.Server
	addr     string        // 127.0.0.1:port, kept while down
	quit     chan struct{} // closed by Close: end slow and hanging streams now
	serving  sync.WaitGroup
	handlers sync.WaitGroup

	mu          sync.Mutex
	ln          net.Listener // nil while down
	conns       map[net.Conn]struct{}
	closing     bool
	log         []*Request
	disconnects int
	seq         int // for ids: resp_fake_0001, msg_fake_0002, call_fake_0003
}

// Start starts a fake API on 127.0.0.1 on a free port. Close it when done.
// It fails only when the machine has no loopback to listen on.
func Start() *Server {
	s := &Server{SlowChunks: 50, SlowDelay: 100 * time.Millisecond, FloodItems: 1000, quit: make(chan struct{}),
		conns: map[net.Conn]struct{}{}}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serveHTTP), ConnState: s.track}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("fakeopenai: listen on loopback: %v", err))
	}
	s.addr = ln.Addr().String()
	s.serve(ln)
	return s
}

// New starts a fake API that tb's cleanup closes.
func New(tb testing.TB) *Server {
	s := Start()
	tb.Cleanup(s.Close)
	return s
}

func (s *Server) serve(ln net.Listener) {
	s.mu.Lock()
	s.ln = ln
	s.mu.Unlock()
	s.serving.Go(func() { s.srv.Serve(ln) })
}

// track keeps the open connections, for SetDown.
func (s *Server) track(c net.Conn, st http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch st {
	case http.StateNew:
		s.conns[c] = struct{}{}
	case http.StateClosed, http.StateHijacked:
		delete(s.conns, c)
	}
}

// URL is the server's address, e.g. http://127.0.0.1:41234: the proxy
// variables point here.
func (s *Server) URL() string { return "http://" + s.addr }

// BaseURL is the Responses API's base, URL()+"/v1": a model provider's
// base_url.
func (s *Server) BaseURL() string { return s.URL() + "/v1" }

// Close ends running streams and stops the server, waiting for its
// handlers. It is idempotent.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return
	}
	s.closing = true
	s.mu.Unlock()
	close(s.quit)
	s.srv.Close()
	s.serving.Wait()
	s.handlers.Wait()
}

// SetDown takes the API down (true) or brings it back on the same port
// (false). While it is down nothing listens there, so connections are
// refused, and the open ones are closed now: the CLI then retries for
// ever ("Reconnecting... waiting for network", agents.md §C).
func (s *Server) SetDown(down bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return errors.New("fakeopenai: closed")
	case down && s.ln != nil:
		s.ln.Close()
		s.ln = nil
		for c := range s.conns {
			c.Close()
		}
	case !down && s.ln == nil:
		ln, err := net.Listen("tcp", s.addr)
		if err != nil {
			return fmt.Errorf("fakeopenai: listen again on %s: %w", s.addr, err)
		}
		s.ln = ln
		s.serving.Go(func() { s.srv.Serve(ln) })
	}
	return nil
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
