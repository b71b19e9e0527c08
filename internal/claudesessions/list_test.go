package claudesessions

import (
	"os"
	"testing"
	"time"
)

func TestProjectsAndSessions(t *testing.T) {
	config := t.TempDir()
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	writeSession(t, config, "-work-a", "a1", t0, sessionLines(t, "/work/a", "first in a1", "second")...)
	a2 := append(sessionLines(t, "/work/a", "<command-name>/clear</command-name>", "real prompt\nmore"),
		mustJSON(t, map[string]any{"type": "ai-title", "aiTitle": "AI named it"}))
	writeSession(t, config, "-work-a", "a2", t0.Add(2*time.Hour), a2...)
	b1 := append(sessionLines(t, "/work/b", "in b"),
		mustJSON(t, map[string]any{"type": "ai-title", "aiTitle": "AI named it"}),
		mustJSON(t, map[string]any{"type": "custom-title", "customTitle": "Mine"}))
	writeSession(t, config, "-work-b", "b1", t0.Add(time.Hour), b1...)
	// Another directory whose slug collides with /work/a's.
	writeSession(t, config, "-work-a-", "c1", t0, sessionLines(t, "/work/a?", "elsewhere")...)

	ps, err := Projects(config)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 || ps[0].Cwd != "/work/a" || ps[0].Sessions != 2 || !ps[0].LastActivity.Equal(t0.Add(2*time.Hour)) || ps[1].Cwd != "/work/b" {
		t.Fatalf("projects: %+v", ps)
	}

	ss, err := Sessions(config, "/work/a")
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 2 {
		t.Fatalf("sessions: %+v", ss)
	}
	if s := ss[0]; s.ID != "a2" || s.Title != "AI named it" || s.FirstPrompt != "real prompt\nmore" || s.Messages != 2 {
		t.Fatalf("newest: %+v", s)
	}
	if s := ss[1]; s.ID != "a1" || s.Title != "first in a1" || s.FirstPrompt != "first in a1" || s.Messages != 2 {
		t.Fatalf("older: %+v", s)
	}
	if ss, _ := Sessions(config, "/work/b"); len(ss) != 1 || ss[0].Title != "Mine" || ss[0].Messages != 1 {
		t.Fatalf("b: %+v", ss)
	}
	if ps, err := Projects(t.TempDir()); err != nil || len(ps) != 0 {
		t.Fatalf("no projects dir: %v %v", ps, err)
	}
}

// TestBigFileIsNotReadWhole lists a 200 MB session file (sparse: its
// middle is a hole) and checks that only its head and tail were read.
func TestBigFileIsNotReadWhole(t *testing.T) {
	config := t.TempDir()
	lines := sessionLines(t, "/work/big", "the first prompt")
	p := writeSession(t, config, "-work-big", "big", time.Now(), lines...)
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	tail := "\n" + mustJSON(t, map[string]any{"type": "user", "cwd": "/work/big", "message": map[string]any{"content": "late"},
		"turnPosition": map[string]int{"promptIndex": 41}}) + "\n" + mustJSON(t, map[string]any{"type": "ai-title", "aiTitle": "Big one"}) + "\n"
	if _, err := f.WriteAt([]byte(tail), 200<<20); err != nil {
		t.Fatal(err)
	}
	f.Close()

	before := bytesRead.Load()
	ss, err := Sessions(config, "/work/big")
	if err != nil {
		t.Fatal(err)
	}
	read := bytesRead.Load() - before
	if len(ss) != 1 || ss[0].Title != "Big one" || ss[0].FirstPrompt != "the first prompt" || ss[0].Messages != 42 {
		t.Fatalf("big: %+v", ss)
	}
	if read > 4*readMax {
		t.Fatalf("read %d bytes of a 200 MB file", read)
	}
}
