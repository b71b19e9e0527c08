package usage_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/internal/usage"
)

// oauthEnv is fakeapi's clean CLI environment with the fake subscription
// token in place of the API key: the CLI reads the limiter's headers
// only for a subscription login.
func oauthEnv(api *fakeapi.Server, home string) []string {
	var env []string
	for _, kv := range api.ClaudeEnv(home) {
		if !strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			env = append(env, kv)
		}
	}
	return append(env, "CLAUDE_CODE_OAUTH_TOKEN="+fakeapi.FakeOAuthToken)
}

// runOneShot runs `claude -p` with prompt and returns its stdout lines.
func runOneShot(t *testing.T, bin string, env []string, prompt string) [][]byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute) // a failure guard only
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-p", "--output-format", "stream-json", "--verbose", "--", prompt)
	cmd.Env, cmd.Dir = env, t.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run() // a refused turn exits 1; its lines are what matters
	var lines [][]byte
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		lines = append(lines, bytes.Clone(sc.Bytes()))
	}
	if len(lines) == 0 {
		t.Fatalf("no output; stderr: %s", errb.String())
	}
	return lines
}

// The recordings in testdata: the CLI's whole stdout for a prompt, and
// the rate-limit state it must produce. AGENTDESK_RECORD=1 rewrites them.
var recordings = []struct {
	file, prompt string
	want         usage.RateLimit
}{
	{"ratelimit_nearlimit.jsonl", "nearlimit please", usage.RateLimit{
		Status: "allowed_warning", Type: "five_hour", Utilization: ptr(0.92)}},
	{"ratelimit_overlimit.jsonl", "overlimit please", usage.RateLimit{
		Status: "rejected", Type: "five_hour"}},
}

func ptr(f float64) *float64 { return &f }

// TestRealCLIRateLimitEvent runs the pinned CLI with a fake subscription
// token against the fake API's limiter headers, and checks the
// rate_limit_event line it prints against the recording.
func TestRealCLIRateLimitEvent(t *testing.T) {
	bin := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, rec := range recordings {
		lines := runOneShot(t, bin, oauthEnv(api, home), rec.prompt)
		got := eventIn(t, lines)
		if os.Getenv("AGENTDESK_RECORD") == "1" {
			writeRecording(t, rec.file, lines)
		}
		want := rec.want
		want.ResetsAt = fakeapi.RateLimitReset.Unix()
		checkState(t, rec.file+" (live)", got, want)
		checkState(t, rec.file+" (recorded)", eventIn(t, readLines(t, rec.file)), want)
	}
	for _, r := range api.MessageRequests() {
		if r.Header.Get("Authorization") != "Bearer "+fakeapi.FakeOAuthToken || r.Header.Get("X-Api-Key") != "" {
			t.Errorf("request sent auth %q, x-api-key %q: want the bearer token only",
				r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"))
		}
	}
}

func eventIn(t *testing.T, lines [][]byte) usage.RateLimit {
	t.Helper()
	for _, l := range lines {
		if rl, ok := usage.ParseRateLimit(l); ok {
			return rl
		}
	}
	t.Fatalf("no rate_limit_event line among %d lines", len(lines))
	return usage.RateLimit{}
}

func checkState(t *testing.T, what string, got, want usage.RateLimit) {
	t.Helper()
	got.Raw = nil
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Errorf("%s: state %s, want %s", what, g, w)
	}
}

func writeRecording(t *testing.T, name string, lines [][]byte) {
	t.Helper()
	data := append(bytes.Join(lines, []byte("\n")), '\n')
	if err := os.WriteFile(filepath.Join("testdata", name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readLines(t *testing.T, name string) [][]byte { return readLinesF(t, name) }

func readLinesF(t testing.TB, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSpace(data), []byte("\n"))
}
