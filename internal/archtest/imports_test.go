package archtest

import (
	"slices"
	"strings"
	"testing"
)

// TestImportRules: no non-test import of the module breaks a rule of
// rules_test.go.
func TestImportRules(t *testing.T) {
	m := load(t)
	if len(m.pkgs) < 10 {
		t.Fatalf("found only %d packages: the module was not read", len(m.pkgs))
	}
	for _, line := range broken(m, rules) {
		t.Error(line)
	}
}

// TestRulesCatchBreaks: the check itself finds each kind of broken import
// in a made-up module, and only those.
func TestRulesCatchBreaks(t *testing.T) {
	const mod = "example.com/app"
	fake := &module{path: mod, pkgs: map[string]*pkg{}}
	add := func(rel string, imports ...string) {
		p := &pkg{rel: rel, deps: map[string][]string{}}
		for _, i := range imports {
			p.deps[i] = []string{"x.go"}
		}
		fake.pkgs[rel] = p
	}
	add("server", "net/http", mod+"/worker", mod+"/worker/review", mod+"/internal/wire", mod+"/internal/hub",
		"github.com/labstack/echo/v4", "github.com/coder/websocket", "github.com/google/uuid",
		mod+"/internal/claude", mod+"/worker/chat", "github.com/fsnotify/fsnotify", mod+"/persist")
	add("worker", "context", mod+"/internal/gitrepo", mod+"/persist", "github.com/google/uuid", mod+"/server", "go.etcd.io/bbolt")
	add("worker/attention", mod+"/worker", mod+"/internal/wire")
	add("internal/search", mod+"/persist", mod+"/internal/hub", mod+"/worker", "github.com/labstack/echo/v4/middleware")
	add("persist", "go.etcd.io/bbolt", "go.etcd.io/bbolt/errors", mod+"/internal/wire")
	add(".", mod+"/server", mod+"/worker/chat", mod+"/persist")
	add("worker/chat", mod+"/worker", mod+"/internal/agent", mod+"/internal/agent/claude")
	add("internal/agent/claude", mod+"/internal/agent", mod+"/internal/launch", mod+"/internal/agent/codex")

	got := broken(fake, rules)
	want := []string{
		"internal/agent/claude imports internal/agent/codex",
		"internal/search imports github.com/labstack/echo/v4/middleware",
		"internal/search imports worker",
		"persist imports internal/wire",
		"server imports github.com/fsnotify/fsnotify",
		"server imports internal/claude",
		"server imports persist",
		"server imports worker/chat",
		"worker imports go.etcd.io/bbolt",
		"worker imports server",
		"worker/chat imports internal/agent/claude",
	}
	var heads []string
	for _, line := range got {
		head, _, _ := strings.Cut(line, " (")
		heads = append(heads, head)
	}
	if !slices.Equal(heads, want) {
		t.Fatalf("broken imports found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
