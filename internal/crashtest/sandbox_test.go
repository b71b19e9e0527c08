package crashtest

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
)

// requireSandbox skips loudly when bwrap or socat is missing (CI installs
// them: there it fails).
func requireSandbox(t *testing.T) {
	t.Helper()
	if err := sandbox.Probe(t.Context(), os.Getenv("PATH")).Check(sandbox.Workspace); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI must run the sandbox tests: %v", err)
		}
		t.Skipf("!!! SKIPPING: the sandbox tests did NOT run: %v !!!", err)
	}
}

// boxWorld is a user's machine around a sandboxed session: a home with an
// SSH key, agentdesk's data dir in it, the session's work tree, another
// session's tree, a host loopback port nobody in a box may reach, and the
// fake model API.
type boxWorld struct {
	userHome, data, work, other string
	api                         *fakeapi.Server
	port                        int
	conns                       *atomic.Int64
	tag                         string // names the probes' files
}

func newBoxWorld(t *testing.T) *boxWorld {
	t.Helper()
	root := t.TempDir()
	w := &boxWorld{
		userHome: filepath.Join(root, "home"), work: filepath.Join(root, "work"), other: filepath.Join(root, "other"),
		api: fakeapi.New(t), conns: &atomic.Int64{}, tag: fmt.Sprintf("agentdesk-probe-%d", time.Now().UnixNano()),
	}
	w.data = filepath.Join(w.userHome, ".local", "share", "agentdesk")
	for _, d := range []string{filepath.Join(w.userHome, ".ssh"), w.data, w.work, w.other} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(w.userHome, ".ssh", "id_ed25519"), []byte("HOST SSH SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Planted in the work tree: links to the key and to the root.
	if err := os.Symlink(filepath.Join(w.userHome, ".ssh", "id_ed25519"), filepath.Join(w.work, "key")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/", filepath.Join(w.work, "root")); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w.port = ln.Addr().(*net.TCPAddr).Port
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			w.conns.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	w.writeProbe(t)
	t.Cleanup(w.removeStrays)
	return w
}

// start runs agentdesk with the real CLI: HOME is the user's home, plus an
// AGENTDESK_* setting besides the token.
func (w *boxWorld) start(t *testing.T) *server {
	t.Helper()
	env := append(w.api.ClaudeEnv(w.userHome), "AGENTDESK_STALL_AFTER=9m")
	return startServerWith(t, w.data, fakeapi.RequireClaude(t), env...)
}

// probe.sh, run in the box with the result file's name: what the box
// can write, read and reach, one line each; written to a temporary file,
// then renamed, so that the test reads it whole.
const probeScript = `out=$1
{
w() { if (echo x > "$1") 2>/dev/null; then echo "$2=written"; else echo "$2=refused"; fi; }
w "@HOME@/@TAG@" home
w "@OTHER@/@TAG@" other
w "/etc/@TAG@" etc
w "/tmp/@TAG@" tmp
w "$HOME/@TAG@" boxhome
cat "@HOME@/.ssh/id_ed25519" 2>/dev/null || echo ssh=unreadable
cat key 2>/dev/null || echo link=unreadable
cat "root@HOME@/.ssh/id_ed25519" 2>/dev/null || echo rootlink=unreadable
cat "@DATA@/token" 2>/dev/null || echo tokenfile=unreadable
echo "ifaces=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\n' ,)"
curl -s -m 5 -o /dev/null http://127.0.0.1:@PORT@/; echo "loopback_rc=$?"
echo "api=$(curl -s -m 30 -o /dev/null -w '%{http_code}' "$ANTHROPIC_BASE_URL/v1/messages")"
for e in /proc/[0-9]*/environ; do tr '\0' '\n' 2>/dev/null < "$e"; done 2>/dev/null | grep -c '^AGENTDESK_' | sed 's/^/agentdesk_vars=/'
echo end
} > "$out.tmp" 2>&1
mv "$out.tmp" "$out"
`

func (w *boxWorld) writeProbe(t *testing.T) {
	t.Helper()
	s := strings.NewReplacer("@HOME@", w.userHome, "@OTHER@", w.other, "@TAG@", w.tag, "@DATA@", w.data,
		"@PORT@", itoa(w.port)).Replace(probeScript)
	if err := os.WriteFile(filepath.Join(w.work, "probe.sh"), []byte(s), 0o755); err != nil {
		t.Fatal(err)
	}
}

// result waits for the probe's result file and checks it: everything
// outside refused, unreadable, unreachable; the box's own home written,
// the API reached, no AGENTDESK_* variable in any process of the box;
// and nothing it wrote appeared on the host. (The user's home is under
// the host's /tmp here, so in the box its path is in the box's own /tmp:
// a write there succeeds, privately; the host's side is what counts.)
func (w *boxWorld) result(t *testing.T, s *server, name string) {
	t.Helper()
	path := filepath.Join(w.work, name)
	deadline := time.Now().Add(guard)
	var out []byte
	for {
		b, err := os.ReadFile(path)
		if err == nil {
			out = b
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no probe result %s; stderr:\n%s", name, s.stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	got := string(out)
	want := []string{"other=refused", "etc=refused", "boxhome=written", "ssh=unreadable",
		"link=unreadable", "rootlink=unreadable", "tokenfile=unreadable", "ifaces=lo,", "loopback_rc=7",
		"agentdesk_vars=0", "end"}
	for _, line := range want {
		if !strings.Contains(got, line+"\n") {
			t.Errorf("%s: the box said\n%s\nwant the line %q", name, got, line)
		}
	}
	if strings.Contains(got, "SECRET") || strings.Contains(got, s.token) || strings.Contains(got, "api=000") {
		t.Errorf("%s: the box read a secret or did not reach the API:\n%s", name, got)
	}
	if n := w.conns.Load(); n != 0 {
		t.Errorf("%s: the host's loopback port got %d connections from the box", name, n)
	}
	for _, p := range w.strays() {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s: %s appeared on the host", name, p)
		}
	}
}

// strays are the files the probe tries to write outside the box's own.
func (w *boxWorld) strays() []string {
	return []string{filepath.Join(w.userHome, w.tag), filepath.Join(w.other, w.tag), "/etc/" + w.tag, filepath.Join(os.TempDir(), w.tag)}
}

func (w *boxWorld) removeStrays() {
	for _, p := range w.strays() {
		os.Remove(p)
	}
}

// boxSession creates the sandboxed chat session in the work tree, in
// bypassPermissions (the box makes it acceptable), and a plain session in
// the other tree.
func (w *boxWorld) boxSession(t *testing.T, s *server) ids {
	t.Helper()
	s.mustJSON("POST", "/api/sessions", `{"cwd":"`+w.other+`","agent":"none"}`, 201, nil)
	var sess struct {
		ID          string
		Sandbox     string
		SandboxView *sandbox.View
		Workers     []struct{ ID string }
	}
	s.mustJSON("POST", "/api/sessions", `{"cwd":"`+w.work+`","agent":"sdk","sandbox":"workspace","permissionMode":"bypassPermissions"}`, 201, &sess)
	if sess.Sandbox != "workspace" || sess.SandboxView == nil || sess.SandboxView.Network != "loopback" {
		b, _ := json.Marshal(sess)
		t.Fatalf("session %s", b)
	}
	return ids{session: sess.ID, sdk: sess.Workers[0].ID}
}

// TestSandboxSafety runs the probe in a sandboxed session through the real
// CLI's Bash tool and through a terminal worker.
func TestSandboxSafety(t *testing.T) {
	requireSandbox(t)
	w := newBoxWorld(t)
	s := w.start(t)
	box := w.boxSession(t, s)

	rec := recordSDK(s.dial("/ws" + box.sdkPath()))
	defer rec.close()
	s.mustJSON("POST", "/api"+box.sdkPath()+"/input", `{"content":"bash: sh probe.sh result-cli.txt"}`, 202, nil)
	w.result(t, s, "result-cli.txt")
	if !rec.waitFor(guard, func(_ []message, results int, _ []string) bool { return results > 0 }) {
		t.Fatalf("the turn never ended; stderr:\n%s", s.stderr)
	}
	if last := w.api.MessageRequests(); len(last) == 0 || !strings.Contains(string(last[len(last)-1].RawBody), "tool_result") {
		t.Error("the model API never got the Bash tool's result")
	}

	s.mustJSON("POST", "/api/sessions/"+box.session+"/workers", `{"kind":"terminal","command":["/bin/sh","probe.sh","result-term.txt"]}`, 201, nil)
	w.result(t, s, "result-term.txt")
	s.stop()
}
