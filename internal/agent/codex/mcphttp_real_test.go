package codex

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// httpMCP is an MCP server over streamable HTTP for the tests: JSON-RPC
// POSTs answered with JSON (toolbridge's host, with one tool, ping), and
// the Authorization header of every request kept.
type httpMCP struct {
	srv  *httptest.Server
	mu   sync.Mutex
	auth []string
}

func newHTTPMCP(t *testing.T) *httpMCP {
	t.Helper()
	reg := toolbridge.New(toolbridge.Options{})
	p := reg.Connect("test")
	t.Cleanup(p.Close)
	if _, err := p.Register(toolbridge.AllScopes, []toolbridge.Tool{{Name: "ping", Description: "Answers pong."}}); err != nil {
		t.Fatal(err)
	}
	host := toolbridge.NewHost(reg, toolbridge.HostOptions{Scope: "http", Name: "web", Version: "1"})
	t.Cleanup(host.Close)
	m := &httpMCP{}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.auth = append(m.auth, r.Header.Get("Authorization"))
		m.mu.Unlock()
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var head struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(body, &head) != nil || len(head.ID) == 0 {
			host.Handle(body, func([]byte) {})
			w.WriteHeader(http.StatusAccepted)
			return
		}
		reply := make(chan []byte, 1)
		host.Handle(body, func(b []byte) { reply <- b })
		select {
		case b := <-reply:
			w.Header().Set("Content-Type", "application/json")
			w.Write(b)
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(m.srv.Close)
	return m
}

func (m *httpMCP) headers() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.auth)
}

// TestRealMCPServerHTTP: a session's HTTP MCP server is reached with its
// headers, which are on no command line, and listed with its tool.
func TestRealMCPServerHTTP(t *testing.T) {
	m := newHTTPMCP(t)
	h := newHarness(t, "")
	const secret = "Bearer sekrit-header-77"
	// The harness's proxy is the fake API: loopback goes direct.
	cfg := ThreadConfig([]agent.MCPServer{{Name: "web", Type: "http", URL: m.srv.URL + "/mcp",
		Headers: map[string]string{"Authorization": secret}}}, nil, nil, nil)
	s, _ := h.open(SessionOptions{Config: cfg})
	ctx, cancel := context.WithTimeout(t.Context(), callTimeout)
	defer cancel()
	list, err := s.MCPStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Status != "connected" || !slices.Equal(list[0].Tools, []string{"ping"}) {
		t.Fatalf("status %+v", list)
	}
	got := m.headers()
	if len(got) == 0 || !slices.Contains(got, secret) {
		t.Fatalf("the server saw Authorization %q", got)
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(s.Ident().Pid) + "/cmdline")
	if err != nil || strings.Contains(string(cmdline), "sekrit") {
		t.Fatalf("the command line %q (%v) holds the secret", cmdline, err)
	}
}
