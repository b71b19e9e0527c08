package claudesessions

import (
	"os"
	"strings"
	"testing"
	"time"
)

// answers returns assistant lines of about 1 KB, bytes long in all.
func answers(t *testing.T, bytes int) []string {
	t.Helper()
	a := mustJSON(t, map[string]any{"type": "assistant", "cwd": "/work/t",
		"message": map[string]any{"content": []map[string]string{{"type": "text", "text": strings.Repeat("y", 900)}}}})
	out := make([]string, 0, bytes/len(a)+1)
	for n := 0; n < bytes; n += len(a) + 1 {
		out = append(out, a)
	}
	return out
}

// TestNoTitleTailIsReadOnce lists a 2 MB file whose tail holds no title
// and no turn line: the tail reader looks as far back as it may, but reads
// each byte once (it used to read it again at every doubling: 2 MiB).
func TestNoTitleTailIsReadOnce(t *testing.T) {
	forgetSummaries()
	config := t.TempDir()
	lines := append(sessionLines(t, "/work/t", "the prompt")[:2], answers(t, 2<<20)...)
	writeSession(t, config, "-work-t", "s1", time.Now(), lines...)

	before := bytesRead.Load()
	ss, err := Sessions(config, "/work/t")
	if err != nil || len(ss) != 1 || ss[0].FirstPrompt != "the prompt" || ss[0].Title != "the prompt" {
		t.Fatalf("listing: %+v %v", ss, err)
	}
	if read := bytesRead.Load() - before; read > readMax+readStart {
		t.Fatalf("read %d bytes; want at most %d (the tail once, the head's first chunk)", read, readMax+readStart)
	}
}

// TestListingRereadsOnlyChangedFiles lists twice: the second listing reads
// nothing, until a file grows; then it reads that file and shows its news.
func TestListingRereadsOnlyChangedFiles(t *testing.T) {
	forgetSummaries()
	config := t.TempDir()
	t0 := time.Now().Add(-time.Hour)
	writeSession(t, config, "-work-t", "s1", t0, sessionLines(t, "/work/t", "one")...)
	p := writeSession(t, config, "-work-t", "s2", t0.Add(time.Second), sessionLines(t, "/work/t", "two")...)
	if ss, err := Sessions(config, "/work/t"); err != nil || len(ss) != 2 {
		t.Fatalf("first listing: %+v %v", ss, err)
	}

	before := bytesRead.Load()
	if ss, err := Sessions(config, "/work/t"); err != nil || len(ss) != 2 || ss[0].Title != "two" {
		t.Fatalf("second listing: %+v %v", ss, err)
	}
	if read := bytesRead.Load() - before; read != 0 {
		t.Fatalf("an unchanged listing read %d bytes", read)
	}

	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(mustJSON(t, map[string]any{"type": "custom-title", "customTitle": "Renamed"}) + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ss, err := Sessions(config, "/work/t")
	if err != nil || len(ss) != 2 {
		t.Fatalf("third listing: %+v %v", ss, err)
	}
	var titles []string
	for _, s := range ss {
		titles = append(titles, s.Title)
	}
	if strings.Join(titles, ",") != "Renamed,one" {
		t.Fatalf("titles after a rename: %v", titles)
	}
}

// TestTailAcrossChunks puts the last turn line and the title where the
// backward reader meets them cut by its chunk edges: a 100 KB turn line
// ending 40 KB before the end, a title 300 KB before it.
func TestTailAcrossChunks(t *testing.T) {
	config := t.TempDir()
	lines := sessionLines(t, "/work/t", "first")[:2]
	lines = append(lines, mustJSON(t, map[string]any{"type": "ai-title", "aiTitle": "Deep title"}))
	lines = append(lines, answers(t, 300<<10)...)
	lines = append(lines, mustJSON(t, map[string]any{"type": "user", "cwd": "/work/t",
		"message": map[string]any{"content": strings.Repeat("z", 100<<10)}, "turnPosition": map[string]int{"promptIndex": 6}}))
	lines = append(lines, answers(t, 40<<10)...)
	p := writeSession(t, config, "-work-t", "s1", time.Now(), lines...)
	s, err := Summarize(p)
	if err != nil || s.Messages != 7 || s.Title != "first" {
		t.Fatalf("turn line across chunks: %+v %v", s, err)
	}

	// Without the late turn line, the reader goes on back to the title
	// (and the first prompt's turn line beside it).
	lines = append(lines[:3], answers(t, 440<<10)...)
	p = writeSession(t, config, "-work-t", "s2", time.Now(), lines...)
	if s, err := Summarize(p); err != nil || s.Messages != 1 || s.Title != "Deep title" {
		t.Fatalf("title 440 KB back: %+v %v", s, err)
	}
}
