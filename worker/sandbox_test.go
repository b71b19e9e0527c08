package worker_test

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// boxTools finds bwrap and socat, or skips loudly (fails with CI=true).
func boxTools(t *testing.T) sandbox.Tools {
	t.Helper()
	tl := sandbox.Probe(t.Context(), os.Getenv("PATH"))
	if err := tl.Check(sandbox.Workspace); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI must run the sandbox tests: %v", err)
		}
		t.Skipf("!!! SKIPPING: the sandbox tests did NOT run: %v !!!", err)
	}
	return tl
}

// prepared records the Prepare calls of a test agent.
type prepared struct {
	mu    sync.Mutex
	dirs  []string
	convs []string
}

func (p *prepared) prepare(dir string, s worker.Session) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dirs = append(p.dirs, dir)
	if s.ClaudeSessionID != nil {
		p.convs = append(p.convs, *s.ClaudeSessionID)
	}
	return os.WriteFile(filepath.Join(dir, "login"), []byte("copied"), 0o600)
}

// boxManager is a manager whose sandboxed sessions use tl, with a test
// agent whose config directory is AGENT_HOME.
func boxManager(t *testing.T, store *persist.Store, data string, tl sandbox.Tools, kinds map[worker.Kind]worker.Factory, p *prepared) *worker.Manager {
	t.Helper()
	return loaded(t, worker.Options{Store: store, Factories: kinds, Sandbox: &worker.SandboxOptions{
		Dir: filepath.Join(data, "sandbox"), Tools: tl,
		Agents: []worker.AgentBox{{ConfigVar: "AGENT_HOME", ConfigName: ".agent", Pass: []string{"AGENT_*"}, Prepare: p.prepare}},
	}})
}

// TestSandboxRefused: a level that is not one, or that this server cannot
// run (no sandbox configured, bwrap missing), or a box that would show the
// user's home is refused with a clear error, and nothing is stored.
func TestSandboxRefused(t *testing.T) {
	tl := boxTools(t)
	cwd := t.TempDir()
	home, _ := os.UserHomeDir()
	cases := []struct {
		name  string
		opts  *worker.SandboxOptions
		req   worker.CreateSessionRequest
		code  wire.Code
		words string
	}{
		{"unknown level", nil, worker.CreateSessionRequest{Cwd: cwd, Sandbox: "strict"}, wire.CodeInvalidField, "workspace+net"},
		{"not configured", nil, worker.CreateSessionRequest{Cwd: cwd, Sandbox: "workspace"}, wire.CodeSandboxUnavailable, "no sandboxed sessions"},
		{"no bwrap", &worker.SandboxOptions{Dir: t.TempDir(), Tools: sandbox.Probe(t.Context(), t.TempDir())},
			worker.CreateSessionRequest{Cwd: cwd, Sandbox: "workspace+net"}, wire.CodeSandboxUnavailable, "apt-get install bubblewrap"},
		{"the user's home", &worker.SandboxOptions{Dir: t.TempDir(), Tools: tl},
			worker.CreateSessionRequest{Cwd: home, Sandbox: "workspace"}, wire.CodeInvalidField, "home directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := openStore(t)
			m := loaded(t, worker.Options{Store: store, Factories: map[worker.Kind]worker.Factory{worker.KindTerminal: (&fakeKind{}).factory}, Sandbox: c.opts})
			c.req.Agent = "none"
			_, err := m.CreateSession(t.Context(), c.req)
			var ce *worker.CodeError
			var fe *worker.FieldError
			switch {
			case err == nil:
				t.Fatal("created")
			case c.code == wire.CodeInvalidField && !errors.As(err, &fe):
				t.Fatalf("error %v, want a field error", err)
			case c.code != wire.CodeInvalidField && (!errors.As(err, &ce) || ce.Code != c.code):
				t.Fatalf("error %v, want code %s", err, c.code)
			}
			if !strings.Contains(err.Error(), c.words) {
				t.Errorf("error %q does not say %q", err, c.words)
			}
			if len(m.Sessions()) != 0 {
				t.Errorf("a refused session was kept: %+v", m.Sessions())
			}
		})
	}
}

