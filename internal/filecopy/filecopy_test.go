package filecopy

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func write(t *testing.T, path, text string, mtime time.Time) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNewer: a missing copy is made (0600, in a 0700 directory made for
// it); a newer src replaces it; an older or equally old src leaves what
// is there (the agent's own refresh); a missing src copies nothing; src
// is never written.
func TestNewer(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "user", "auth.json"), filepath.Join(dir, "home", "sub", "auth.json")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	write(t, src, "v1", t0)
	if err := Newer(src, dst); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dst); got != "v1" {
		t.Fatalf("first copy %q", got)
	}
	if fi, _ := os.Stat(dst); fi.Mode().Perm() != 0o600 {
		t.Fatalf("copy mode %v", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(filepath.Dir(dst)); fi.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode %v", fi.Mode().Perm())
	}

	write(t, dst, "refreshed by the agent", t0.Add(time.Hour))
	if err := Newer(src, dst); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dst); got != "refreshed by the agent" {
		t.Fatalf("an older src replaced a newer copy: %q", got)
	}
	if got := read(t, src); got != "v1" {
		t.Fatalf("src was written: %q", got)
	}

	write(t, src, "v2", t0.Add(2*time.Hour))
	if err := Newer(src, dst); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dst); got != "v2" {
		t.Fatalf("a newer src was not copied: %q", got)
	}

	if err := Newer(filepath.Join(dir, "user", "missing"), filepath.Join(dir, "home", "missing")); err != nil {
		t.Fatalf("a missing src: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "home", "missing")); !os.IsNotExist(err) {
		t.Fatalf("a missing src made a copy: %v", err)
	}
	if err := Newer(filepath.Dir(src), filepath.Join(dir, "home", "adir")); err != nil {
		t.Fatalf("a directory as src: %v", err)
	}
}

// TestNewerConcurrently: copies to the same dst at once (two chats of a
// session starting together) all succeed and leave src's whole content.
func TestNewerConcurrently(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src"), filepath.Join(dir, "home", "dst")
	text := strings.Repeat("login ", 1<<14)
	for round := range 20 {
		write(t, src, text, time.Date(2026, 1, 1, round, 0, 0, 0, time.UTC))
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() { errs <- Newer(src, dst) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if got := read(t, dst); got != text {
			t.Fatalf("round %d: dst holds %d bytes, want %d", round, len(got), len(text))
		}
	}
}
