package search

import (
	"os"
	"strings"
	"testing"
)

// Messages committed to the store are found: user text, assistant text, a
// tool's name, command and path, and the session title; the snippet marks
// the matched word and escapes the text.
func TestIndexesCommittedMessages(t *testing.T) {
	e := newEnv(t)
	e.cat.set(session("s1", "Deploy notes", "w1"))
	x := e.open(nil)
	e.append("w1", "u1", userLine("please refactor the <b>frobnicator</b> module"))
	e.append("w1", "u2", assistantLine(textBlock("I will run the tests first."),
		toolBlock("Bash", map[string]any{"command": "go test ./quux/..."}),
		toolBlock("Edit", map[string]any{"file_path": "/src/zanzibar.go"})))

	h := waitHits(t, x, "frobnicator", "", 1)[0]
	if h.SessionID != "s1" || h.WorkerID != "w1" || h.UUID != "u1" || h.Role != "user" || h.CreatedAt != "2026-03-04T05:06:07Z" {
		t.Errorf("hit = %+v", h)
	}
	if !strings.Contains(h.Snippet, "&lt;b&gt;<mark>frobnicator</mark>&lt;/b&gt;") || strings.Contains(h.Snippet, "<b>") {
		t.Errorf("snippet not marked and escaped: %q", h.Snippet)
	}
	for _, q := range []string{"quux", "bash", "zanzibar", "frobni", "tests first"} {
		hits := waitHits(t, x, q, "", 1)
		if q != "frobni" && hits[0].UUID != "u2" {
			t.Errorf("%q found %+v", q, hits[0])
		}
	}
	if th := waitHits(t, x, "deploy", "", 1)[0]; th.Role != "title" || th.SessionID != "s1" || th.UUID != "" {
		t.Errorf("title hit = %+v", th)
	}
	if res, _ := x.Search("frobnicator zanzibar", 10, ""); len(res.Hits) != 0 {
		t.Errorf("every word must match, got %+v", res.Hits)
	}
}

// Messages committed while no indexer runs are indexed at the next start,
// once; a deleted index is rebuilt from the store.
func TestCatchUpAfterRestartAndRebuild(t *testing.T) {
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	x := e.open(nil)
	e.append("w1", "u1", userLine("alpha marmalade"))
	waitHits(t, x, "marmalade", "", 1)
	e.close(x)

	e.append("w1", "u2", userLine("beta marmalade"))
	e.append("w1", "u3", userLine("gamma marmalade"))
	x = e.open(nil)
	waitHits(t, x, "marmalade", "", 3)
	e.close(x)

	if err := os.RemoveAll(e.dir); err != nil {
		t.Fatal(err)
	}
	x = e.open(nil)
	hits := waitHits(t, x, "marmalade", "", 3)
	seen := map[string]bool{}
	for _, h := range hits {
		seen[h.UUID] = true
	}
	if len(seen) != 3 {
		t.Errorf("hits after rebuild: %+v", hits)
	}
}

// sessionId limits the hits to one session.
func TestSessionFilter(t *testing.T) {
	e := newEnv(t)
	e.cat.set(session("s1", "one", "w1"), session("s2", "two", "w2"))
	x := e.open(nil)
	e.append("w1", "a", userLine("kumquat in one"))
	e.append("w2", "b", userLine("kumquat in two"))
	waitHits(t, x, "kumquat", "", 2)
	hits := waitHits(t, x, "kumquat", "s2", 1)
	if hits[0].UUID != "b" {
		t.Errorf("filtered hit = %+v", hits[0])
	}
}

// A rename replaces the title's document; a deleted session takes its
// title and messages out of the index, also when it was deleted while no
// indexer ran.
func TestRenameAndDelete(t *testing.T) {
	e := newEnv(t)
	e.cat.set(session("s1", "old heading", "w1"), session("s2", "keep", "w2"))
	x := e.open(nil)
	e.append("w1", "a", userLine("persimmon one"))
	e.append("w2", "b", userLine("persimmon two"))
	waitHits(t, x, "persimmon", "", 2)
	waitHits(t, x, "heading", "", 1)

	e.cat.set(session("s1", "new caption", "w1"), session("s2", "keep", "w2"))
	waitHits(t, x, "caption", "", 1)
	waitHits(t, x, "heading", "", 0)

	e.cat.set(session("s2", "keep", "w2"))
	if h := waitHits(t, x, "persimmon", "", 1)[0]; h.UUID != "b" {
		t.Errorf("left: %+v", h)
	}
	waitHits(t, x, "caption", "", 0)

	e.close(x)
	e.cat.set()
	x = e.open(nil)
	waitHits(t, x, "persimmon", "", 0)
	waitHits(t, x, "keep", "", 0)
}

// A message where the word is the point ranks above one where it is one
// word among many, and a whole word above a longer word it starts.
func TestRanking(t *testing.T) {
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	x := e.open(nil)
	e.append("w1", "long", userLine("the build of the project uses many tools and one of them is called gizmo among others listed here"))
	e.append("w1", "short", userLine("gizmo gizmo"))
	e.append("w1", "prefix", userLine("gizmotron"))
	hits := waitHits(t, x, "gizmo", "", 3)
	if hits[0].UUID != "short" || hits[2].UUID != "prefix" {
		t.Errorf("order: %s %s %s", hits[0].UUID, hits[1].UUID, hits[2].UUID)
	}
}
