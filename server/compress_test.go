package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestAPIAnswersCompressed checks that a JSON answer over the minimum size
// is gzipped for a client that asks for it (and says so in Vary), that it
// decodes to what an identity answer holds, and that a small error answer
// still comes out whole through the middleware.
func TestAPIAnswersCompressed(t *testing.T) {
	e := newEnv(t, nil)
	for i := range 20 {
		e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "none", "title": strings.Repeat("long title ", 10) + string(rune('a'+i))})
	}
	plain := e.do("GET", "/api/sessions", nil, "Accept-Encoding", "identity")
	if plain.status != http.StatusOK || plain.header.Get("Content-Encoding") != "" {
		t.Fatalf("identity: %d, Content-Encoding %q", plain.status, plain.header.Get("Content-Encoding"))
	}
	if len(plain.body) < compressMinSize {
		t.Fatalf("the listing is %d bytes: too small to test compression", len(plain.body))
	}
	gz := e.do("GET", "/api/sessions", nil, "Accept-Encoding", "gzip")
	if gz.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q, want gzip", gz.header.Get("Content-Encoding"))
	}
	if !strings.Contains(gz.header.Get("Vary"), "Accept-Encoding") {
		t.Errorf("Vary %q lacks Accept-Encoding", gz.header.Get("Vary"))
	}
	body := gunzip(t, gz.body)
	if !bytes.Equal(body, plain.body) {
		t.Errorf("gzipped answer decodes to %d bytes, identity has %d", len(body), len(plain.body))
	}
	if len(gz.body) >= len(plain.body)/2 {
		t.Errorf("gzip sent %d bytes for %d", len(gz.body), len(plain.body))
	}
	nf := e.do("GET", "/api/no-such-thing", nil, "Accept-Encoding", "gzip")
	if nf.status != http.StatusNotFound || nf.errCode(t) != "not_found" {
		t.Errorf("an error through the compressor: %d %s", nf.status, nf.body)
	}
}

// TestFileBytesNotCompressed checks that a file's raw bytes (Range
// requests, any type) go as they are.
func TestFileBytesNotCompressed(t *testing.T) {
	e := newEnv(t, nil)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), bytes.Repeat([]byte("hello world\n"), 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	s := e.createSession(dir)
	a := e.do("GET", "/api/sessions/"+s.ID+"/fs/file?path=big.txt", nil, "Accept-Encoding", "gzip")
	if a.status != http.StatusOK {
		t.Fatalf("GET fs/file: %d %s", a.status, a.body)
	}
	if ce := a.header.Get("Content-Encoding"); ce != "" || len(a.body) != 12000 {
		t.Errorf("fs/file: Content-Encoding %q, %d bytes; want the 12000 bytes as they are", ce, len(a.body))
	}
}

// TestPrecompressedAssets checks that the build's .br and .gz copies are
// served to browsers that accept them (brotli first), as they are (not
// compressed again), with the original type, and the file itself otherwise.
func TestPrecompressedAssets(t *testing.T) {
	js := []byte(strings.Repeat("console.log('agentdesk');\n", 200))
	var gzb bytes.Buffer
	zw := gzip.NewWriter(&gzb)
	zw.Write(js)
	zw.Close()
	files := fstest.MapFS{
		"index.html":           {Data: []byte("<!doctype html><html><head></head><body></body></html>")},
		"assets/app-1.js":      {Data: js},
		"assets/app-1.js.br":   {Data: []byte("brotli bytes")},
		"assets/app-1.js.gz":   {Data: gzb.Bytes()},
		"assets/other-2.js":    {Data: js},
		"assets/other-2.js.gz": {Data: gzb.Bytes()},
	}
	srv, err := New(Options{Token: testToken, Loopback: true, Frontend: files})
	if err != nil {
		t.Fatal(err)
	}
	get := func(p, accept string) *httptest.ResponseRecorder {
		t.Helper()
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "http://127.0.0.1"+p, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		srv.Handler().ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", p, rec.Code)
		}
		return rec
	}
	tests := []struct {
		path, accept, enc string
		body              []byte
	}{
		{"/assets/app-1.js", "gzip, deflate, br, zstd", "br", []byte("brotli bytes")},
		{"/assets/app-1.js", "gzip, br;q=0", "gzip", gzb.Bytes()},
		{"/assets/app-1.js", "", "", js},
		{"/assets/app-1.js", "identity", "", js},
		{"/assets/other-2.js", "br", "", js}, // no .br copy, and gzip is not accepted
		{"/assets/other-2.js", "br, gzip", "gzip", gzb.Bytes()},
	}
	for _, tt := range tests {
		rec := get(tt.path, tt.accept)
		if ce := rec.Header().Get("Content-Encoding"); ce != tt.enc {
			t.Errorf("%s with %q: Content-Encoding %q, want %q", tt.path, tt.accept, ce, tt.enc)
		}
		if !bytes.Equal(rec.Body.Bytes(), tt.body) {
			t.Errorf("%s with %q: body of %d bytes, want %d", tt.path, tt.accept, rec.Body.Len(), len(tt.body))
		}
		if ct := rec.Header().Get("Content-Type"); !strings.Contains(ct, "javascript") {
			t.Errorf("%s with %q: Content-Type %q", tt.path, tt.accept, ct)
		}
		if !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: no Vary: Accept-Encoding", tt.path)
		}
	}
}

func TestAcceptsEncoding(t *testing.T) {
	tests := []struct {
		header, enc string
		want        bool
	}{
		{"gzip, deflate, br", "br", true},
		{"gzip, deflate", "br", false},
		{"br;q=0", "br", false},
		{"br; q=0.0", "br", false},
		{"br;q=0.5", "br", true},
		{"BR", "br", true},
		{"", "gzip", false},
		{"x-gzip", "gzip", false},
	}
	for _, tt := range tests {
		if got := acceptsEncoding(tt.header, tt.enc); got != tt.want {
			t.Errorf("acceptsEncoding(%q, %q) = %v, want %v", tt.header, tt.enc, got, tt.want)
		}
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
