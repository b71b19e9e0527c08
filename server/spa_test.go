package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// TestPWAFiles checks what installing the app needs from the server: the
// manifest with its MIME type, the service worker as JavaScript that is
// never served from the HTTP cache, and a CSP that lets both load.
func TestPWAFiles(t *testing.T) {
	files := fstest.MapFS{
		"index.html":           {Data: []byte("<!doctype html><html><head></head><body></body></html>")},
		"sw.js":                {Data: []byte("self.addEventListener('fetch', () => {});")},
		"manifest.webmanifest": {Data: []byte(`{"name":"agentdesk"}`)},
		"icons/icon-192.png":   {Data: []byte("\x89PNG\r\n\x1a\n")},
		"icons/icon.svg":       {Data: []byte("<svg xmlns='http://www.w3.org/2000/svg'/>")},
	}
	srv, err := New(Options{Token: testToken, Loopback: true, Frontend: files})
	if err != nil {
		t.Fatal(err)
	}
	get := func(p string) *http.Response {
		t.Helper()
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "http://127.0.0.1"+p, nil)
		srv.Handler().ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", p, rec.Code, rec.Body)
		}
		return rec.Result()
	}
	tests := []struct{ path, ctype, cache string }{
		{"/sw.js", "javascript", "no-cache"},
		{"/manifest.webmanifest", "application/manifest+json", ""},
		{"/icons/icon-192.png", "image/png", ""},
		{"/icons/icon.svg", "image/svg+xml", ""},
	}
	for _, tt := range tests {
		res := get(tt.path)
		if ct := res.Header.Get("Content-Type"); !strings.Contains(ct, tt.ctype) {
			t.Errorf("%s: Content-Type %q, want %q", tt.path, ct, tt.ctype)
		}
		if cc := res.Header.Get("Cache-Control"); cc != tt.cache {
			t.Errorf("%s: Cache-Control %q, want %q", tt.path, cc, tt.cache)
		}
	}
	csp := get("/").Header.Get("Content-Security-Policy")
	// worker-src and manifest-src fall back to default-src: the own origin.
	for _, want := range []string{"default-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	for _, bad := range []string{"worker-src 'none'", "manifest-src 'none'"} {
		if strings.Contains(csp, bad) {
			t.Errorf("CSP %q blocks the PWA with %q", csp, bad)
		}
	}
}

// /highlight.css is the stylesheet the server was given for the code
// blocks of rendered markdown.
func TestHighlightCSS(t *testing.T) {
	srv, err := New(Options{Token: testToken, Loopback: true, Frontend: fstest.MapFS{}, HighlightCSS: func() string { return ".hl-k { color: red }" }})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "http://127.0.0.1/highlight.css", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	srv.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Body.String() != ".hl-k { color: red }" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/css") {
		t.Fatalf("GET /highlight.css: %d %q %v", rec.Code, rec.Body, rec.Header())
	}
}
