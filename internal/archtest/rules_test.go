package archtest

import (
	"fmt"
	"sort"
	"strings"
)

// The import rules of docs/ARCHITECTURE.md, checked by TestImportRules.
//
// A pattern names packages: "std" is the standard library; "." is the
// module's root package, "server" or "worker/sdk" one package of the
// module, "worker/..." a package and everything under it, "..." every
// package of the module; a path whose first element has a dot
// ("github.com/labstack/echo/v4/...") names packages of other modules.
// To add a package or a rule, add a line here: a rule applies to the
// packages its pkgs match, minus except; when may is set, every import
// must match one of its patterns; no import may match mayNot.
type rule struct {
	pkgs, except []string
	may, mayNot  []string
	why          string // said when the rule is broken
}

// kinds are the worker kinds: main wires them, the edge never sees them.
var kinds = []string{"worker/chat", "worker/ptyagent", "worker/terminal", "worker/gitdiff", "worker/files", "worker/workertest"}

// drivers are the agents' drivers: the chat engine talks to them only
// through their contract, internal/agent.
var drivers = []string{"internal/agent/claude/...", "internal/agent/codex/..."}

var rules = []rule{
	{
		pkgs: []string{"server/..."},
		may: []string{"std", "worker", "worker/...", "internal/wire", "internal/hub",
			"github.com/labstack/echo/v4/...", "github.com/coder/websocket/...", "github.com/google/uuid",
			"github.com/klauspost/compress/gzhttp"}, // the edge's answers are gzipped (compress.go)
		mayNot: kinds,
		why:    "server/ is the edge: it calls the domain (worker/, not a kind) and speaks internal/wire and internal/hub only",
	},
	{
		pkgs:   []string{"worker/..."},
		mayNot: []string{".", "server/...", "cmd/..."},
		why:    "the domain imports internal/ and persist/, never the edge",
	},
	{
		pkgs:   []string{"worker/chat/..."},
		mayNot: drivers,
		why:    "the chat engine knows an agent only through its contract, internal/agent; main wires the drivers",
	},
	{
		pkgs:   []string{"internal/agent/claude/..."},
		mayNot: []string{"internal/agent/codex/...", "internal/agent/agenttest/..."},
		why:    "a driver knows its own agent and the contract, no other driver",
	},
	{
		pkgs:   []string{"internal/agent/codex/..."},
		mayNot: []string{"internal/agent/claude/...", "internal/agent/agenttest/..."},
		why:    "a driver knows its own agent and the contract, no other driver",
	},
	{
		pkgs:   []string{"internal/..."},
		mayNot: []string{".", "server/...", "worker/...", "cmd/..."},
		why:    "internal/ is machinery that knows nothing of sessions or workers",
	},
	{
		pkgs:   []string{"persist/..."},
		mayNot: []string{"..."},
		why:    "persist/ imports nothing of the project",
	},
	{
		pkgs: []string{"..."}, except: []string{"persist/..."},
		mayNot: []string{"go.etcd.io/bbolt/..."},
		why:    "only persist/ imports bbolt",
	},
	{
		pkgs: []string{"..."}, except: []string{"server/..."},
		mayNot: []string{"github.com/labstack/echo/..."},
		why:    "Echo stays inside server/",
	},
}

// imp is one import, classified: the standard library, a package of the
// module (name relative to it) or of another module (name its path).
type imp struct {
	std, own bool
	name     string
}

func classify(modPath, path string) imp {
	switch {
	case path == modPath:
		return imp{own: true, name: "."}
	case strings.HasPrefix(path, modPath+"/"):
		return imp{own: true, name: strings.TrimPrefix(path, modPath+"/")}
	case !strings.Contains(strings.Split(path, "/")[0], "."):
		return imp{std: true, name: path}
	}
	return imp{name: path}
}

// matches reports whether pattern names i.
func matches(pattern string, i imp) bool {
	if pattern == "std" {
		return i.std
	}
	external := pattern != "." && pattern != "..." && strings.Contains(strings.Split(pattern, "/")[0], ".")
	if i.std || i.own == external {
		return false
	}
	return namePattern(pattern, i.name)
}

// namePattern matches a package name against a pattern without "std".
func namePattern(pattern, name string) bool {
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return name == base || strings.HasPrefix(name, base+"/")
	}
	return name == pattern
}

func anyName(patterns []string, name string) bool {
	for _, p := range patterns {
		if namePattern(p, name) {
			return true
		}
	}
	return false
}

func anyImp(patterns []string, i imp) bool {
	for _, p := range patterns {
		if matches(p, i) {
			return true
		}
	}
	return false
}

// broken lists every import of the module's non-test code that breaks a
// rule, one line each, in a stable order.
func broken(m *module, rules []rule) []string {
	var out []string
	for _, p := range m.sorted() {
		for _, r := range rules {
			if !anyName(r.pkgs, p.rel) || anyName(r.except, p.rel) {
				continue
			}
			for path, files := range p.deps {
				i := classify(m.path, path)
				if (r.may != nil && !anyImp(r.may, i)) || anyImp(r.mayNot, i) {
					out = append(out, fmt.Sprintf("%s imports %s (%s): %s", p.rel, i.name, strings.Join(files, ", "), r.why))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
