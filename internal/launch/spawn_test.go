package launch_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// spawners are the functions that start a process, by import path: only
// this package may call them (tests, test doubles and tools aside).
var spawners = map[string]map[string]bool{
	"os/exec":               {"Command": true, "CommandContext": true, "Cmd": true},
	"os":                    {"StartProcess": true},
	"syscall":               {"ForkExec": true, "StartProcess": true, "Exec": true},
	"golang.org/x/sys/unix": {"Exec": true},
	"github.com/creack/pty": {"Start": true, "StartWithSize": true, "StartWithAttrs": true},
}

// spawns lists the places in f that start a process without a Launcher.
func spawns(fset *token.FileSet, f *ast.File) []string {
	names := map[string]string{} // local name → import path
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		if spawners[path] == nil {
			continue
		}
		name := path[strings.LastIndexByte(path, '/')+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		names[name] = path
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && spawners[names[x.Name]][sel.Sel.Name] {
			out = append(out, fset.Position(sel.Pos()).String()+": "+x.Name+"."+sel.Sel.Name)
		}
		return true
	})
	return out
}

// exempt are the trees that may start processes on their own.
func exempt(rel string) bool {
	for _, dir := range []string{"internal/launch", "internal/testkit", "cmd", "node_modules", "frontend", ".git"} {
		if rel == dir || strings.HasPrefix(rel, dir+"/") {
			return true
		}
	}
	return strings.HasSuffix(rel, "_test.go") || strings.Contains(rel, "/testdata/")
}

// TestOneSpawnPoint: no package but this one calls exec.Command,
// exec.CommandContext, os.StartProcess, syscall.ForkExec or a creack/pty
// Start, nor uses an exec.Cmd: every process agentdesk starts goes
// through a Launcher.
func TestOneSpawnPoint(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	var found []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if exempt(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(rel, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		found = append(found, spawns(fset, f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("checked %d files under %s: the walk missed the module", files, root)
	}
	for _, s := range found {
		t.Errorf("%s starts a process without the launcher (internal/launch)", s)
	}
}

// TestSpawnsFinds: the check sees every way of starting a process,
// renamed imports included, and nothing else.
func TestSpawnsFinds(t *testing.T) {
	src := `package x
import (
	"os"
	ex "os/exec"
	creack "github.com/creack/pty"
	"syscall"
)
func f() {
	_ = ex.Command("a")
	_ = ex.CommandContext(nil, "a")
	_ = &ex.Cmd{Path: "a"}
	_, _ = creack.StartWithSize(nil, nil)
	_, _ = os.StartProcess("a", nil, nil)
	_, _ = syscall.ForkExec("a", nil, nil)
	_ = os.Getpid()
	var err *ex.ExitError
	_ = err
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	got := spawns(fset, f)
	want := []string{"ex.Command", "ex.CommandContext", "ex.Cmd", "creack.StartWithSize", "os.StartProcess", "syscall.ForkExec"}
	if len(got) != len(want) {
		t.Fatalf("found %q, want %q", got, want)
	}
	for i, w := range want {
		if !strings.HasSuffix(got[i], ": "+w) {
			t.Errorf("finding %d = %q, want %s", i, got[i], w)
		}
	}
}
