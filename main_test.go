package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// These tests run the real binary: start-up line, token file, the data-dir
// lock, and a graceful shutdown that ends every child process group.

var binPath string

func TestMain(m *testing.M) {
	if os.Getenv(lazyChild) != "" { // a fresh process for one in-process test (lazy_test.go)
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "agentdesk-bin")
	if err != nil {
		panic(err)
	}
	binPath = filepath.Join(dir, "agentdesk")
	if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		panic("build agentdesk: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	if code == 0 {
		// The in-process tests (search, start-up) leave nothing running;
		// regexp2's shared clock and bleve's analysis workers stop by
		// themselves.
		if err := goleak.Find(goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"),
			goleak.IgnoreAnyFunction("github.com/blevesearch/bleve_index_api.AnalysisWorker")); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

type proc struct {
	cmd    *exec.Cmd
	url    string // the start-up URL, with the token
	base   string
	token  string
	stderr *strings.Builder
}

var urlLine = regexp.MustCompile(`(https?://[^/\s]+)/\?token=([0-9a-f]+)`)

// start runs agentdesk on a free loopback port and waits for its start-up line.
func start(t *testing.T, dataDir string, extra ...string) *proc {
	t.Helper()
	return startVia(t, nil, dataDir, extra...)
}

// startVia is start with the binary run by a wrapper command (nil: none).
func startVia(t *testing.T, wrapper []string, dataDir string, extra ...string) *proc {
	t.Helper()
	return startEnv(t, append(os.Environ(), "HOME="+t.TempDir(), "SHELL=/bin/sh"), wrapper, dataDir, extra...)
}

// startEnv is startVia with env as the binary's whole environment.
func startEnv(t *testing.T, env, wrapper []string, dataDir string, extra ...string) *proc {
	t.Helper()
	args := append(append(wrapper, binPath, "--addr", "127.0.0.1:0", "--data-dir", dataDir), extra...)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, stderr: &strings.Builder{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		l, _ := r.ReadString('\n')
		lines <- l
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case l := <-lines:
		m := urlLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("start-up line %q has no URL; stderr: %s", l, p.stderr)
		}
		p.url, p.base, p.token = m[0], m[1], m[2]
	case <-time.After(2 * time.Minute):
		t.Fatalf("no start-up line; stderr: %s", p.stderr)
	}
	return p
}

func (p *proc) api(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, p.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+p.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

func (p *proc) stop(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after %v: %v; stderr: %s", sig, err, p.stderr)
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("no exit after %v", sig)
	}
}

func TestTokenFileAndStartupLine(t *testing.T) {
	data := t.TempDir()
	p := start(t, data)
	b, err := os.ReadFile(filepath.Join(data, "token"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(b)) != p.token || len(p.token) < 32 {
		t.Fatalf("token file %q, start-up token %q", b, p.token)
	}
	if fi, _ := os.Stat(filepath.Join(data, "token")); fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v", fi.Mode().Perm())
	}
	if code, _ := p.api(t, "GET", "/api/sessions", ""); code != 200 {
		t.Fatalf("token does not authenticate: %d", code)
	}
	// Logging in through the URL, a failed request and a bad login leave no
	// token in the server's log.
	for _, path := range []string{"/?token=" + p.token, "/?token=" + p.token + "0", "/api/nope?token=" + p.token} {
		p.api(t, "GET", path, "")
	}
	p.api(t, "POST", "/api/login", `{"token":"`+p.token+`x"}`)
	p.api(t, "POST", "/api/sessions", `{"cwd":"relative/`+p.token+`"}`)
	p.stop(t, syscall.SIGINT)
	if strings.Contains(p.stderr.String(), p.token) {
		t.Fatalf("the token is in the server's log:\n%s", p.stderr)
	}
	// The same token comes back after a restart.
	if p2 := start(t, data); p2.token != p.token {
		t.Fatalf("token changed across restarts")
	} else {
		p2.stop(t, syscall.SIGTERM)
	}
}

func TestSecondProcessFailsFast(t *testing.T) {
	data := t.TempDir()
	p := start(t, data)
	defer p.stop(t, syscall.SIGTERM)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, binPath, "--addr", "127.0.0.1:0", "--data-dir", data).CombinedOutput()
	if err == nil || ctx.Err() != nil {
		t.Fatalf("second process: err=%v ctx=%v", err, ctx.Err())
	}
	if !strings.Contains(string(out), "another agentdesk is already running") {
		t.Fatalf("unclear message: %s", out)
	}
}

// sleeper starts a terminal whose shell runs a background sleep, and
// returns the session id and the sleep's pid.
func (p *proc) sleeper(t *testing.T) (string, int) {
	t.Helper()
	code, b := p.api(t, "POST", "/api/sessions", `{"cwd":"`+t.TempDir()+`","agent":"none"}`)
	if code != 201 {
		t.Fatalf("create session: %d %s", code, b)
	}
	var s struct{ ID string }
	_ = json.Unmarshal(b, &s)
	pidFile := filepath.Join(t.TempDir(), "pid")
	body := `{"kind":"terminal","command":["/bin/sh","-c","sleep 300 & echo $! > ` + pidFile + `; wait"]}`
	if code, b := p.api(t, "POST", "/api/sessions/"+s.ID+"/workers", body); code != 201 {
		t.Fatalf("create terminal: %d %s", code, b)
	}
	return s.ID, waitPID(t, pidFile)
}

func TestShutdownEndsChildren(t *testing.T) {
	data := t.TempDir()
	p := start(t, data)
	sid, pid := p.sleeper(t)
	p.stop(t, syscall.SIGTERM)
	if alive(pid) {
		t.Fatalf("child %d outlived the server", pid)
	}
	// The database was closed cleanly: a new process opens it at once and
	// still has the session, with its terminal shown as exited.
	p2 := start(t, data)
	defer p2.stop(t, syscall.SIGINT)
	code, b := p2.api(t, "GET", "/api/sessions/"+sid, "")
	if code != 200 || !strings.Contains(string(b), `"kind":"terminal"`) {
		t.Fatalf("session after restart: %d %s", code, b)
	}
}

func TestCrashLeftoversAreEnded(t *testing.T) {
	data := t.TempDir()
	p := start(t, data)
	_, pid := p.sleeper(t)
	_ = p.cmd.Process.Kill() // SIGKILL: no shutdown runs
	_ = p.cmd.Wait()
	if syscall.Kill(pid, 0) != nil {
		t.Fatal("the child died with the server; this test cannot check recovery")
	}
	p2 := start(t, data)
	defer p2.stop(t, syscall.SIGINT)
	if alive(pid) {
		t.Fatalf("leftover child %d still runs after the next start", pid)
	}
}

func waitPID(t *testing.T, file string) int {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(file); err == nil && strings.HasSuffix(string(b), "\n") {
			var pid int
			if _, err := fmt.Sscan(strings.TrimSpace(string(b)), &pid); err == nil && pid > 0 {
				return pid
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("child never wrote its pid")
	return 0
}

// alive reports whether pid still runs (a zombie counts as gone: it has
// been killed and only waits for its parent).
func alive(pid int) bool {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil {
			return false
		}
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && strings.Contains(string(b), ") Z ") {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
