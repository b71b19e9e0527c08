package fsview_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/internal/fsview"
)

// untar reads a tar.gz into name → content (folders: "").
func untar(t *testing.T, data []byte) map[string]string {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = string(b)
	}
}

func unzip(t *testing.T, data []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = string(b)
	}
	return out
}

func keys(m map[string]string) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	slices.Sort(k)
	return k
}

// TestArchive reads back both formats of a folder with files, a subfolder,
// an empty folder, a link and a .git: the files and folders are there with
// their content, the link and .git are not, and Measure counted the same.
func TestArchive(t *testing.T) {
	f := newFixture(t)
	f.write(t, "proj/a.txt", "alpha")
	f.write(t, "proj/sub/b.bin", string(bytes.Repeat([]byte{0, 1, 2, 3}, 100_000)))
	f.write(t, "proj/.git/HEAD", "ref: x")
	if err := os.Mkdir(f.path("proj/empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.symlink(t, "a.txt", "proj/link")
	want := []string{"proj/", "proj/a.txt", "proj/empty/", "proj/sub/", "proj/sub/b.bin"}
	for _, format := range []string{fsview.FormatZip, fsview.FormatTarGz} {
		var buf bytes.Buffer
		if err := f.tree.Archive(t.Context(), &buf, "proj", format); err != nil {
			t.Fatal(err)
		}
		got := unzip
		if format == fsview.FormatTarGz {
			got = untar
		}
		files := got(t, buf.Bytes())
		if k := keys(files); !slices.Equal(k, want) {
			t.Fatalf("%s holds %q, want %q", format, k, want)
		}
		if files["proj/a.txt"] != "alpha" || len(files["proj/sub/b.bin"]) != 400_000 {
			t.Fatalf("%s: wrong content", format)
		}
	}
	size, err := f.tree.Measure(t.Context(), "proj")
	if err != nil {
		t.Fatal(err)
	}
	if want := (fsview.Size{Files: 2, Folders: 2, Bytes: 400_005, Skipped: 1}); size != want {
		t.Fatalf("Measure = %+v, want %+v", size, want)
	}
	if name := f.tree.ArchiveName(".", fsview.FormatZip); name != "tree.zip" {
		t.Fatalf("ArchiveName(.) = %q", name)
	}
}

// TestArchiveStopsWhenTheReaderGoes: a writer that fails (the client went
// away) ends the archive with its error.
func TestArchiveStopsWhenTheReaderGoes(t *testing.T) {
	f := newFixture(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		b := make([]byte, 100_000)
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		f.write(t, "d/f"+string(rune('a'+i)), string(b))
	}
	w := &failAfter{n: 50_000}
	if err := f.tree.Archive(t.Context(), w, "d", fsview.FormatTarGz); err != errGone {
		t.Fatalf("Archive = %v, want the writer's error", err)
	}
}

var errGone = io.ErrClosedPipe

type failAfter struct{ n int }

func (w *failAfter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, errGone
	}
	return len(p), nil
}
