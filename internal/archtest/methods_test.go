package archtest

import (
	"go/ast"
	"sort"
	"testing"
)

// maxMethods is the most methods a type may have (DESIGN.md): a type
// with more does several jobs and is split.
const maxMethods = 40

// exempt are the types allowed more for now, each with the reason.
var exempt = map[string]string{}

// methodCounts counts the methods declared on each named type of the
// module's non-test code ("worker.Manager" → 39), by the receivers of its
// function declarations.
func methodCounts(m *module) map[string]int {
	n := map[string]int{}
	for _, p := range m.sorted() {
		for _, f := range p.files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
					continue
				}
				if name := recvType(fd.Recv.List[0].Type); name != "" {
					n[p.rel+"."+name]++
				}
			}
		}
	}
	return n
}

// recvType is the name of a receiver's type: T, *T, T[P], *T[P].
func recvType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// TestMethodCounts: no type has more than maxMethods methods, except the
// exempt ones.
func TestMethodCounts(t *testing.T) {
	counts := methodCounts(load(t))
	if counts["worker.Manager"] == 0 {
		t.Fatal("worker.Manager has no methods: the module was not read")
	}
	var names []string
	for name := range counts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if n := counts[name]; n > maxMethods {
			if _, ok := exempt[name]; !ok {
				t.Errorf("%s has %d methods; at most %d: split it", name, n, maxMethods)
			}
		}
	}
	for name := range exempt {
		if counts[name] <= maxMethods {
			t.Errorf("%s has %d methods now: remove its exemption", name, counts[name])
		}
	}
}
