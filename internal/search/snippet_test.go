package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The snippet shows a short text whole; a long one from a little before
// the first match, with "…" where it was cut; matched words are marked,
// the rest escaped.
func TestSnippet(t *testing.T) {
	e := newEnv(t)
	x := e.open(nil)
	plan := func(q string) *queryPlan {
		p, err := x.plan(q, "")
		if err != nil || p == nil {
			t.Fatalf("plan %q: %v", q, err)
		}
		return p
	}
	if got := snippet(x, "Quarterly <zeppelin> report", plan("zeppelin")); got != "Quarterly &lt;<mark>zeppelin</mark>&gt; report" {
		t.Errorf("short: %q", got)
	}
	long := strings.Repeat("filler words here ", 20) + "the Needle & the needles " + strings.Repeat("tail words ", 40)
	got := snippet(x, long, plan("needle"))
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") ||
		!strings.Contains(got, "the <mark>Needle</mark> &amp; the <mark>needles</mark> tail") {
		t.Errorf("long: %q", got)
	}
	if n := len([]rune(got)); n > snippetRunes+len("<mark></mark>")*2+10 {
		t.Errorf("long snippet of %d runes: %q", n, got)
	}
	if got := snippet(x, "needles", plan("needle more")); got != "needles" {
		t.Errorf("only the last word matches as a prefix: %q", got)
	}
}

// An index directory that cannot be opened is rebuilt from the store.
func TestUnreadableIndexIsRebuilt(t *testing.T) {
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	e.append("w1", "u1", userLine("nectarine"))
	path := filepath.Join(e.dir, "index.bleve")
	if err := os.MkdirAll(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "index_meta.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	x := e.open(nil)
	if h := waitHits(t, x, "nectarine", "", 1)[0]; h.UUID != "u1" {
		t.Errorf("hit = %+v", h)
	}
}
