package worker_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestSandboxFromConfig: an agent's addresses and variables from its own
// config are read for each session's box: the box reaches the address at
// its own port and keeps the variable; a later session sees a change.
func TestSandboxFromConfig(t *testing.T) {
	tl := boxTools(t)
	data, cwd := t.TempDir(), t.TempDir()
	api := listenHTTP(t, "from config")
	var mu sync.Mutex
	urls := []string{api + "/v1"}
	from := func() ([]string, []string) {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(urls), []string{"CONFIG_KEY"}
	}
	k := &fakeKind{}
	m := loaded(t, worker.Options{Store: openStore(t), Factories: map[worker.Kind]worker.Factory{worker.KindTerminal: k.factory}, Sandbox: &worker.SandboxOptions{
		Dir: filepath.Join(data, "sandbox"), Tools: tl,
		Agents: []worker.AgentBox{{ConfigVar: "AGENT_HOME", ConfigName: ".agent", FromConfig: from}},
	}})
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: cwd, Agent: "none", Sandbox: "workspace"})
	if err != nil {
		t.Fatal(err)
	}
	if want := api + "/v1 (through agentdesk's bridge, at the same address in the box)"; !slices.Contains(s.SandboxView.Endpoints, want) {
		t.Fatalf("view endpoints %q, want %q", s.SandboxView.Endpoints, want)
	}
	if _, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindTerminal}); err != nil {
		t.Fatal(err)
	}
	env := k.last(t)
	env.Config.ChildEnv = append(env.Config.ChildEnv, "CONFIG_KEY=k1", "OTHER_KEY=k2")
	l := env.Launcher
	out := runInEnv(t, l, cwd, env.Config.ChildEnv, `echo "key=$CONFIG_KEY other=$OTHER_KEY api=$(curl -s -m 20 `+api+`/v1/x)"`)
	if out != "key=k1 other= api=from config\n" {
		t.Errorf("the box said %q", out)
	}

	mu.Lock()
	urls = []string{"https://api.example.invalid/v1"}
	mu.Unlock()
	s2, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "none", Sandbox: "workspace"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s2.SandboxView.Endpoints) != 1 || !strings.Contains(s2.SandboxView.Endpoints[0], "api.example.invalid:443 only") {
		t.Errorf("the next session's endpoints %q: the config was not read again", s2.SandboxView.Endpoints)
	}
}

// listenHTTP serves body on a loopback port and returns its URL.
func listenHTTP(t *testing.T, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, body) }))
	t.Cleanup(srv.Close)
	return srv.URL
}
