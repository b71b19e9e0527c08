package fsview_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/internal/fsview"
	"github.com/agentdesk/agentdesk/internal/testkit/ptytest"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// TestSaveKeepsModeAndReturnsTheNewETag: a save replaces the content,
// keeps the file's permissions, and answers the ETag a new Open gives.
func TestSaveKeepsModeAndReturnsTheNewETag(t *testing.T) {
	f := newFixture(t)
	f.write(t, "run.sh", "#!/bin/sh\necho old\n")
	if err := os.Chmod(f.path("run.sh"), 0o750); err != nil {
		t.Fatal(err)
	}
	file, err := f.tree.Open("run.sh")
	if err != nil {
		t.Fatal(err)
	}
	file.Close()
	saved, err := f.tree.Save("run.sh", strings.NewReader("#!/bin/sh\necho new\n"), file.ETag, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.read(t, "run.sh"); got != "#!/bin/sh\necho new\n" {
		t.Fatalf("content %q", got)
	}
	fi, _ := os.Stat(f.path("run.sh"))
	if fi.Mode().Perm() != 0o750 {
		t.Fatalf("mode %v, want 0750 kept", fi.Mode().Perm())
	}
	again, err := f.tree.Open("run.sh")
	if err != nil {
		t.Fatal(err)
	}
	again.Close()
	if saved.ETag != again.ETag || saved.ETag == file.ETag {
		t.Fatalf("saved ETag %s, Open now %s, before %s", saved.ETag, again.ETag, file.ETag)
	}
	f.noTemps(t)
}

// TestSaveRefusesAFileChangedSinceItWasOpened: the file changes between
// the open and the save, keeping its size and modification time (two
// writes in one clock tick): the save fails with ErrStale and writes
// nothing. A file deleted since, and a create over an existing name, fail
// the same way.
func TestSaveRefusesAFileChangedSinceItWasOpened(t *testing.T) {
	f := newFixture(t)
	f.write(t, "a.txt", "version 1")
	file, err := f.tree.Open("a.txt")
	if err != nil {
		t.Fatal(err)
	}
	file.Close()
	fi, _ := os.Stat(f.path("a.txt"))
	f.write(t, "a.txt", "version 2")
	if err := os.Chtimes(f.path("a.txt"), fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	_, err = f.tree.Save("a.txt", strings.NewReader("mine"), file.ETag, false)
	if !errors.Is(err, wire.ErrStale) {
		t.Fatalf("Save = %v, want ErrStale", err)
	}
	if got := f.read(t, "a.txt"); got != "version 2" {
		t.Fatalf("content %q after a refused save", got)
	}
	if err := os.Remove(f.path("a.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.tree.Save("a.txt", strings.NewReader("mine"), file.ETag, false); !errors.Is(err, wire.ErrStale) {
		t.Fatalf("Save of a deleted file = %v, want ErrStale", err)
	}
	f.write(t, "b.txt", "there")
	if _, err := f.tree.Save("b.txt", strings.NewReader("new"), "", true); !errors.Is(err, wire.ErrStale) {
		t.Fatalf("create over an existing file = %v, want ErrStale", err)
	}
	if _, err := f.tree.Save("c.txt", strings.NewReader("new"), "", true); err != nil || f.read(t, "c.txt") != "new" {
		t.Fatalf("create = %v", err)
	}
	f.noTemps(t)
}

func TestSaveRefusesTooLarge(t *testing.T) {
	f := newFixture(t)
	_, err := f.tree.Save("big.txt", strings.NewReader(strings.Repeat("x", wire.FSEditBytes+1)), "", true)
	if codeOf(err) != wire.CodeTooLarge {
		t.Fatalf("Save of %d bytes = %v, want too_large", wire.FSEditBytes+1, err)
	}
	if _, err := os.Stat(f.path("big.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("big.txt exists after a refused save: %v", err)
	}
	f.noTemps(t)
}

// TestWritesOnAFullDisk limits the size of files this process may write
// (RLIMIT_FSIZE: past it writes fail with EFBIG, as on a full disk): a
// save and an upload fail with the errno (the edge answers 507), the old
// file is untouched and no temporary file is left. It runs in a child
// process: the limit is the whole process's.
func TestWritesOnAFullDisk(t *testing.T) {
	if !inChild(t) {
		return
	}
	f := newFixture(t)
	f.write(t, "doc.txt", "old content")
	file, err := f.tree.Open("doc.txt")
	if err != nil {
		t.Fatal(err)
	}
	file.Close()
	big := strings.Repeat("y", 256<<10)
	lift := ptytest.LimitFileSize(t, 64<<10)
	_, saveErr := f.tree.Save("doc.txt", strings.NewReader(big), file.ETag, false)
	up, err := f.tree.StartUpload(".", fsview.UploadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	addErr := up.Add("small.txt", strings.NewReader("fits"))
	if addErr == nil {
		addErr = up.Add("upload.bin", strings.NewReader(big))
	}
	up.Abort()
	lift()
	if !errors.Is(saveErr, syscall.EFBIG) {
		t.Fatalf("Save on a full disk = %v, want EFBIG", saveErr)
	}
	if !errors.Is(addErr, syscall.EFBIG) {
		t.Fatalf("upload on a full disk = %v, want EFBIG", addErr)
	}
	if got := f.read(t, "doc.txt"); got != "old content" {
		t.Fatalf("doc.txt = %q after a failed save", got)
	}
	for _, name := range []string{"small.txt", "upload.bin"} {
		if _, err := os.Stat(f.path(name)); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s exists after a failed upload", name)
		}
	}
	f.noTemps(t)
}

// TestUpload: two files go in together; a name that exists fails the whole
// upload unless replace is set (then the old file's mode is kept); limits
// on a file and on the request fail with too_large; nothing partial stays.
func TestUpload(t *testing.T) {
	f := newFixture(t)
	f.write(t, "in/old.txt", "old")
	if err := os.Chmod(f.path("in/old.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	upload := func(o fsview.UploadOptions, files ...string) error {
		up, err := f.tree.StartUpload("in", o)
		if err != nil {
			return err
		}
		defer up.Abort()
		for i := 0; i < len(files); i += 2 {
			if err := up.Add(files[i], strings.NewReader(files[i+1])); err != nil {
				return err
			}
		}
		_, err = up.Commit()
		return err
	}
	if err := upload(fsview.UploadOptions{}, "a.txt", "A", "b.txt", "B"); err != nil {
		t.Fatal(err)
	}
	if f.read(t, "in/a.txt") != "A" || f.read(t, "in/b.txt") != "B" {
		t.Fatal("uploaded files are wrong")
	}
	err := upload(fsview.UploadOptions{}, "c.txt", "C", "old.txt", "new")
	if !errors.Is(err, wire.ErrConflict) {
		t.Fatalf("upload over an existing name = %v, want conflict", err)
	}
	if _, err := os.Stat(f.path("in/c.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("c.txt was kept from a refused upload")
	}
	if err := upload(fsview.UploadOptions{Replace: true}, "old.txt", "new"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(f.path("in/old.txt")); f.read(t, "in/old.txt") != "new" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("replaced old.txt: %q %v", f.read(t, "in/old.txt"), fi.Mode().Perm())
	}
	cases := []struct {
		name  string
		o     fsview.UploadOptions
		files []string
		want  wire.Code
	}{
		{"file too large", fsview.UploadOptions{MaxFile: 4}, []string{"d.txt", "12345"}, wire.CodeTooLarge},
		{"request too large", fsview.UploadOptions{MaxTotal: 6}, []string{"d.txt", "1234", "e.txt", "567"}, wire.CodeTooLarge},
		{"too many files", fsview.UploadOptions{MaxFiles: 1}, []string{"d.txt", "1", "e.txt", "2"}, wire.CodeTooLarge},
		{"a path for a name", fsview.UploadOptions{}, []string{"../d.txt", "1"}, wire.CodeInvalidField},
		{"a name twice", fsview.UploadOptions{}, []string{"d.txt", "1", "d.txt", "2"}, wire.CodeInvalidField},
		{".git", fsview.UploadOptions{}, []string{".git", "1"}, wire.CodeInvalidField},
		{"no file", fsview.UploadOptions{}, nil, wire.CodeInvalidField},
	}
	for _, c := range cases {
		if err := upload(c.o, c.files...); codeOf(err) != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
	for _, name := range []string{"d.txt", "e.txt"} {
		if _, err := os.Stat(f.path("in/" + name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s kept from a refused upload", name)
		}
	}
	f.noTemps(t)
}

// TestMkdirMoveDelete covers the folder operations and their refusals.
func TestMkdirMoveDelete(t *testing.T) {
	f := newFixture(t)
	f.write(t, "a/file.txt", "x")
	f.write(t, "b.txt", "b")
	steps := []struct {
		name string
		op   func() error
		want wire.Code
	}{
		{"mkdir", func() error { return f.tree.Mkdir("new") }, ""},
		{"mkdir again", func() error { return f.tree.Mkdir("new") }, wire.CodeConflict},
		{"mkdir without parent", func() error { return f.tree.Mkdir("x/y") }, wire.CodeNotFound},
		{"move a file", func() error { return f.tree.Move("b.txt", "new/b.txt") }, ""},
		{"move over an existing file", func() error { return f.tree.Move("a/file.txt", "new/b.txt") }, wire.CodeConflict},
		{"move a missing file", func() error { return f.tree.Move("nothing", "new/n") }, wire.CodeNotFound},
		{"move a folder into itself", func() error { return f.tree.Move("a", "a/inner") }, wire.CodeInvalidField},
		{"move the tree", func() error { return f.tree.Move(".", "x") }, wire.CodeInvalidField},
		{"rename a folder", func() error { return f.tree.Move("a", "c") }, ""},
		{"delete a full folder", func() error { return f.tree.Delete("c", false) }, wire.CodeConflict},
		{"delete the tree", func() error { return f.tree.Delete(".", true) }, wire.CodeInvalidField},
		{"delete a full folder recursively", func() error { return f.tree.Delete("c", true) }, ""},
		{"delete a file", func() error { return f.tree.Delete("new/b.txt", false) }, ""},
		{"delete an empty folder", func() error { return f.tree.Delete("new", false) }, ""},
		{"delete a missing file", func() error { return f.tree.Delete("new", false) }, wire.CodeNotFound},
	}
	for _, s := range steps {
		if err := s.op(); codeOf(err) != s.want {
			t.Fatalf("%s: %v, want %q", s.name, err, s.want)
		}
	}
	entries, _ := os.ReadDir(f.dir)
	if len(entries) != 0 {
		t.Fatalf("tree holds %d entries after deleting all", len(entries))
	}
}

// inChild runs the calling test again in a child process (the same test
// binary, only that test) and reports whether this is the child, which
// then does the work. The parent fails when the child fails.
func inChild(t *testing.T) bool {
	t.Helper()
	const key = "AGENTDESK_TEST_CHILD"
	if os.Getenv(key) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), key+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("the child process failed (%v):\n%s", err, out)
	}
	return false
}
