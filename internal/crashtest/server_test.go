package crashtest

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// server is one run of the agentdesk binary.
type server struct {
	t      *testing.T
	cmd    *exec.Cmd
	base   string
	token  string
	stderr *lockedBuf
	done   chan struct{} // closed once the process was waited for
}

// lockedBuf is the server's stderr, written by exec's copier goroutine and
// read by the test.
type lockedBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var urlLine = regexp.MustCompile(`(http://[^/\s]+)/\?token=([0-9a-f]+)`)

// startServer runs agentdesk on a free loopback port with the fake CLI and
// waits for its start-up line. env adds variables (the fake CLI inherits
// them).
func startServer(t *testing.T, dataDir string, env ...string) *server {
	t.Helper()
	return startServerWith(t, dataDir, fakeCLI, env...)
}

// startServerWith is startServer with another claude CLI.
func startServerWith(t *testing.T, dataDir, cli string, env ...string) *server {
	t.Helper()
	cmd := exec.Command(binPath, "--addr", "127.0.0.1:0", "--data-dir", dataDir, "--claude", cli)
	cmd.Env = append(os.Environ(), "HOME="+dataDir, "SHELL=/bin/sh")
	cmd.Env = append(cmd.Env, env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, cmd: cmd, stderr: &lockedBuf{}, done: make(chan struct{})}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		defer close(s.done)
		r := bufio.NewReader(stdout)
		l, _ := r.ReadString('\n')
		lines <- l
		_, _ = io.Copy(io.Discard, r)
		_ = cmd.Wait()
	}()
	t.Cleanup(s.kill)
	select {
	case l := <-lines:
		m := urlLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("start-up line %q has no URL; stderr:\n%s", l, s.stderr)
		}
		s.base, s.token = m[1], m[2]
	case <-time.After(guard):
		t.Fatalf("no start-up line; stderr:\n%s", s.stderr)
	}
	return s
}

// kill sends SIGKILL and waits for the process: no shutdown code runs.
func (s *server) kill() {
	_ = s.cmd.Process.Kill()
	<-s.done
}

// stop asks for a graceful shutdown and waits for it.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(guard):
		s.t.Errorf("no exit after SIGINT; stderr:\n%s", s.stderr)
		s.kill()
	}
}

func (s *server) api(method, path, body string) (int, []byte) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	return res.StatusCode, b
}

// mustJSON sends a request, checks the status and decodes the answer.
func (s *server) mustJSON(method, path, body string, want int, v any) {
	s.t.Helper()
	code, b := s.api(method, path, body)
	if code != want {
		s.t.Fatalf("%s %s: %d %s; stderr:\n%s", method, path, code, b, s.stderr)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			s.t.Fatalf("%s %s: decode %s: %v", method, path, b, err)
		}
	}
}

func (s *server) dial(path string) *websocket.Conn {
	s.t.Helper()
	ctx, cancel := guardContext()
	defer cancel()
	c, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+path,
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + s.token}}})
	if res != nil && res.Body != nil {
		res.Body.Close()
	}
	if err != nil {
		s.t.Fatalf("dial %s: %v", path, err)
	}
	c.SetReadLimit(16 << 20)
	return c
}

type ids struct{ session, sdk, term string }

func (i ids) sdkPath() string  { return "/sessions/" + i.session + "/workers/" + i.sdk }
func (i ids) termPath() string { return "/sessions/" + i.session + "/workers/" + i.term }

// message is a stored sdk message as a client saw it.
type message struct {
	Seq  uint64
	UUID string
	Type string
}

// history reads every stored message of an sdk worker through REST, page
// by page.
func (s *server) history(path string, limit int) []message {
	s.t.Helper()
	var all []message
	after := ""
	for range 100000 {
		var page struct {
			Messages []struct {
				Seq     uint64
				Message struct{ UUID, Type string }
			}
			HasMore bool
		}
		s.mustJSON("GET", "/api"+path+"/messages?limit="+itoa(limit)+"&after="+after, "", 200, &page)
		for _, m := range page.Messages {
			all = append(all, message{Seq: m.Seq, UUID: m.Message.UUID, Type: m.Message.Type})
		}
		if !page.HasMore || len(page.Messages) == 0 {
			return all
		}
		after = all[len(all)-1].UUID
	}
	s.t.Fatal("history never ended")
	return nil
}
