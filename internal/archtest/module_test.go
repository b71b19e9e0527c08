package archtest

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// pkg is one package of the module, as its source says.
type pkg struct {
	rel   string              // its path inside the module: "." for the root, "worker/sdk"
	dir   string              // its directory
	files []*ast.File         // non-test files
	tests []*ast.File         // _test.go files
	deps  map[string][]string // import path of a non-test import → the files importing it
}

// module is the parsed module: its path (go.mod) and its packages by rel.
type module struct {
	path string
	fset *token.FileSet
	pkgs map[string]*pkg
}

var (
	loadOnce sync.Once
	loaded   *module
	loadErr  error
)

// load parses every Go file of the module once, for every test here.
func load(t *testing.T) *module {
	t.Helper()
	loadOnce.Do(func() { loaded, loadErr = parseModule() })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

// skipDir is a directory that holds no package of the module's own.
func skipDir(name string) bool {
	return name == "node_modules" || name == "testdata" || name == "frontend" || name == "e2e" ||
		strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

func parseModule() (*module, error) {
	root, modPath, err := findModule()
	if err != nil {
		return nil, err
	}
	m := &module{path: modPath, fset: token.NewFileSet(), pkgs: map[string]*pkg{}}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		return m.addFile(root, p)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (m *module) addFile(root, p string) error {
	f, err := parser.ParseFile(m.fset, p, nil, parser.SkipObjectResolution|parser.ParseComments)
	if err != nil {
		return fmt.Errorf("parse %s: %w", p, err)
	}
	dir := filepath.Dir(p)
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return err
	}
	rel = filepath.ToSlash(rel)
	pk := m.pkgs[rel]
	if pk == nil {
		pk = &pkg{rel: rel, dir: dir, deps: map[string][]string{}}
		m.pkgs[rel] = pk
	}
	if strings.HasSuffix(p, "_test.go") {
		pk.tests = append(pk.tests, f)
		return nil
	}
	pk.files = append(pk.files, f)
	for _, im := range f.Imports {
		path, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			return fmt.Errorf("%s: import %s: %w", p, im.Path.Value, err)
		}
		pk.deps[path] = append(pk.deps[path], filepath.Base(p))
	}
	return nil
}

// findModule walks up from the working directory to go.mod and returns
// its directory and the module path it declares.
func findModule() (string, string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", "", err
	}
	for {
		f, err := os.Open(filepath.Join(dir, "go.mod"))
		if err == nil {
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if p, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
					return dir, strings.TrimSpace(p), nil
				}
			}
			return "", "", fmt.Errorf("%s/go.mod names no module", dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// sorted returns the module's packages in path order.
func (m *module) sorted() []*pkg {
	out := make([]*pkg, 0, len(m.pkgs))
	for _, p := range m.pkgs {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out
}
