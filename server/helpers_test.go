package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/adopt"
	"github.com/agentdesk/agentdesk/worker/attention"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
	"github.com/agentdesk/agentdesk/worker/gitops"
	"github.com/agentdesk/agentdesk/worker/notify"
	"github.com/agentdesk/agentdesk/worker/review"
	"github.com/agentdesk/agentdesk/worker/tools"
	"github.com/coder/websocket"
	"go.uber.org/goleak"
)

// TestMain checks for leaked goroutines, ignoring bleve's shared analysis
// workers, and removes the fake CLI.
// A private HOME keeps the machine's ~/.claude, ~/.codex and ~/.gitconfig
// out of every test (a chat that looks for a conversation to import reads
// the config dir of the environment it was given: this one, unless the
// test names another).
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "server-home-")
	if err != nil {
		panic(err)
	}
	for k, v := range map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"CLAUDE_CONFIG_DIR": filepath.Join(home, ".claude"), "CODEX_HOME": filepath.Join(home, ".codex")} {
		os.Setenv(k, v)
	}
	code := m.Run()
	os.RemoveAll(home)
	if fakeCLIDir != "" {
		os.RemoveAll(fakeCLIDir)
	}
	if code == 0 {
		if err := goleak.Find(goleak.IgnoreAnyFunction("github.com/blevesearch/bleve_index_api.AnalysisWorker")); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

var testFrontend = fstest.MapFS{
	"index.html":      {Data: []byte("<!doctype html><html><head><title>agentdesk</title></head><body></body></html>")},
	"assets/app-1.js": {Data: []byte("console.log(1)")},
}

const testToken = "0123456789abcdef0123456789abcdef"

// validators are main's: the kinds that check a new worker's options
// before it is stored.
var validators = map[worker.Kind]worker.Validator{worker.KindGitDiff: gitdiff.Validate}

// env is a real server on loopback with a real bbolt file.
type env struct {
	t       *testing.T
	dir     string
	store   *persist.Store
	mgr     *worker.Manager
	att     *attention.List
	push    *notify.Service
	tools   *tools.Service
	srv     *Server
	ts      *httptest.Server
	kinds   map[worker.Kind]worker.Factory
	cfg     worker.Config
	sandbox *worker.SandboxOptions
	stopped bool
}

func newEnv(t *testing.T, kinds map[worker.Kind]worker.Factory) *env {
	t.Helper()
	e := &env{t: t, dir: t.TempDir(), kinds: kinds}
	e.start()
	t.Cleanup(e.stop)
	return e
}

func (e *env) start() {
	t := e.t
	t.Helper()
	store, err := persist.Open(filepath.Join(e.dir, "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	e.store = store
	e.mgr = worker.NewManager(worker.Options{Store: store, Factories: e.kinds, Validators: validators, Config: e.cfg, Adoptable: adopt.Check(e.cfg), Sandbox: e.sandbox})
	if err := e.mgr.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The domain's services with goroutines, as main starts them.
	if e.push, err = notify.New(notify.Options{Dir: e.dir}); err != nil {
		t.Fatal(err)
	}
	e.att = attention.New(attention.Options{Manager: e.mgr, Store: store, OnNew: e.push.Notify, Legacy: filepath.Join(e.dir, "attention.json")})
	e.push.Start()
	e.att.Start()
	e.tools = tools.New(tools.Options{Sessions: e.mgr, Push: e.push})
	e.tools.Start()
	e.srv, err = New(e.options())
	if err != nil {
		t.Fatal(err)
	}
	e.ts = httptest.NewServer(e.srv.Handler())
	e.stopped = false
}

// options are main's: the manager and the domain's services built on it,
// on loopback with the test token.
func (e *env) options() Options {
	return Options{
		Manager: e.mgr, Token: testToken, Loopback: true, Frontend: testFrontend,
		Settings: worker.NewAgentSettings(e.mgr), Repos: worker.NewRepos(e.store), Usage: worker.NewUsage(e.mgr),
		Review: review.New(e.mgr, e.store), Git: gitops.New(e.mgr), Attention: e.att, Push: e.push,
		Adopt: adopt.New(e.mgr), Files: worker.NewFileList(e.mgr), Trees: worker.NewTrees(e.mgr), Tools: e.tools,
		SandboxLevels: e.sandbox.Levels(),
		MCP:           worker.NewMCPServers(e.mgr),
	}
}

// stop shuts down in main's order: sockets and HTTP, workers, database.
func (e *env) stop() {
	if e.stopped {
		return
	}
	e.stopped = true
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := e.srv.Shutdown(ctx); err != nil {
		e.t.Errorf("shutdown: %v", err)
	}
	e.ts.Close()
	if err := e.mgr.Close(ctx); err != nil {
		e.t.Errorf("close manager: %v", err)
	}
	e.att.Close()
	e.tools.Close()
	e.push.Close()
	if err := e.store.Close(); err != nil {
		e.t.Errorf("close store: %v", err)
	}
}

func (e *env) restart() {
	e.stop()
	e.start()
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(a.body, v); err != nil {
		t.Fatalf("decode %s: %v", a.body, err)
	}
}

// errCode returns the code of an error answer, failing on a non-JSON body.
func (a answer) errCode(t *testing.T) string {
	t.Helper()
	var v struct{ Error, Code string }
	a.json(t, &v)
	if v.Error == "" {
		t.Fatalf("error answer without a message: %s", a.body)
	}
	return v.Code
}

// do sends a request with the Bearer token unless hdr overrides it.
func (e *env) do(method, path string, body any, hdr ...string) answer {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.ts.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
			continue
		}
		if strings.EqualFold(hdr[i], "Host") {
			req.Host = hdr[i+1]
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return answer{status: res.StatusCode, header: res.Header, body: b}
}

func (e *env) createSession(cwd string) worker.Session {
	e.t.Helper()
	a := e.do("POST", "/api/sessions", map[string]string{"cwd": cwd, "agent": "none"})
	if a.status != http.StatusCreated {
		e.t.Fatalf("create session: %d %s", a.status, a.body)
	}
	var s worker.Session
	a.json(e.t, &s)
	return s
}

func (e *env) dial(path string, hdr ...string) *websocket.Conn {
	e.t.Helper()
	c, err := e.tryDial(path, hdr...)
	if err != nil {
		e.t.Fatalf("dial %s: %v", path, err)
	}
	return c
}

func (e *env) tryDial(path string, hdr ...string) (*websocket.Conn, error) {
	h := http.Header{"Authorization": {"Bearer " + testToken}}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			h.Del(hdr[i])
		} else {
			h.Set(hdr[i], hdr[i+1])
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.ts.URL, "http")+path, &websocket.DialOptions{HTTPHeader: h})
	if res != nil && res.Body != nil {
		res.Body.Close()
	}
	if err == nil {
		c.SetReadLimit(16 << 20)
	}
	return c, err
}

// waitWorker reads the worker at path (GET) until ok holds, for what a
// kind reports in the background (an activity), which reaches the stored
// worker a moment after the tabs. The deadline only guards a failure.
func (e *env) waitWorker(path string, ok func(worker.Info) bool) worker.Info {
	e.t.Helper()
	var w worker.Info
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if e.do("GET", path, nil).json(e.t, &w); ok(w) {
			return w
		}
	}
	e.t.Fatalf("worker never matched: %+v", w)
	return w
}

// readJSON reads text frames until one has the given type (any type for "").
func readJSON(t *testing.T, c *websocket.Conn, typ string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		mt, data, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("waiting for %q: %v", typ, err)
		}
		if mt != websocket.MessageText {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("frame is not JSON: %s", data)
		}
		if typ == "" || v["type"] == typ {
			return v
		}
	}
}
