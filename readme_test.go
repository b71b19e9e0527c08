package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeNodeVersion checks the Node version the README asks for
// against the engines of every package npm ci installs (package-lock.json):
// the oldest Node the README allows must satisfy each of them, or npm ci
// warns (the pinned claude CLI asks for Node 22).
func TestReadmeNodeVersion(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Node (\d+)(?:\.(\d+))?\+`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md names no Node version (Node N+ or Node N.M+)")
	}
	have := [3]int{atoi(string(m[1])), atoi(string(m[2])), 0}

	b, err := os.ReadFile("package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	var lock struct {
		Packages map[string]struct {
			Optional bool
			Engines  struct{ Node string }
		}
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for name, p := range lock.Packages {
		if p.Optional || p.Engines.Node == "" {
			continue // not installed on every platform, or any Node
		}
		checked++
		if !satisfies(have, p.Engines.Node) {
			t.Errorf("README says Node %d.%d+, but %s asks for node %q", have[0], have[1], name, p.Engines.Node)
		}
	}
	if _, ok := lock.Packages["node_modules/@anthropic-ai/claude-code"]; !ok || checked == 0 {
		t.Fatalf("package-lock.json holds no claude CLI, or no engines (%d checked)", checked)
	}
}

// satisfies reports whether version v meets an npm range made of
// alternatives (||) of >=X.Y.Z, ^X.Y.Z or >=X.
func satisfies(v [3]int, rng string) bool {
	for alt := range strings.SplitSeq(rng, "||") {
		alt = strings.TrimSpace(alt)
		switch {
		case strings.HasPrefix(alt, ">="):
			if !less(v, parseVersion(alt[2:])) {
				return true
			}
		case strings.HasPrefix(alt, "^"):
			w := parseVersion(alt[1:])
			if v[0] == w[0] && !less(v, w) {
				return true
			}
		}
	}
	return false
}

func parseVersion(s string) [3]int {
	var v [3]int
	for i, p := range strings.SplitN(strings.TrimSpace(s), ".", 3) {
		v[i] = atoi(p)
	}
	return v
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
