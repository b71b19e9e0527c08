package server

import (
	"archive/zip"
	"bytes"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/ptytest"
)

// fsEnv is a server with one session on a folder of files.
type fsEnv struct {
	*env
	dir, sid string
}

func newFSEnv(t *testing.T) *fsEnv {
	e := newEnv(t, nil)
	dir := filepath.Join(t.TempDir(), "work")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := e.createSession(dir)
	return &fsEnv{env: e, dir: dir, sid: s.ID}
}

func (f *fsEnv) url(route string, query ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(query); i += 2 {
		q.Set(query[i], query[i+1])
	}
	return "/api/sessions/" + f.sid + "/fs" + route + "?" + q.Encode()
}

func (f *fsEnv) write(rel, content string) {
	f.t.Helper()
	p := filepath.Join(f.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fsEnv) read(rel string) string {
	b, _ := os.ReadFile(filepath.Join(f.dir, rel))
	return string(b)
}

func expect(t *testing.T, a answer, status int, code string) {
	t.Helper()
	if a.status != status {
		t.Fatalf("status %d (%s), want %d", a.status, a.body, status)
	}
	if code != "" {
		if got := a.errCode(t); got != code {
			t.Fatalf("code %q (%s), want %q", got, a.body, code)
		}
	}
}

// TestFSServesFilesSafely: the list, the view and the bytes of files, each
// served so that it cannot act as the app: a sandbox CSP and nosniff on
// every file, HTML as plain text, SVG always as a download, and ETag,
// If-None-Match and Range as HTTP has them.
func TestFSServesFilesSafely(t *testing.T) {
	f := newFSEnv(t)
	f.write("src/main.go", "package main\n")
	f.write("page.html", "<script>alert(document.cookie)</script>")
	f.write("logo.svg", `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
	f.write(".git/config", "[core]")
	f.write("doc.pdf", "%PDF-1.4\n")

	var page struct {
		Entries []struct{ Name, Type string }
		Total   int
	}
	a := f.do("GET", f.url("/list"), nil)
	expect(t, a, http.StatusOK, "")
	a.json(t, &page)
	if page.Total != 4 || page.Entries[0].Name != "src" || page.Entries[0].Type != "dir" {
		t.Fatalf("list = %s", a.body)
	}
	var v struct {
		Kind, Text, ETag string
		Editable         bool
	}
	a = f.do("GET", f.url("/view", "path", "src/main.go"), nil)
	expect(t, a, http.StatusOK, "")
	a.json(t, &v)
	if v.Kind != "text" || v.Text != "package main\n" || !v.Editable || a.header.Get("ETag") != v.ETag {
		t.Fatalf("view = %s (ETag %s)", a.body, a.header.Get("ETag"))
	}

	cases := []struct {
		path, download, ctype, disp string
	}{
		{"src/main.go", "", "text/plain; charset=utf-8", "inline"},
		{"page.html", "", "text/plain; charset=utf-8", "inline"},
		{"logo.svg", "", "image/svg+xml", "attachment"},
		{"src/main.go", "1", "text/plain; charset=utf-8", "attachment"},
	}
	for _, c := range cases {
		a := f.do("GET", f.url("/file", "path", c.path, "download", c.download), nil)
		expect(t, a, http.StatusOK, "")
		h := a.header
		if h.Get("Content-Type") != c.ctype || !strings.HasPrefix(h.Get("Content-Disposition"), c.disp) ||
			!strings.HasPrefix(h.Get("Content-Security-Policy"), "sandbox") || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", c.path, h)
		}
		if string(a.body) != f.read(c.path) {
			t.Errorf("%s: body %q", c.path, a.body)
		}
	}
	// Only a PDF may be framed, and only by the app's pages (the viewer).
	for p, want := range map[string]string{"doc.pdf": "frame-ancestors 'self'", "page.html": "frame-ancestors 'none'"} {
		if csp := f.do("GET", f.url("/file", "path", p), nil).header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox;") || !strings.HasSuffix(csp, want) {
			t.Errorf("%s: CSP %q", p, csp)
		}
	}
	etag := f.do("GET", f.url("/file", "path", "src/main.go"), nil).header.Get("ETag")
	expect(t, f.do("GET", f.url("/file", "path", "src/main.go"), nil, "If-None-Match", etag), http.StatusNotModified, "")
	if a := f.do("GET", f.url("/file", "path", "src/main.go"), nil, "Range", "bytes=0-6"); a.status != http.StatusPartialContent || string(a.body) != "package" {
		t.Fatalf("range: %d %q", a.status, a.body)
	}
	expect(t, f.do("GET", f.url("/file", "path", ".git/config"), nil), http.StatusNotFound, "not_found")
	expect(t, f.do("GET", f.url("/file", "path", "nothing"), nil), http.StatusNotFound, "not_found")
}

// TestFSRefusesWhatLeavesTheFolder: every route refuses `..`, absolute
// paths, a link out of the folder and a FIFO; auth and the origin check
// apply as everywhere.
func TestFSRefusesWhatLeavesTheFolder(t *testing.T) {
	f := newFSEnv(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(f.dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(f.dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		method, url string
		body        any
		status      int
		code        string
	}{
		{"GET", f.url("/file", "path", "../"+filepath.Base(f.dir)), nil, 400, "invalid_field"},
		{"GET", f.url("/file", "path", "/etc/passwd"), nil, 400, "invalid_field"},
		{"GET", f.url("/file", "path", "out/secret"), nil, 403, "forbidden"},
		{"GET", f.url("/view", "path", "out/secret"), nil, 403, "forbidden"},
		{"GET", f.url("/list", "path", "out"), nil, 403, "forbidden"},
		{"GET", f.url("/archive", "path", "out", "format", "zip"), nil, 403, "forbidden"},
		{"GET", f.url("/file", "path", "pipe"), nil, 400, "invalid_field"},
		{"PUT", f.url("/file", "path", "out/secret"), "x", 403, "forbidden"},
		{"POST", f.url("/mkdir"), map[string]string{"path": "out/d"}, 403, "forbidden"},
		{"POST", f.url("/move"), map[string]string{"from": "out/secret", "to": "stolen"}, 403, "forbidden"},
		{"DELETE", f.url("", "path", "out/secret"), nil, 403, "forbidden"},
		{"GET", f.url("/archive", "format", "rar"), nil, 400, "invalid_field"},
		{"GET", f.url("/list", "limit", "0"), nil, 400, "invalid_field"},
	}
	for _, c := range cases {
		hdr := []string{"If-Match", `"x"`}
		a := f.do(c.method, c.url, c.body, hdr...)
		if a.status != c.status || a.errCode(t) != c.code {
			t.Errorf("%s %s: %d %s, want %d %s", c.method, c.url, a.status, a.body, c.status, c.code)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "SECRET" {
		t.Fatal("the file outside changed")
	}
	expect(t, f.do("GET", f.url("/list"), nil, "Authorization", ""), http.StatusUnauthorized, "unauthorized")
	expect(t, f.do("DELETE", f.url("", "path", "pipe"), nil, "Origin", "http://evil.example"), http.StatusForbidden, "forbidden")
}

// TestFSSaveWithETags: a save needs a precondition; a file changed since
// it was read answers 412 conflict and is kept; a good save answers the
// new ETag; a create refuses an existing name.
func TestFSSaveWithETags(t *testing.T) {
	f := newFSEnv(t)
	f.write("a.txt", "one")
	etag := f.do("GET", f.url("/file", "path", "a.txt"), nil).header.Get("ETag")
	expect(t, f.do("PUT", f.url("/file", "path", "a.txt"), "mine"), http.StatusPreconditionRequired, "invalid_field")
	f.write("a.txt", "two") // the agent wrote meanwhile
	expect(t, f.do("PUT", f.url("/file", "path", "a.txt"), "mine", "If-Match", etag), http.StatusPreconditionFailed, "conflict")
	if f.read("a.txt") != "two" {
		t.Fatal("a refused save changed the file")
	}
	etag = f.do("GET", f.url("/file", "path", "a.txt"), nil).header.Get("ETag")
	a := f.do("PUT", f.url("/file", "path", "a.txt"), "mine", "If-Match", etag)
	expect(t, a, http.StatusOK, "")
	if f.read("a.txt") != "mine" || a.header.Get("ETag") == etag || a.header.Get("ETag") != f.do("GET", f.url("/file", "path", "a.txt"), nil).header.Get("ETag") {
		t.Fatalf("save: %s, file %q", a.body, f.read("a.txt"))
	}
	expect(t, f.do("PUT", f.url("/file", "path", "new.txt"), "n", "If-None-Match", "*"), http.StatusCreated, "")
	expect(t, f.do("PUT", f.url("/file", "path", "new.txt"), "n", "If-None-Match", "*"), http.StatusPreconditionFailed, "conflict")
	big := strings.Repeat("x", 8<<20+1)
	expect(t, f.do("PUT", f.url("/file", "path", "new.txt"), big, "If-None-Match", "*"), http.StatusRequestEntityTooLarge, "too_large")
}

// TestFSSaveOnAFullDisk: a save that the disk refuses (RLIMIT_FSIZE gives
// EFBIG, as a full disk gives ENOSPC) answers 507 storage_full and leaves
// the file and its folder as they were. It runs in a child process: the
// limit is the whole process's, and go test's own log file would hit it.
func TestFSSaveOnAFullDisk(t *testing.T) {
	if !inChild(t) {
		return
	}
	f := newFSEnv(t)
	f.write("doc.txt", "old")
	etag := f.do("GET", f.url("/file", "path", "doc.txt"), nil).header.Get("ETag")
	lift := ptytest.LimitFileSize(t, 1<<20)
	a := f.do("PUT", f.url("/file", "path", "doc.txt"), strings.Repeat("y", 2<<20), "If-Match", etag)
	lift()
	expect(t, a, http.StatusInsufficientStorage, "storage_full")
	entries, _ := os.ReadDir(f.dir)
	if f.read("doc.txt") != "old" || len(entries) != 1 {
		t.Fatalf("after a failed save: %q, %d entries", f.read("doc.txt"), len(entries))
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

// TestFSArchiveAndOps: the size first, then the zip; mkdir, move and
// delete with their refusals.
func TestFSArchiveAndOps(t *testing.T) {
	f := newFSEnv(t)
	f.write("proj/a.txt", "alpha")
	f.write("proj/sub/b.txt", "beta")
	var size struct{ Files, Folders, Bytes int64 }
	a := f.do("GET", f.url("/archive", "path", "proj", "format", "zip", "size", "1"), nil)
	expect(t, a, http.StatusOK, "")
	a.json(t, &size)
	if size.Files != 2 || size.Folders != 1 || size.Bytes != 9 {
		t.Fatalf("size = %s", a.body)
	}
	a = f.do("GET", f.url("/archive", "path", "proj", "format", "zip"), nil)
	expect(t, a, http.StatusOK, "")
	if a.header.Get("Content-Type") != "application/zip" || !strings.Contains(a.header.Get("Content-Disposition"), `filename=proj.zip`) {
		t.Fatalf("archive headers %v", a.header)
	}
	zr, err := zip.NewReader(bytes.NewReader(a.body), int64(len(a.body)))
	if err != nil || len(zr.File) != 4 {
		t.Fatalf("zip: %v, %d entries", err, len(zr.File))
	}

	expect(t, f.do("POST", f.url("/mkdir"), map[string]string{"path": "proj/new"}), http.StatusCreated, "")
	expect(t, f.do("POST", f.url("/mkdir"), map[string]string{"path": "proj/new"}), http.StatusConflict, "conflict")
	expect(t, f.do("POST", f.url("/move"), map[string]string{"from": "proj/a.txt", "to": "proj/new/a.txt"}), http.StatusOK, "")
	expect(t, f.do("POST", f.url("/move"), map[string]string{"from": "proj/sub/b.txt", "to": "proj/new/a.txt"}), http.StatusConflict, "conflict")
	expect(t, f.do("DELETE", f.url("", "path", "proj"), nil), http.StatusConflict, "conflict")
	expect(t, f.do("DELETE", f.url("", "path", "proj", "recursive", "1"), nil), http.StatusNoContent, "")
	if _, err := os.Stat(filepath.Join(f.dir, "proj")); !os.IsNotExist(err) {
		t.Fatal("proj still there")
	}
	expect(t, f.do("POST", f.url("/mkdir"), map[string]string{"path": "x", "extra": "y"}), http.StatusBadRequest, "invalid_field")
}
