package archtest

import (
	"go/ast"
	"testing"
)

// TestGoleakEverywhere: every package with tests checks in its TestMain
// that its tests leave no goroutine behind (go.uber.org/goleak), also a
// package whose tests start none today, so that no leak creeps in later.
func TestGoleakEverywhere(t *testing.T) {
	for _, p := range load(t).sorted() {
		if len(p.tests) == 0 {
			continue
		}
		main, funcs := testFuncs(p.tests)
		switch {
		case main == nil:
			t.Errorf("%s has tests but no TestMain: add one with goleak.VerifyTestMain(m)", p.rel)
		case !usesGoleak(main.Body, funcs, 2):
			t.Errorf("%s: TestMain does not check for leaked goroutines: use goleak.VerifyTestMain(m) or goleak.Find", p.rel)
		}
	}
}

// testFuncs returns a package's TestMain and every function its test
// files declare, by name.
func testFuncs(files []*ast.File) (*ast.FuncDecl, map[string]*ast.FuncDecl) {
	var main *ast.FuncDecl
	funcs := map[string]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				funcs[fd.Name.Name] = fd
				if fd.Name.Name == "TestMain" {
					main = fd
				}
			}
		}
	}
	return main, funcs
}

// usesGoleak reports whether body calls into goleak, itself or through
// the package's own functions it calls, depth levels deep.
func usesGoleak(body ast.Node, funcs map[string]*ast.FuncDecl, depth int) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && id.Name == "goleak" {
				found = true
			}
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && depth > 0 {
				if fd := funcs[id.Name]; fd != nil && fd.Name.Name != "TestMain" {
					found = found || usesGoleak(fd.Body, funcs, depth-1)
				}
			}
		}
		return !found
	})
	return found
}