// TestSandboxedSession: the level is stored and the view listed; a
// worker's processes run in the box (its launcher), with the agents'
// config directories the box's, prepared before the factory ran; after a
// restart the session is still sandboxed; delete removes its home.
func TestSandboxedSession(t *testing.T) {
	tl := boxTools(t)
	data, cwd := t.TempDir(), t.TempDir()
	store := openStore(t)
	k, p := &fakeKind{}, &prepared{}
	kinds := map[worker.Kind]worker.Factory{worker.KindTerminal: k.factory}
	m := boxManager(t, store, data, tl, kinds, p)
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: cwd, Agent: "none", Sandbox: "workspace"})
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(data, "sandbox", s.ID, "home")
	if s.Sandbox != "workspace" || s.SandboxView == nil || !slices.Contains(s.SandboxView.Writable, cwd) ||
		!slices.Contains(s.SandboxView.Writable, home) || s.SandboxView.Network != "loopback" {
		t.Fatalf("session %+v, view %+v", s, s.SandboxView)
	}
	if _, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindTerminal}); err != nil {
		t.Fatal(err)
	}
	env := k.last(t)
	agentDir := filepath.Join(home, ".agent")
	if !slices.Contains(env.Config.ChildEnv, "AGENT_HOME="+agentDir) {
		t.Errorf("the worker's environment lacks the box's config dir: %q", env.Config.ChildEnv)
	}
	if b, err := os.ReadFile(filepath.Join(agentDir, "login")); err != nil || string(b) != "copied" {
		t.Errorf("the config dir was not prepared before the factory: %q %v", b, err)
	}
	out := runIn(t, env.Launcher, cwd, `echo "$AGENT_HOME $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ')"`)
	if out != agentDir+" lo\n" {
		t.Errorf("the worker's launcher ran %q: not in the box", out)
	}

	// The same session after a restart: sandboxed, its view listed.
	m2 := boxManager(t, store, data, tl, kinds, p)
	got, err := m2.Session(s.ID)
	if err != nil || got.Sandbox != "workspace" || got.SandboxView == nil {
		t.Fatalf("after a restart: %+v %v", got, err)
	}
	if err := m2.DeleteSession(t.Context(), s.ID, worker.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(data, "sandbox", s.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the deleted session's sandbox home is still there: %v", err)
	}
}

// TestNotSandboxedByDefault: a session without the option is "off", runs
// with the server's launcher and config, and has no view.
func TestNotSandboxedByDefault(t *testing.T) {
	k := &fakeKind{}
	m := boxManager(t, openStore(t), t.TempDir(), boxTools(t), map[worker.Kind]worker.Factory{worker.KindTerminal: k.factory}, &prepared{})
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "none"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Sandbox != "off" || s.SandboxView != nil {
		t.Fatalf("session %+v", s)
	}
	if _, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindTerminal}); err != nil {
		t.Fatal(err)
	}
	if l := k.last(t).Launcher; l != (launch.Local{}) {
		t.Errorf("launcher %T, want the server's", l)
	}
}

// runIn runs script with sh through l in dir and returns its output.
func runIn(t *testing.T, l launch.Launcher, dir, script string) string {
	t.Helper()
	return runInEnv(t, l, dir, nil, script)
}

// runInEnv is runIn with env besides PATH.
func runInEnv(t *testing.T, l launch.Launcher, dir string, env []string, script string) string {
	t.Helper()
	p, err := l.Start(t.Context(), launch.Spec{Argv: []string{"sh", "-c", script}, Dir: dir, StdoutPipe: true,
		Env: append([]string{"PATH=" + os.Getenv("PATH")}, env...)})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(p.Stdout())
	if err := p.Wait(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return string(out)
}

// TestSandboxedWorktree: in a worktree session the box writes the
// worktree's git directory and the repository's objects (git works
// inside), but not what git outside the box obeys: the config and the
// hooks. Another session's tree (the repository's own) stays out.
func TestSandboxedWorktree(t *testing.T) {
	tl := boxTools(t)
	repo := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	boxGit(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boxGit(t, repo, "add", "a.txt")
	boxGit(t, repo, "commit", "-q", "-m", "first")
	k := &fakeKind{}
	m := boxManager(t, openStore(t), t.TempDir(), tl, map[worker.Kind]worker.Factory{worker.KindTerminal: k.factory}, &prepared{})
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Repo: repo, Branch: "feature", Worktree: true, Agent: "none", Sandbox: "workspace"})
	if err != nil {
		t.Fatal(err)
	}
	common := filepath.Join(repo, ".git")
	v := s.SandboxView
	if v == nil || !slices.Contains(v.Writable, common) || !slices.Contains(v.ReadOnly, filepath.Join(common, "config")) || !slices.Contains(v.ReadOnly, filepath.Join(common, "hooks")) {
		t.Fatalf("view %+v", v)
	}
	if _, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindTerminal}); err != nil {
		t.Fatal(err)
	}
	out := runIn(t, k.last(t).Launcher, s.Cwd, `
git -c user.name=T -c user.email=t@example.com -c commit.gpgsign=false commit -q --allow-empty -m inside && echo commit=ok
if echo x > `+common+`/hooks/pre-commit 2>/dev/null; then echo hook=written; else echo hook=refused; fi
if echo x >> `+common+`/config 2>/dev/null; then echo config=written; else echo config=refused; fi
echo x > `+repo+`/b.txt 2>/dev/null
`)
	if out != "commit=ok\nhook=refused\nconfig=refused\n" {
		t.Errorf("box said %q", out)
	}
	if _, err := os.Stat(filepath.Join(repo, "b.txt")); err == nil {
		t.Error("the box wrote into the repository's own tree")
	}
	if log := boxGit(t, repo, "log", "--format=%s", "feature"); !strings.HasPrefix(log, "inside") {
		t.Errorf("the commit made in the box is not on the branch: %q", log)
	}
}

func boxGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestSandboxedSessionWithoutBwrap: a sandboxed session stored by a server
// that had bwrap, loaded by one that has none, stays sandboxed: its
// restored worker's launcher refuses to start anything (sandbox_unavailable)
// instead of running it outside a box, and a new worker is refused.
func TestSandboxedSessionWithoutBwrap(t *testing.T) {
	tl := boxTools(t)
	data, cwd := t.TempDir(), t.TempDir()
	store := openStore(t)
	k, p := &fakeKind{}, &prepared{}
	kinds := map[worker.Kind]worker.Factory{worker.KindTerminal: k.factory}
	m := boxManager(t, store, data, tl, kinds, p)
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: cwd, Agent: "none", Sandbox: "workspace"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindTerminal}); err != nil {
		t.Fatal(err)
	}
	before := len(k.envs)

	none := sandbox.Probe(t.Context(), t.TempDir()) // a PATH without bwrap or socat
	m2 := boxManager(t, store, data, none, kinds, p)
	if got, err := m2.Session(s.ID); err != nil || got.Sandbox != "workspace" {
		t.Fatalf("after the restart: %+v %v", got, err)
	}
	k.mu.Lock()
	restored := len(k.envs) > before
	k.mu.Unlock()
	if restored {
		env := k.last(t)
		mark := filepath.Join(cwd, "ran-outside")
		_, err := env.Launcher.Start(t.Context(), launch.Spec{Argv: []string{"/bin/sh", "-c", "touch " + mark}, Dir: cwd,
			Env: []string{"PATH=" + os.Getenv("PATH")}})
		var ce *worker.CodeError
		if !errors.As(err, &ce) || ce.Code != wire.CodeSandboxUnavailable {
			t.Errorf("the restored worker's launcher answered %v, want sandbox_unavailable", err)
		}
		if _, err := os.Stat(mark); err == nil {
			t.Error("a process of the sandboxed session ran outside a box")
		}
	}
	k.mu.Lock()
	built := len(k.envs)
	k.mu.Unlock()
	w, err := m2.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindTerminal})
	if err != nil {
		t.Fatal(err)
	}
	msg := ""
	if w.Error != nil {
		msg = *w.Error
	}
	if w.Status != worker.StatusError || !strings.Contains(msg, "install the Debian package bubblewrap") {
		t.Errorf("a new worker without bwrap: status %q, error %q; want one naming the package to install", w.Status, msg)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.envs) != built {
		t.Error("a new worker's runtime was built without its box")
	}
}

// TestSandboxNoAddDirs: a sandboxed session's box shows only the
// session's folder, so directories besides it (addDirs) are refused with a
// clear error wherever they come (the session's agent, a new agent worker,
// a PATCH), and nothing changes.
func TestSandboxNoAddDirs(t *testing.T) {
	tl := boxTools(t)
	extra := t.TempDir()
	k, p := &fakeKind{}, &prepared{}
	m := boxManager(t, openStore(t), t.TempDir(), tl, map[worker.Kind]worker.Factory{worker.KindSDK: k.factory}, p)
	refused := func(what string, err error) {
		t.Helper()
		var fe *worker.FieldError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "addDirs") || !strings.Contains(err.Error(), "sandbox") {
			t.Errorf("%s: %v, want a field error on addDirs that names the sandbox", what, err)
		}
	}
	_, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "sdk", Sandbox: "workspace",
		Limits: worker.Limits{AddDirs: []string{extra}}})
	refused("a new session", err)
	if len(m.Sessions()) != 0 {
		t.Fatalf("a refused session was kept: %+v", m.Sessions())
	}

	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "none", Sandbox: "workspace"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindSDK, Limits: worker.Limits{AddDirs: []string{extra}}})
	refused("a new agent worker", err)
	if got, _ := m.Session(s.ID); len(got.Workers) != 0 {
		t.Fatalf("a refused worker was kept: %+v", got.Workers)
	}

	w, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindSDK})
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{extra}
	_, err = worker.NewAgentSettings(m).Update(t.Context(), s.ID, w.ID, worker.SettingsRequest{LimitsRequest: worker.LimitsRequest{AddDirs: &dirs}})
	refused("a PATCH", err)
	if got, _ := m.Worker(s.ID, w.ID); len(got.Limits.AddDirs) != 0 {
		t.Errorf("the refused PATCH changed the worker: %+v", got.Limits)
	}
}
