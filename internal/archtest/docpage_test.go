package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryPackageNamed: docs/ARCHITECTURE.md names every package of the
// module in backquotes, itself or under a row ending in "/..." (the test
// doubles), so a new package comes with its line on the page.
func TestEveryPackageNamed(t *testing.T) {
	m := load(t)
	root, _, err := findModule()
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	names, trees := namedOnPage(string(page))
	for _, p := range m.sorted() {
		if p.rel == "." || names[p.rel] || underAny(p.rel, trees) {
			continue
		}
		t.Errorf("docs/ARCHITECTURE.md does not name the package %s: add its row to the package table", p.rel)
	}
}

// namedOnPage returns the packages the page's package table names in a
// row's first cell, in backquotes (`worker/chat`, `server/`), and the trees
// it names whole (`internal/testkit/...`).
func namedOnPage(page string) (names map[string]bool, trees []string) {
	names = map[string]bool{}
	quoted := regexp.MustCompile("`([a-z][a-z0-9_./-]*)`")
	for _, line := range strings.Split(page, "\n") {
		cells := strings.Split(line, "|")
		if !strings.HasPrefix(line, "| `") || len(cells) < 3 {
			continue
		}
		for _, m := range quoted.FindAllStringSubmatch(cells[1], -1) {
			if tree, ok := strings.CutSuffix(m[1], "/..."); ok {
				trees = append(trees, tree)
				continue
			}
			names[strings.TrimSuffix(m[1], "/")] = true
		}
	}
	return names, trees
}

func underAny(rel string, trees []string) bool {
	for _, tree := range trees {
		if rel == tree || strings.HasPrefix(rel, tree+"/") {
			return true
		}
	}
	return false
}
