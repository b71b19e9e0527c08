package sandbox_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// tools finds bwrap and socat, or skips loudly (fails with CI=true: CI
// installs them).
func tools(t *testing.T) sandbox.Tools {
	t.Helper()
	tl := sandbox.Probe(context.Background(), os.Getenv("PATH"))
	if err := tl.Check(sandbox.Workspace); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI must run the sandbox tests: %v", err)
		}
		t.Skipf("!!! SKIPPING: the sandbox tests did NOT run: %v !!!", err)
	}
	return tl
}

// fixture is a box's surroundings on the host: the user's home (with a
// secret), the box's home, its work tree, another session's tree.
type fixture struct {
	userHome, home, work, other string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	root := t.TempDir()
	f := fixture{
		userHome: filepath.Join(root, "user"), home: filepath.Join(root, "data", "box", "home"),
		work: filepath.Join(root, "work"), other: filepath.Join(root, "other"),
	}
	for _, d := range []string{filepath.Join(f.userHome, ".ssh"), f.work, f.other} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(f.userHome, ".ssh", "id_ed25519"), []byte("SECRET KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f fixture) options(tl sandbox.Tools, level sandbox.Level) sandbox.Options {
	return sandbox.Options{
		Level: level, Home: f.home, Writable: []string{f.work},
		Forbidden: []string{f.userHome, filepath.Dir(filepath.Dir(f.home))},
		Bwrap:     tl.Bwrap, Socat: tl.Socat,
	}
}

func newBox(t *testing.T, o sandbox.Options) *sandbox.Box {
	t.Helper()
	b, err := sandbox.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// run runs script with sh in the box, in dir, and returns its output.
func run(t *testing.T, b *sandbox.Box, dir, script string, env ...string) string {
	t.Helper()
	var stderr strings.Builder
	p, err := b.Start(t.Context(), launch.Spec{
		Argv: []string{"sh", "-c", script}, Dir: dir, StdoutPipe: true, Stderr: &stderr,
		Env:    append([]string{"PATH=" + os.Getenv("PATH"), "AGENTDESK_TOKEN=tok-secret", "SECRET_CLOUD_KEY=k"}, env...),
		Marker: childproc.Marker("w1", childproc.NewRun()),
	})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(p.Stdout())
	if err := p.Wait(); err != nil {
		t.Fatalf("box: %v\n%s\n%s", err, out, stderr.String())
	}
	return string(out)
}

// TestBoxFiles: the box writes its work tree and home, and nothing else of
// the host: not /etc, not the host's /tmp, not another tree, not the
// user's home, whose secrets it cannot read, not through a symlink either.
func TestBoxFiles(t *testing.T) {
	tl := tools(t)
	f := newFixture(t)
	if err := os.Symlink(filepath.Join(f.userHome, ".ssh", "id_ed25519"), filepath.Join(f.work, "key")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/", filepath.Join(f.work, "root")); err != nil {
		t.Fatal(err)
	}
	hostTmp := filepath.Join(os.TempDir(), "agentdesk-sandbox-probe-"+childproc.NewRun())
	b := newBox(t, f.options(tl, sandbox.Workspace))
	script := `
w() { if (echo x > "$1") 2>/dev/null; then echo "$2=written"; else echo "$2=refused"; fi; }
w work.txt work
w "$HOME/home.txt" home
w /etc/agentdesk-probe etc
w ` + hostTmp + ` tmp
mkdir -p ` + f.other + ` 2>/dev/null; w ` + f.other + `/x other
mkdir -p ` + f.userHome + ` 2>/dev/null; w ` + f.userHome + `/x userhome
if cat ` + f.userHome + `/.ssh/id_ed25519 2>/dev/null; then :; else echo ssh=unreadable; fi
if cat key 2>/dev/null; then :; else echo link=unreadable; fi
if cat root` + f.userHome + `/.ssh/id_ed25519 2>/dev/null; then :; else echo rootlink=unreadable; fi
`
	out := run(t, b, f.work, script)
	for _, want := range []string{"work=written", "home=written", "etc=refused", "ssh=unreadable", "link=unreadable", "rootlink=unreadable"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("box said %q, want %s", out, want)
		}
	}
	if strings.Contains(out, "SECRET") {
		t.Errorf("the box read the user's key: %q", out)
	}
	for _, p := range []string{hostTmp, filepath.Join(f.other, "x"), filepath.Join(f.userHome, "x"), "/etc/agentdesk-probe"} {
		if _, err := os.Stat(p); err == nil {
			os.Remove(p)
			t.Errorf("%s appeared on the host", p)
		}
	}
	for _, p := range []string{filepath.Join(f.work, "work.txt"), filepath.Join(f.home, "home.txt")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v (the box's write did not reach the host)", p, err)
		}
	}
}

// TestBoxEnv: the box's environment is clean: no AGENTDESK_* variable (the
// token, the marker), nothing the Spec had that is not let through, HOME
// its home; what Pass and Set name is there.
func TestBoxEnv(t *testing.T) {
	tl := tools(t)
	f := newFixture(t)
	o := f.options(tl, sandbox.Workspace)
	o.Pass, o.Set = []string{"AGENT_*"}, []string{"IS_SANDBOX=1"}
	b := newBox(t, o)
	// Every process of the box: the program, and the box's init (bwrap's
	// fork, whose environment bwrap started with).
	out := run(t, b, f.work, `env; for e in /proc/[0-9]*/environ; do tr '\0' '\n' < $e; done`, "AGENT_KEY=abc", "OTHER=no")
	for _, bad := range []string{"AGENTDESK_", "tok-secret", "SECRET_CLOUD_KEY", "OTHER="} {
		if strings.Contains(out, bad) {
			t.Errorf("the box's environment holds %s:\n%s", bad, out)
		}
	}
	for _, want := range []string{"AGENT_KEY=abc\n", "IS_SANDBOX=1\n", "HOME=" + f.home + "\n", "TMPDIR=/tmp\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the box's environment lacks %q:\n%s", want, out)
		}
	}
}

// TestForbidden: a box that would show the user's home, or what holds it,
// is refused.
func TestForbidden(t *testing.T) {
	tl := tools(t)
	f := newFixture(t)
	for _, w := range []string{f.userHome, filepath.Dir(f.userHome)} {
		o := f.options(tl, sandbox.Workspace)
		o.Writable = []string{w}
		if b, err := sandbox.New(o); !errors.Is(err, sandbox.ErrForbidden) {
			if b != nil {
				b.Close()
			}
			t.Errorf("a box writing %s: %v, want ErrForbidden", w, err)
		}
	}
}

// TestProtect: a protected path inside a writable one stays read-only.
func TestProtect(t *testing.T) {
	tl := tools(t)
	f := newFixture(t)
	hooks := filepath.Join(f.work, ".git", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	o := f.options(tl, sandbox.Workspace)
	o.Protect = []string{hooks, filepath.Join(f.work, ".git", "missing")}
	b := newBox(t, o)
	out := run(t, b, f.work, `if echo x > .git/hooks/pre-commit 2>/dev/null; then echo hook=written; else echo hook=refused; fi; echo y > .git/other && echo other=written`)
	if out != "hook=refused\nother=written\n" {
		t.Errorf("box said %q", out)
	}
	if v := b.View(); !contains(v.ReadOnly, hooks) || !contains(v.Writable, f.work) {
		t.Errorf("view %+v: want %s read-only and %s writable", v, hooks, f.work)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
