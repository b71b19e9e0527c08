package chat_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The seam between the chat engine and its drivers (docs/ARCHITECTURE.md,
// "Adding an agent"), checked on the source: the engine imports no
// driver, the Claude driver nothing of the engine but the contract, the
// CLI's protocol words live in the driver only (and the engine's files
// form layers around a small Runtime: layers_test.go).

const module = "github.com/agentdesk/agentdesk/"

// parseDir parses the non-test Go files of dir (relative to this
// package), with comments.
func parseDir(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, p := range pkgs {
		for _, f := range p.Files {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	return files
}

// projectImports returns the project packages the files import, without
// the module prefix, and a file that imports each.
func projectImports(files []*ast.File, fset *token.FileSet) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if rest, ok := strings.CutPrefix(path, module); ok {
				out[rest] = filepath.Base(fset.Position(f.Pos()).Filename)
			}
		}
	}
	return out
}

// TestEngineImportsNoDriver: the engine knows agents only through the
// contract (internal/agent); it imports no driver and no package about
// one particular agent.
func TestEngineImportsNoDriver(t *testing.T) {
	fset := token.NewFileSet()
	for path, file := range projectImports(parseDir(t, fset, "."), fset) {
		if strings.HasPrefix(path, "internal/agent/") || path == "internal/claudesessions" {
			t.Errorf("%s imports %s: the engine may know an agent only through internal/agent", file, path)
		}
	}
}

// driverMayImport are the project packages the Claude driver may use:
// the contract and machinery that knows no session or worker (the tool
// bridge's MCP host, which the driver runs for its CLI, and the process
// plumbing every driver shares, among them).
var driverMayImport = []string{
	"internal/agent", "internal/agent/agentproc", "internal/launch", "internal/childproc", "internal/jsonscan",
	"internal/attach", "internal/wire", "internal/claudesessions", "internal/toolbridge",
}

// TestDriverImportsContractOnly: the Claude driver imports nothing of the
// engine (worker/…), the edge or the store, and no other driver.
func TestDriverImportsContractOnly(t *testing.T) {
	fset := token.NewFileSet()
	for path, file := range projectImports(parseDir(t, fset, "../../internal/agent/claude"), fset) {
		if !slices.Contains(driverMayImport, path) {
			t.Errorf("the Claude driver's %s imports %s; it may import only %v", file, path, driverMayImport)
		}
	}
}

// protocolWords are the words of the claude CLI's protocol (claude-cli.md):
// only its driver may say them. "initialize" and "interrupt" are plain
// English too: they count as a Go string literal only.
var (
	protocolWords = regexp.MustCompile(`\b(can_use_tool|control_request|control_response|control_cancel_request|` +
		`set_permission_mode|set_model|mcp_message|isReplay|permission_suggestions|command_lifecycle)\b`)
	protocolLiterals = regexp.MustCompile(`"(initialize|interrupt)"`)
)

// protocolExempt are the trees that may speak the protocol: the driver,
// and the fake CLI of the tests.
func protocolExempt(rel string) bool {
	return under(rel, "internal/agent/claude", "internal/testkit", "node_modules", "frontend", ".git", "testdata")
}

// otherProtocols are the trees that speak a JSON-RPC protocol of their own
// (MCP's, an agent's app-server) whose requests are called "initialize" too:
// the literals are theirs, the control words still are not.
func otherProtocols(rel string) bool {
	return under(rel, "internal/toolbridge", "internal/agent/codex")
}

func under(rel string, dirs ...string) bool {
	for _, dir := range dirs {
		if rel == dir || strings.HasPrefix(rel, dir+"/") || strings.Contains(rel, "/"+dir+"/") {
			return true
		}
	}
	return false
}

// TestProtocolWordsOnlyInDriver: no Go file outside the Claude driver (and
// the fake CLI) names a word of the CLI's protocol, not even in a comment.
func TestProtocolWordsOnlyInDriver(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if protocolExempt(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for i, line := range strings.Split(string(data), "\n") {
			if w := protocolWords.FindString(line); w != "" {
				t.Errorf("%s:%d names %q, a word of the claude CLI's protocol: it belongs in internal/agent/claude", rel, i+1, w)
			}
			if w := protocolLiterals.FindString(line); w != "" && !otherProtocols(rel) {
				t.Errorf("%s:%d says %s, a request of the claude CLI's protocol: it belongs in internal/agent/claude", rel, i+1, w)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("checked only %d files under %s", files, root)
	}
}
