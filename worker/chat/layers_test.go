package chat_test

import (
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Limits of the engine's shape (issue 23).
const (
	maxRuntimeMethods = 40
	maxRuntimeMutexes = 2
)

// TestEngineLayers: the engine's files form layers: when a file uses a
// name (a type, function, method, field, constant or variable) declared
// in another, that other file uses none of its names. And its Runtime is
// small: at most 40 methods and 2 mutexes of its own; the rest lives in
// parts with their own locks.
func TestEngineLayers(t *testing.T) {
	fset := token.NewFileSet()
	files := parseDir(t, fset, ".")
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("chat", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	arrows := fileArrows(fset, pkg, info)
	for _, a := range bothWays(arrows) {
		t.Errorf("%s and %s use names of each other: %s", a[0], a[1], strings.Join(arrows[a], "; "))
	}
	obj := pkg.Scope().Lookup("Runtime")
	if obj == nil {
		t.Fatal("no Runtime")
	}
	named := obj.Type().(*types.Named)
	if n := named.NumMethods(); n > maxRuntimeMethods {
		t.Errorf("Runtime has %d methods, at most %d: move the work into a part", n, maxRuntimeMethods)
	}
	st := named.Underlying().(*types.Struct)
	mutexes := 0
	for f := range st.Fields() {
		if s := f.Type().String(); s == "sync.Mutex" || s == "sync.RWMutex" {
			mutexes++
		}
	}
	if mutexes > maxRuntimeMutexes {
		t.Errorf("Runtime has %d mutexes, at most %d", mutexes, maxRuntimeMutexes)
	}
	t.Logf("%d files, %d file-to-file arrows; Runtime: %d methods, %d mutexes, %d fields",
		len(files), len(arrows), named.NumMethods(), mutexes, st.NumFields())
}

// fileArrows maps every pair (file that uses, file that declares) of the
// package to a few of the names it uses.
func fileArrows(fset *token.FileSet, pkg *types.Package, info *types.Info) map[[2]string][]string {
	arrows := map[[2]string][]string{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if from == to {
			continue
		}
		k := [2]string{from, to}
		if len(arrows[k]) < 3 && !slices.Contains(arrows[k], obj.Name()) {
			arrows[k] = append(arrows[k], obj.Name())
		}
	}
	return arrows
}

// bothWays returns the pairs of files with arrows in both directions,
// sorted, each once.
func bothWays(arrows map[[2]string][]string) [][2]string {
	var out [][2]string
	for a := range arrows {
		if a[0] < a[1] {
			if _, ok := arrows[[2]string{a[1], a[0]}]; ok {
				out = append(out, a)
			}
		}
	}
	slices.SortFunc(out, func(x, y [2]string) int { return strings.Compare(x[0]+x[1], y[0]+y[1]) })
	return out
}
