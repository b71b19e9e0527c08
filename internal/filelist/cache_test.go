package filelist

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// countingList is List that counts its calls.
func countingList(n *atomic.Int32) func(context.Context, string) ([]string, error) {
	return func(ctx context.Context, dir string) ([]string, error) {
		n.Add(1)
		return List(ctx, dir)
	}
}

func TestCacheReusesUntilStampChanges(t *testing.T) {
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	writeFiles(t, repo, "a.go", "sub/b.go")
	git(t, repo, "add", ".")
	var n atomic.Int32
	c := NewCache(&CacheOptions{TTL: time.Hour, List: countingList(&n)})
	for range 3 {
		if _, err := c.Index(t.Context(), repo); err != nil {
			t.Fatal(err)
		}
	}
	if n.Load() != 1 {
		t.Fatalf("3 queries listed %d times, want 1", n.Load())
	}
	// A new file in the root changes the directory's mtime.
	writeFiles(t, repo, "c.go")
	idx, err := c.Index(t.Context(), repo)
	if err != nil {
		t.Fatal(err)
	}
	if got := idx.Rank("c.go", 1); !slices.Equal(got, []string{"c.go"}) || n.Load() != 2 {
		t.Fatalf("after a new root file: Rank = %q, listings %d; want [c.go], 2", got, n.Load())
	}
	// git add in a subdirectory changes only the index.
	writeFiles(t, repo, "sub/d.go")
	git(t, repo, "add", "sub/d.go")
	idx, err = c.Index(t.Context(), repo)
	if err != nil {
		t.Fatal(err)
	}
	if got := idx.Rank("d.go", 1); !slices.Equal(got, []string{"sub/d.go"}) || n.Load() != 3 {
		t.Fatalf("after git add: Rank = %q, listings %d; want [sub/d.go], 3", got, n.Load())
	}
}

func TestCacheTTL(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, "a.go")
	var n atomic.Int32
	c := NewCache(&CacheOptions{TTL: time.Nanosecond, List: countingList(&n)})
	// Deep in the tree no stamp changes: only the TTL brings it in.
	writeFiles(t, dir, "deep/er/x.go")
	if _, err := c.Index(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, "deep/er/y.go")
	idx, err := c.Index(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := idx.Rank("y.go", 1); !slices.Equal(got, []string{"deep/er/y.go"}) || n.Load() != 2 {
		t.Fatalf("after the TTL: Rank = %q, listings %d", got, n.Load())
	}
}

// A failed or slow listing falls back to the previous one; without one it
// is an error (a timeout here), never a hang.
func TestCacheSlowListing(t *testing.T) {
	dir := t.TempDir()
	slow := atomic.Bool{}
	list := func(ctx context.Context, d string) ([]string, error) {
		if slow.Load() {
			<-ctx.Done() // a git that never answers
			return nil, ctx.Err()
		}
		return []string{"a.go"}, nil
	}
	c := NewCache(&CacheOptions{TTL: time.Nanosecond, Timeout: 50 * time.Millisecond, List: list})
	if _, err := c.Index(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	slow.Store(true)
	idx, err := c.Index(t.Context(), dir)
	if err != nil || !slices.Equal(idx.Rank("", 5), []string{"a.go"}) {
		t.Fatalf("slow listing with a previous one: %v, %v", idx, err)
	}
	other := filepath.Join(dir, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Index(t.Context(), other); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow first listing: err = %v, want DeadlineExceeded", err)
	}
}

// While one caller lists, another gets the previous listing at once.
func TestCacheServesPreviousWhileListing(t *testing.T) {
	dir := t.TempDir()
	started, release := make(chan struct{}), make(chan struct{})
	var n atomic.Int32
	list := func(ctx context.Context, d string) ([]string, error) {
		if n.Add(1) == 2 {
			close(started)
			<-release
			return []string{"new.go"}, nil
		}
		return []string{"old.go"}, nil
	}
	c := NewCache(&CacheOptions{TTL: time.Nanosecond, List: list})
	if _, err := c.Index(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	done := make(chan []string)
	go func() {
		idx, _ := c.Index(context.Background(), dir)
		done <- idx.Rank("", 5)
	}()
	<-started
	idx, err := c.Index(t.Context(), dir)
	if err != nil || !slices.Equal(idx.Rank("", 5), []string{"old.go"}) {
		t.Fatalf("during a listing: %v, %v; want the previous listing", idx, err)
	}
	close(release)
	if got := <-done; !slices.Equal(got, []string{"new.go"}) {
		t.Fatalf("the listing caller got %q", got)
	}
}

func TestCacheEvicts(t *testing.T) {
	var n atomic.Int32
	c := NewCache(&CacheOptions{TTL: time.Hour, MaxDirs: 2, List: func(context.Context, string) ([]string, error) {
		n.Add(1)
		return nil, nil
	}})
	a, b, d := t.TempDir(), t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b, d, a} {
		if _, err := c.Index(t.Context(), dir); err != nil {
			t.Fatal(err)
		}
	}
	if n.Load() != 4 || len(c.m) != 2 {
		t.Fatalf("listings %d, entries %d; want 4 (a was evicted), 2", n.Load(), len(c.m))
	}
}
