package server

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// multipartBody builds an upload of name → content.
func multipartBody(t *testing.T, files ...string) (string, []byte) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for i := 0; i+1 < len(files); i += 2 {
		h := make(map[string][]string)
		h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name="file"; filename=%q`, files[i])}
		p, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		p.Write([]byte(files[i+1]))
	}
	w.Close()
	return w.FormDataContentType(), b.Bytes()
}

// TestFSUpload: two files in one request; an existing name answers 409
// and keeps nothing of the request, unless replace=1; a name with a slash
// and a body cut short are refused with nothing kept.
func TestFSUpload(t *testing.T) {
	f := newFSEnv(t)
	f.write("in/b.txt", "old b")
	ct, body := multipartBody(t, "a.txt", "A", "c.txt", "C")
	expect(t, f.do("POST", f.url("/upload", "path", "in"), body, "Content-Type", ct), http.StatusCreated, "")
	if f.read("in/a.txt") != "A" || f.read("in/c.txt") != "C" {
		t.Fatal("uploaded files missing")
	}
	ct, body = multipartBody(t, "d.txt", "D", "b.txt", "new b")
	expect(t, f.do("POST", f.url("/upload", "path", "in"), body, "Content-Type", ct), http.StatusConflict, "conflict")
	if _, err := os.Stat(filepath.Join(f.dir, "in/d.txt")); err == nil || f.read("in/b.txt") != "old b" {
		t.Fatal("a refused upload kept a file")
	}
	expect(t, f.do("POST", f.url("/upload", "path", "in", "replace", "1"), body, "Content-Type", ct), http.StatusCreated, "")
	if f.read("in/b.txt") != "new b" || f.read("in/d.txt") != "D" {
		t.Fatal("replace=1 did not replace")
	}
	ct, body = multipartBody(t, "../escape.txt", "x")
	expect(t, f.do("POST", f.url("/upload", "path", "in"), body, "Content-Type", ct), http.StatusBadRequest, "invalid_field")
	ct, body = multipartBody(t, "e.txt", strings.Repeat("e", 100_000), "f.txt", "F")
	cut := body[:len(body)/2]
	expect(t, f.do("POST", f.url("/upload", "path", "in"), cut, "Content-Type", ct), http.StatusBadRequest, "invalid_field")
	expect(t, f.do("POST", f.url("/upload", "path", "in"), "{}"), http.StatusBadRequest, "invalid_field")
	entries, _ := os.ReadDir(filepath.Join(f.dir, "in"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "a.txt b.txt c.txt d.txt" {
		t.Fatalf("folder holds %q after refused uploads", names)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(f.dir), "escape.txt")); err == nil {
		t.Fatal("escaped")
	}
}

// tricklingBody yields its parts one by one, each after gap(i). Closing
// cancel ends a gap at once and the body with an error; closed is closed
// once the transport closed the body (it always does, even on errors).
type tricklingBody struct {
	parts  [][]byte
	gap    func(i int) time.Duration
	i      int
	cancel chan struct{}
	closed chan struct{}
	once   sync.Once
}

func (b *tricklingBody) Read(p []byte) (int, error) {
	if len(b.parts) == 0 {
		return 0, io.EOF
	}
	select {
	case <-time.After(b.gap(b.i)):
	case <-b.cancel:
		return 0, io.ErrClosedPipe
	}
	b.i++
	n := copy(p, b.parts[0])
	if b.parts[0] = b.parts[0][n:]; len(b.parts[0]) == 0 {
		b.parts = b.parts[1:]
	}
	return n, nil
}

func (b *tricklingBody) Close() error {
	b.once.Do(func() { close(b.closed) })
	return nil
}

// TestFSUploadOutlivesTheBodyTimeout: an upload whose bytes keep coming is
// not cut by the body timeout (here 1 s) even when it takes several times
// as long; the deadline moves with progress. One that stalls for longer
// than the timeout is cut: 408 timeout, nothing kept.
func TestFSUploadOutlivesTheBodyTimeout(t *testing.T) {
	f := newFSEnv(t)
	srv, err := New(Options{Manager: f.mgr, Token: testToken, Loopback: true, Frontend: testFrontend, Limits: Limits{BodyTimeout: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer func() {
		ts.Close()
		_ = srv.Shutdown(t.Context())
	}()
	upload := func(name string, parts int, gap func(i int) time.Duration) int {
		ct, body := multipartBody(t, name, strings.Repeat("s", 40_000))
		var chunks [][]byte
		for size := len(body)/parts + 1; len(body) > 0; {
			n := min(size, len(body))
			chunks, body = append(chunks, body[:n]), body[n:]
		}
		// The pauses are the slowness under test, not waits for an event.
		b := &tricklingBody{parts: chunks, gap: gap, cancel: make(chan struct{}), closed: make(chan struct{})}
		req, err := http.NewRequest("POST", ts.URL+f.url("/upload"), b)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Content-Type", ct)
		res, err := http.DefaultClient.Do(req)
		close(b.cancel) // the server answered: stop sending
		<-b.closed      // and wait for the transport to be done with the body
		if err != nil {
			return 0 // the server may close before reading all
		}
		res.Body.Close()
		return res.StatusCode
	}
	// 40 parts over 3 s: three times the body timeout.
	if code := upload("slow.bin", 40, func(int) time.Duration { return 75 * time.Millisecond }); code != http.StatusCreated || len(f.read("slow.bin")) != 40_000 {
		t.Fatalf("slow upload: %d, file %d bytes", code, len(f.read("slow.bin")))
	}
	// Two parts with a 2.5 s stall between them.
	stall := func(i int) time.Duration {
		if i == 1 {
			return 2500 * time.Millisecond
		}
		return 0
	}
	if code := upload("stalled.bin", 2, stall); code != http.StatusRequestTimeout && code != 0 {
		t.Fatalf("stalled upload: %d, want 408", code)
	}
	entries, _ := os.ReadDir(f.dir)
	if len(entries) != 1 {
		t.Fatalf("after a stalled upload the folder holds %d entries, want slow.bin only", len(entries))
	}
}
