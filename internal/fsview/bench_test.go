package fsview_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/internal/fsview"
)

// The big tree of the benchmarks is made once per run (100,000 files take
// long to create and commit); TestMain removes it.
var (
	bigOnce sync.Once
	bigDir  string
)

// bigTree is a git repository of 100,000 files: 100 folders of 1,000
// files each (a few bytes each), all committed, plus one folder of
// 10,000 files (not committed: untracked).
func bigTree(b *testing.B) string {
	bigOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fsview-bench-")
		if err != nil {
			b.Fatal(err)
		}
		for d := range 100 {
			sub := filepath.Join(dir, fmt.Sprintf("pkg%03d", d))
			if err := os.Mkdir(sub, 0o755); err != nil {
				b.Fatal(err)
			}
			for f := range 1000 {
				if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("file%04d.go", f)), []byte("package x\n"), 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
		gitIn(b, dir, "init", "-q")
		gitIn(b, dir, "add", ".")
		gitIn(b, dir, "commit", "-q", "-m", "100k files")
		wide := filepath.Join(dir, "wide")
		if err := os.Mkdir(wide, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 10_000 {
			if err := os.WriteFile(filepath.Join(wide, fmt.Sprintf("entry%05d.txt", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		bigDir = dir
	})
	if bigDir == "" {
		b.Fatal("no big tree")
	}
	return bigDir
}

func gitIn(b *testing.B, dir string, args ...string) {
	cmd := exec.Command("git", append([]string{"-c", "user.name=B", "-c", "user.email=b@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func openTree(b *testing.B, dir string) *fsview.Tree {
	t, err := fsview.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = t.Close() })
	return t
}

// BenchmarkListRootOf100kTree lists the root of a 100,000-file repository:
// the folder itself is small; git status (for the marks) is the cost.
func BenchmarkListRootOf100kTree(b *testing.B) {
	t := openTree(b, bigTree(b))
	for b.Loop() {
		page, err := t.List(b.Context(), ".", "", 0)
		if err != nil || len(page.Entries) != 101 || !page.Repo {
			b.Fatalf("%d entries, repo %v, %v", len(page.Entries), page.Repo, err)
		}
	}
}

// BenchmarkList10kFolder lists the first page (500) of a folder of 10,000
// entries, and all of it in pages of 5,000.
func BenchmarkList10kFolder(b *testing.B) {
	t := openTree(b, bigTree(b))
	b.Run("first-page", func(b *testing.B) {
		for b.Loop() {
			page, err := t.List(b.Context(), "wide", "", 0)
			if err != nil || len(page.Entries) != 500 || page.Total != 10_000 {
				b.Fatalf("%d of %d, %v", len(page.Entries), page.Total, err)
			}
		}
	})
	b.Run("all-pages", func(b *testing.B) {
		for b.Loop() {
			n, cursor := 0, ""
			for {
				page, err := t.List(b.Context(), "wide", cursor, 5000)
				if err != nil {
					b.Fatal(err)
				}
				n += len(page.Entries)
				if cursor = page.Next; cursor == "" {
					break
				}
			}
			if n != 10_000 {
				b.Fatalf("listed %d", n)
			}
		}
	})
}

// BenchmarkList10kFolderOutsideGit is the first page of a folder of
// 10,000 entries that is in no repository: the listing without git.
func BenchmarkList10kFolderOutsideGit(b *testing.B) {
	dir := b.TempDir()
	for f := range 10_000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("entry%05d.txt", f)), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	t := openTree(b, dir)
	for b.Loop() {
		page, err := t.List(b.Context(), ".", "", 0)
		if err != nil || len(page.Entries) != 500 || page.Repo {
			b.Fatalf("%d entries, repo %v, %v", len(page.Entries), page.Repo, err)
		}
	}
}

// BenchmarkView10MiB is a 10 MiB text file's first view, as the route
// sends it: its first MiB, JSON-encoded.
func BenchmarkView10MiB(b *testing.B) {
	dir := b.TempDir()
	var sb strings.Builder
	rng := rand.New(rand.NewPCG(1, 2))
	for sb.Len() < 10<<20 {
		fmt.Fprintf(&sb, "line %d: %x\n", sb.Len(), rng.Uint64())
	}
	if err := os.WriteFile(filepath.Join(dir, "big.log"), []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	t := openTree(b, dir)
	b.SetBytes(1 << 20)
	for b.Loop() {
		v, err := t.View("big.log")
		if err != nil || !v.Partial {
			b.Fatalf("%v partial %v", err, v.Partial)
		}
		if err := json.NewEncoder(io.Discard).Encode(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkArchive streams a folder of 64 MiB of pseudo-random bytes (16
// files of 4 MiB: deflate cannot shrink it, so this is the slow case) as
// each format, to a writer that discards.
func BenchmarkArchive(b *testing.B) {
	dir := b.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 4<<20)
	for i := range 16 {
		for j := 0; j < len(buf); j += 8 {
			v := rng.Uint64()
			for k := range 8 {
				buf[j+k] = byte(v >> (8 * k))
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("blob%02d.bin", i)), buf, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	t := openTree(b, dir)
	for _, format := range []string{fsview.FormatZip, fsview.FormatTarGz} {
		b.Run(format, func(b *testing.B) {
			b.SetBytes(64 << 20)
			for b.Loop() {
				if err := t.Archive(b.Context(), io.Discard, ".", format); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
