package fakeapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
)

func TestSlowDisconnect(t *testing.T) {
	s := fakeapi.New(t)
	s.SlowDelay = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	b, _ := json.Marshal(map[string]any{"stream": true, "tools": someTools, "messages": []any{userMsg("be slow")}})
	req, _ := http.NewRequestWithContext(ctx, "POST", s.URL()+"/v1/messages", bytes.NewReader(b))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && !strings.Contains(sc.Text(), "slow chunk 01") {
	}
	cancel()
	resp.Body.Close()
	deadline := time.Now().Add(2 * time.Minute)
	for s.Disconnects() != 1 {
		if time.Now().After(deadline) {
			t.Fatal("disconnect not recorded")
		}
		time.Sleep(10 * time.Millisecond)
	}
	reqs := s.MessageRequests()
	if len(reqs) != 1 || !reqs[0].Disconnected || reqs[0].Reply != "slow" {
		t.Fatalf("log: %+v", reqs)
	}
}

// TestSlowComplete streams every chunk when the client stays.
func TestSlowComplete(t *testing.T) {
	s := fakeapi.New(t)
	s.SlowChunks, s.SlowDelay = 5, time.Millisecond
	r := post(t, s, map[string]any{"stream": true, "tools": someTools, "messages": []any{userMsg("slow")}})
	if r.text[0] != "slow chunk 00. slow chunk 01. slow chunk 02. slow chunk 03. slow chunk 04. " || s.Disconnects() != 0 {
		t.Fatalf("text %q, disconnects %d", r.text[0], s.Disconnects())
	}
}

func TestOtherEndpoints(t *testing.T) {
	s := fakeapi.New(t)
	tests := []struct{ method, path, want string }{
		{"POST", "/v1/messages/count_tokens", `"input_tokens":`},
		{"GET", "/v1/models", `"has_more":false`},
		{"GET", "/v1/whatever", `{}`},
	}
	for _, tt := range tests {
		req, _ := http.NewRequestWithContext(t.Context(), tt.method, s.URL()+tt.path, strings.NewReader(`{"messages":[]}`))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), tt.want) {
			t.Errorf("%s %s = %d %s", tt.method, tt.path, resp.StatusCode, body)
		}
	}
	// A proxied HTTPS attempt is refused and logged.
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "CONNECT api.anthropic.com:443 HTTP/1.1\r\nHost: api.anthropic.com:443\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("CONNECT = %d", resp.StatusCode)
	}
	reqs := s.Requests()
	last := reqs[len(reqs)-1]
	if len(reqs) != 4 || last.Method != "CONNECT" || last.Host != "api.anthropic.com:443" || last.Status != 403 {
		t.Errorf("log: %+v", last)
	}
}

func TestRequestLog(t *testing.T) {
	s := fakeapi.New(t)
	post(t, s, map[string]any{"model": "claude-x", "stream": true, "tools": someTools, "messages": []any{
		userMsg([]any{map[string]any{"type": "text", "text": "<system-reminder>r</system-reminder>"},
			map[string]any{"type": "text", "text": "first"}}),
		map[string]any{"role": "system", "content": "env"},
	}})
	reqs := s.MessageRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Query != "beta=true" || r.SessionID() != "sid-1" || r.Model() != "claude-x" || r.Status != 200 ||
		r.Reply != "echo" || strings.Join(r.Roles(), ",") != "user,system" || r.LastUserText() != "first" ||
		r.Body["stream"] != true {
		t.Fatalf("logged %+v", r)
	}
}

func TestClaudeEnv(t *testing.T) {
	t.Setenv("ANTHROPIC_MODEL", "leak")
	t.Setenv("CLAUDE_CODE_USE_BEDROCK", "1")
	s := fakeapi.New(t)
	env := map[string]string{}
	for _, kv := range s.ClaudeEnv("/h") {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	for k, v := range map[string]string{"HOME": "/h", "CLAUDE_CONFIG_DIR": "/h/.claude",
		"ANTHROPIC_API_KEY": "sk-fake", "ANTHROPIC_BASE_URL": s.URL(), "HTTPS_PROXY": s.URL(),
		"HTTP_PROXY": s.URL(), "NO_PROXY": "127.0.0.1,localhost", "CLAUDE_CODE_MAX_RETRIES": "1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1"} {
		if env[k] != v {
			t.Errorf("%s = %q, want %q", k, env[k], v)
		}
	}
	if _, ok := env["ANTHROPIC_MODEL"]; ok {
		t.Error("ANTHROPIC_MODEL leaked")
	}
	if _, ok := env["CLAUDE_CODE_USE_BEDROCK"]; ok {
		t.Error("CLAUDE_CODE_USE_BEDROCK leaked")
	}
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Errorf("URL %s is not on 127.0.0.1", s.URL())
	}
}

// TestCloseEndsSlowStream: Close does not wait for a 5 s stream.
func TestCloseEndsSlowStream(t *testing.T) {
	s := fakeapi.Start()
	b, _ := json.Marshal(map[string]any{"stream": true, "tools": someTools, "messages": []any{userMsg("slow")}})
	resp, err := http.Post(s.URL()+"/v1/messages", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	bufio.NewReader(resp.Body).ReadString('\n') // the stream is running
	s.Close()
	s.Close()
}
