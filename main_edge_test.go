package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTokenFlagWarns: --token still works, and the log says that it shows
// in the process list and what to use instead, without printing the token.
func TestTokenFlagWarns(t *testing.T) {
	const token = "00112233445566778899aabbccddeeff"
	p := start(t, t.TempDir(), "--token", token)
	if p.token != token {
		t.Fatalf("start-up token %q, want the --token one", p.token)
	}
	if code, _ := p.api(t, "GET", "/api/sessions", ""); code != 200 {
		t.Fatalf("--token does not authenticate: %d", code)
	}
	p.stop(t, syscall.SIGTERM)
	log := p.stderr.String()
	if !strings.Contains(log, "--token shows the token in the process list") || !strings.Contains(log, "AGENTDESK_TOKEN") {
		t.Fatalf("no warning about --token in the log:\n%s", log)
	}
	if strings.Contains(log, token) {
		t.Fatalf("the warning prints the token:\n%s", log)
	}
	// The environment variable is the quiet way.
	p2 := startVia(t, []string{"env", "AGENTDESK_TOKEN=" + token}, t.TempDir())
	p2.stop(t, syscall.SIGTERM)
	if p2.token != token || strings.Contains(p2.stderr.String(), "--token") {
		t.Fatalf("AGENTDESK_TOKEN: token %q, log:\n%s", p2.token, p2.stderr)
	}
}

// TestLooseDataDirIsMadePrivate: a data dir that other users can read is
// tightened to 0700 at start, and the log says so.
func TestLooseDataDirIsMadePrivate(t *testing.T) {
	data := t.TempDir()
	if err := os.Chmod(data, 0o755); err != nil {
		t.Fatal(err)
	}
	p := start(t, data)
	p.stop(t, syscall.SIGTERM)
	fi, err := os.Stat(data)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Fatalf("data dir mode %#o after start, want 0700", fi.Mode().Perm())
	}
	if !strings.Contains(p.stderr.String(), "made the data dir private") {
		t.Fatalf("the log does not say the mode changed:\n%s", p.stderr)
	}
}

// TestPublicURLStartupLine: --public-url is the address printed at start.
func TestPublicURLStartupLine(t *testing.T) {
	p := startVia(t, []string{"env", "AGENTDESK_PUBLIC_URL=https://desk.example.com"}, t.TempDir())
	p.stop(t, syscall.SIGTERM)
	if p.base != "https://desk.example.com" {
		t.Fatalf("start-up line %q, want the public URL", p.url)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, "--addr", "127.0.0.1:0", "--data-dir", t.TempDir(), "--public-url", "https://desk.example.com/app")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "must look like https://host") {
		t.Fatalf("a public URL with a path: err=%v, %s", err, out)
	}
}

// TestIdleFloodLeavesRoomForTheToken: with 200 file descriptors, 400
// connections that send one request and then idle do not keep the token
// holder out: the cap on unauthenticated connections closes the oldest.
func TestIdleFloodLeavesRoomForTheToken(t *testing.T) {
	p := startVia(t, []string{"sh", "-c", `ulimit -n 200 && exec "$@"`, "sh"}, t.TempDir())
	defer p.stop(t, syscall.SIGTERM)
	addr := strings.TrimPrefix(p.base, "http://")
	for range 400 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, _ = io.WriteString(c, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	}
	req, _ := http.NewRequest("GET", p.base+"/api/sessions", nil)
	req.Header.Set("Authorization", "Bearer "+p.token)
	// The timeout guards a failure: without the cap the request waits
	// behind the idle connections until they time out.
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("token holder locked out: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("token holder: %d", res.StatusCode)
	}
}

// TestSoftFDLimitIsRaised: started with a low soft limit on open files,
// the server runs with the hard limit (the Go runtime raises it, to one
// below the hard limit).
func TestSoftFDLimitIsRaised(t *testing.T) {
	p := startVia(t, []string{"sh", "-c", `ulimit -S -n 256 && exec "$@"`, "sh"}, t.TempDir())
	defer p.stop(t, syscall.SIGTERM)
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/limits")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(strings.TrimPrefix(l, "Max open files")); len(f) >= 2 && strings.HasPrefix(l, "Max open files") {
			soft, _ := strconv.Atoi(f[0])
			hard, _ := strconv.Atoi(f[1])
			if hard > 256 && soft < hard-1 {
				t.Fatalf("soft limit %d, hard %d: not raised", soft, hard)
			}
			if hard <= 257 {
				t.Fatalf("hard limit %d: this machine cannot show the raise", hard)
			}
			return
		}
	}
	t.Fatalf("no open-files line in:\n%s", b)
}
