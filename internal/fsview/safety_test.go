package fsview_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/internal/fsview"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// codeOf is the wire code an error maps to: a CodeError's, else by its
// sentinel.
func codeOf(err error) wire.Code {
	var ce *wire.CodeError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ce):
		return ce.Code
	case errors.Is(err, wire.ErrNotFound):
		return wire.CodeNotFound
	case errors.Is(err, wire.ErrInvalid):
		return wire.CodeInvalidField
	case errors.Is(err, wire.ErrConflict), errors.Is(err, wire.ErrStale):
		return wire.CodeConflict
	}
	return wire.CodeInternal
}

func TestCleanRefusesWhatLeavesTheTree(t *testing.T) {
	cases := []struct {
		in   string
		want wire.Code
	}{
		{"/etc/passwd", wire.CodeInvalidField},
		{"..", wire.CodeInvalidField},
		{"../outside/secret.txt", wire.CodeInvalidField},
		{"a/../../outside", wire.CodeInvalidField},
		{"a//b", wire.CodeInvalidField},
		{"a/./b", wire.CodeInvalidField},
		{"a/", wire.CodeInvalidField},
		{"a\x00b", wire.CodeInvalidField},
		{".git/config", wire.CodeNotFound},
		{"sub/.git", wire.CodeNotFound},
		{strings.Repeat("n", 256), wire.CodeInvalidField},
		{strings.Repeat("a/", 2100), wire.CodeInvalidField},
	}
	for _, c := range cases {
		if _, err := fsview.Clean(c.in); codeOf(err) != c.want {
			t.Errorf("Clean(%q) = %v, want code %s", c.in, err, c.want)
		}
	}
	for _, ok := range []string{"", ".", "a", "a/b.txt", ".gitignore", "x/.github/ci.yml", "..hidden", "a..b"} {
		if _, err := fsview.Clean(ok); err != nil {
			t.Errorf("Clean(%q) = %v, want it accepted", ok, err)
		}
	}
}

// TestSymlinksOutAndIn: a link that stays inside the tree is followed for
// reading; one that leads out (relative, absolute, to a file, to a folder,
// in the middle of a path) is refused by every operation, and the listing
// says where each link points.
func TestSymlinksOutAndIn(t *testing.T) {
	f := newFixture(t)
	f.write(t, "a/b.txt", "inside")
	f.symlink(t, "a/b.txt", "in-file")
	f.symlink(t, "a", "in-dir")
	f.symlink(t, "../outside/secret.txt", "out-file")
	f.symlink(t, "../outside", "out-dir")
	f.symlink(t, filepath.Join(f.outside, "secret.txt"), "abs-file")
	f.symlink(t, "nowhere", "broken")
	ctx := t.Context()

	for _, p := range []string{"in-file", "in-dir/b.txt"} {
		file, err := f.tree.Open(p)
		if err != nil {
			t.Fatalf("Open(%s): %v", p, err)
		}
		if string(file.Data) != "inside" {
			t.Fatalf("Open(%s) = %q", p, file.Data)
		}
		file.Close()
	}
	if page, err := f.tree.List(ctx, "in-dir", "", 0); err != nil || len(page.Entries) != 1 {
		t.Fatalf("List(in-dir) = %+v, %v", page, err)
	}

	refused := map[string]func() error{
		"open a link out":           func() error { _, err := f.tree.Open("out-file"); return err },
		"open an absolute link":     func() error { _, err := f.tree.Open("abs-file"); return err },
		"open through a folder out": func() error { _, err := f.tree.Open("out-dir/secret.txt"); return err },
		"view through a folder out": func() error { _, err := f.tree.View("out-dir/secret.txt"); return err },
		"list a folder out":         func() error { _, err := f.tree.List(ctx, "out-dir", "", 0); return err },
		"save through a folder out": func() error {
			_, err := f.tree.Save("out-dir/secret.txt", strings.NewReader("x"), "", false)
			return err
		},
		"create through a folder out": func() error {
			_, err := f.tree.Save("out-dir/new.txt", strings.NewReader("x"), "", true)
			return err
		},
		"save over a link": func() error {
			_, err := f.tree.Save("out-file", strings.NewReader("x"), "", false)
			return err
		},
		"mkdir through a folder out":  func() error { return f.tree.Mkdir("out-dir/new") },
		"move into a folder out":      func() error { return f.tree.Move("a/b.txt", "out-dir/b.txt") },
		"move out of a folder out":    func() error { return f.tree.Move("out-dir/secret.txt", "stolen.txt") },
		"delete through a folder out": func() error { return f.tree.Delete("out-dir/secret.txt", false) },
		"archive a folder out": func() error {
			return f.tree.Archive(ctx, io.Discard, "out-dir", fsview.FormatZip)
		},
		"upload through a folder out": func() error { _, err := f.tree.StartUpload("out-dir", fsview.UploadOptions{}); return err },
	}
	for name, op := range refused {
		if err := op(); err == nil {
			t.Errorf("%s: succeeded", name)
		} else if c := codeOf(err); c != wire.CodeForbidden && c != wire.CodeInvalidField {
			t.Errorf("%s: %v (code %s), want forbidden or invalid_field", name, err, c)
		}
	}
	f.checkSecret(t)

	page, err := f.tree.List(ctx, ".", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	points := map[string]string{}
	for _, e := range page.Entries {
		if e.Type == fsview.TypeSymlink {
			points[e.Name] = e.Points
		}
	}
	want := map[string]string{"in-file": "file", "in-dir": "dir", "out-file": "outside", "out-dir": "outside", "abs-file": "outside", "broken": "broken"}
	for k, v := range want {
		if points[k] != v {
			t.Errorf("link %s points %q, want %q", k, points[k], v)
		}
	}
	// Deleting a link removes the link, never what it points to.
	if err := f.tree.Delete("out-file", false); err != nil {
		t.Fatal(err)
	}
	f.checkSecret(t)
}

// TestSwappedSymlink swaps a folder of the tree with a link out of it,
// over and over, while files in it are read, viewed, created, uploaded,
// listed and archived: no operation ever reads the file outside or
// creates anything there.
func TestSwappedSymlink(t *testing.T) {
	f := newFixture(t)
	f.write(t, "real/secret.txt", "inside")
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Go(func() { swapLoop(ctx, f) })
	for i := range 1000 {
		if file, err := f.tree.Open("a/secret.txt"); err == nil {
			if bytes.Contains(file.Data, []byte("SECRET")) {
				t.Fatal("read the file outside the tree")
			}
			file.Close()
		}
		if v, err := f.tree.View("a/secret.txt"); err == nil && strings.Contains(v.Text, "SECRET") {
			t.Fatal("viewed the file outside the tree")
		}
		_, _ = f.tree.Save("a/new.txt", strings.NewReader("new"), "", true)
		_ = f.tree.Mkdir("a/newdir")
		if up, err := f.tree.StartUpload("a", fsview.UploadOptions{}); err == nil {
			if up.Add("up.txt", strings.NewReader("up")) == nil {
				_, _ = up.Commit()
			}
			up.Abort()
		}
		f.checkSecret(t) // nothing was created outside
		for _, name := range []string{"new.txt", "newdir", "up.txt"} {
			_ = os.Remove(f.path("real/" + name))
			_ = os.Remove(f.path("a/" + name))
		}
		if page, err := f.tree.List(ctx, "a", "", 0); err == nil {
			for _, e := range page.Entries {
				if e.Size == int64(len(secret)) {
					t.Fatal("listed the folder outside the tree")
				}
			}
		}
		if i%100 == 0 {
			var buf bytes.Buffer
			if err := f.tree.Archive(ctx, &buf, "a", fsview.FormatTarGz); err == nil && strings.Contains(untar(t, buf.Bytes())["a/secret.txt"], "SECRET") {
				t.Fatal("archived the file outside the tree")
			}
		}
	}
	cancel()
	wg.Wait()
	f.checkSecret(t)
}

// swapLoop renames the folder "real" to "a" and back, and puts a link to
// the outside at "a" in between, until ctx ends.
func swapLoop(ctx context.Context, f *fixture) {
	a, real, link := f.path("a"), f.path("real"), f.path("link")
	_ = os.Symlink(f.outside, link)
	for ctx.Err() == nil {
		_ = os.Rename(real, a) // a is the real folder
		_ = os.Rename(a, real) // a is gone
		_ = os.Rename(link, a) // a leads outside
		_ = os.Rename(a, link) // a is gone
	}
}

// TestFIFOIsNeverOpened: a named pipe in the tree is listed as "other"
// and refused by every operation without blocking (opening a FIFO for
// reading waits for a writer: a hang here is the failure).
func TestFIFOIsNeverOpened(t *testing.T) {
	f := newFixture(t)
	if err := syscall.Mkfifo(f.path("pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.write(t, "dir/keep.txt", "k")
	if err := syscall.Mkfifo(f.path("dir/pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.symlink(t, "pipe", "to-pipe")
	ctx := t.Context()
	for name, op := range map[string]func() error{
		"open":            func() error { _, err := f.tree.Open("pipe"); return err },
		"open via a link": func() error { _, err := f.tree.Open("to-pipe"); return err },
		"view":            func() error { _, err := f.tree.View("pipe"); return err },
		"list":            func() error { _, err := f.tree.List(ctx, "pipe", "", 0); return err },
		"save":            func() error { _, err := f.tree.Save("pipe", strings.NewReader("x"), `"x"`, false); return err },
		"archive":         func() error { return f.tree.Archive(ctx, io.Discard, "pipe", fsview.FormatZip) },
	} {
		if err := op(); codeOf(err) != wire.CodeInvalidField {
			t.Errorf("%s a FIFO: %v, want invalid_field", name, err)
		}
	}
	page, err := f.tree.List(ctx, ".", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range page.Entries {
		if e.Name == "pipe" && e.Type != fsview.TypeOther {
			t.Errorf("pipe listed as %q, want other", e.Type)
		}
	}
	var buf bytes.Buffer
	if err := f.tree.Archive(ctx, &buf, "dir", fsview.FormatTarGz); err != nil {
		t.Fatal(err)
	}
	if got := untar(t, buf.Bytes()); len(got) != 2 || got["dir/keep.txt"] != "k" {
		t.Fatalf("archive holds %v, want dir/ and dir/keep.txt only", keys(got))
	}
	size, err := f.tree.Measure(ctx, "dir")
	if err != nil || size.Files != 1 || size.Skipped != 1 {
		t.Fatalf("Measure = %+v, %v; want 1 file, 1 skipped", size, err)
	}
}

// FuzzPaths sends arbitrary paths to every reading operation of a tree
// that has links out: none may return the secret outside, and every path
// Clean accepts is relative, without "..", NUL or a .git part.
func FuzzPaths(f *testing.F) {
	for _, s := range []string{"", ".", "a", "a/b.txt", "../outside/secret.txt", "out", "out/secret.txt",
		"/etc/passwd", "a/../../outside", ".git/config", "a\x00", "in/b.txt", "..", "a//b", "abs"} {
		f.Add(s)
	}
	base := f.TempDir()
	dir, outside := filepath.Join(base, "tree"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(dir, "a"), outside, filepath.Join(dir, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	for p, c := range map[string]string{filepath.Join(dir, "a/b.txt"): "b", filepath.Join(outside, "secret.txt"): secret, filepath.Join(dir, ".git/config"): secret} {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	for target, link := range map[string]string{"../outside": "out", "a": "in", filepath.Join(outside, "secret.txt"): "abs"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			f.Fatal(err)
		}
	}
	tree, err := fsview.Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = tree.Close() })
	f.Fuzz(func(t *testing.T, p string) {
		if c, err := fsview.Clean(p); err == nil {
			if strings.HasPrefix(c, "/") || strings.Contains(c, "\x00") {
				t.Fatalf("Clean(%q) = %q", p, c)
			}
			for _, part := range strings.Split(c, "/") {
				if part == ".." || part == ".git" || part == "" {
					t.Fatalf("Clean(%q) = %q has part %q", p, c, part)
				}
			}
		}
		if file, err := tree.Open(p); err == nil {
			if strings.Contains(string(file.Data), "SECRET") {
				t.Fatalf("Open(%q) read the secret", p)
			}
			file.Close()
		}
		if v, err := tree.View(p); err == nil && strings.Contains(v.Text, "SECRET") {
			t.Fatalf("View(%q) read the secret", p)
		}
		if page, err := tree.List(t.Context(), p, "", 0); err == nil {
			for _, e := range page.Entries {
				if e.Name == "secret.txt" || e.Name == "config" {
					t.Fatalf("List(%q) listed %s", p, e.Name)
				}
			}
		}
		var buf bytes.Buffer
		if err := tree.Archive(t.Context(), &buf, p, fsview.FormatTarGz); err == nil {
			for name, content := range untar(t, buf.Bytes()) {
				if strings.Contains(content, "SECRET") {
					t.Fatalf("Archive(%q) holds the secret in %s", p, name)
				}
			}
		}
	})
}
