package server

import (
	"bytes"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// spa serves the built frontend: files as they are, and index.html for
// every other path so that /s/<id> URLs survive a reload.
type spa struct {
	files fs.FS
	index []byte // nil when the frontend was not built
}

const notBuilt = `<!doctype html><html><head><meta charset="utf-8"><title>agentdesk</title></head>
<body><p>The agentdesk frontend is not built into this binary. Run <code>npm ci && npm run build</code>, then rebuild with <code>go build</code>.</p></body></html>`

func newSPA(files fs.FS) *spa {
	s := &spa{files: files}
	if files != nil {
		if b, err := fs.ReadFile(files, "index.html"); err == nil {
			s.index = b
		}
	}
	return s
}

// loginErrorMeta is how the page learns that a /?token= login failed: the
// SPA reads it and shows its login form with the message.
const loginErrorMeta = `<meta name="agentdesk-login-error" content="wrong token: use the token printed at start-up or stored in the data dir's token file">`

func (s *Server) serveSPA(c echo.Context) error {
	r := c.Request()
	if r.URL.Path == "/" && r.URL.Query().Has("token") {
		if s.validToken(r.URL.Query().Get("token")) {
			s.setCookie(c)
			return c.Redirect(http.StatusSeeOther, "/")
		}
		return s.writeIndex(c, http.StatusUnauthorized, []byte(loginErrorMeta))
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name != "" && name != "index.html" && s.spa.files != nil {
		if b, err := fs.ReadFile(s.spa.files, name); err == nil {
			return s.writeAsset(c, name, b)
		}
		if strings.HasPrefix(name, "assets/") {
			return newError(http.StatusNotFound, wire.CodeNotFound, "no such file")
		}
	}
	return s.writeIndex(c, http.StatusOK, nil)
}

func (s *Server) writeAsset(c echo.Context, name string, b []byte) error {
	ct := mime.TypeByExtension(path.Ext(name))
	switch {
	case path.Ext(name) == ".webmanifest":
		ct = "application/manifest+json" // not in Go's table nor every mime.types
	case ct == "":
		ct = http.DetectContentType(b)
	}
	h := c.Response().Header()
	h.Add("Vary", "Accept-Encoding")
	if enc, z := s.spa.precompressed(name, c.Request().Header.Get("Accept-Encoding")); z != nil {
		h.Set("Content-Encoding", enc)
		b = z
	}
	switch {
	case strings.HasPrefix(name, "assets/"):
		// Vite puts a content hash in every asset name.
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	case name == serviceWorker:
		// The browser checks the worker for updates on each visit; it
		// must see a new build at once, not an HTTP-cached copy. Served
		// from the root, its scope is the whole app.
		h.Set("Cache-Control", "no-cache")
	}
	return c.Blob(http.StatusOK, ct, b)
}

// precompressed returns the build's compressed copy of the file name
// (name.br, name.gz: frontend/vite.config.ts writes them) that the
// client's Accept-Encoding allows, brotli first; nil when there is none.
func (s *spa) precompressed(name, accept string) (string, []byte) {
	for _, v := range []struct{ enc, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if !acceptsEncoding(accept, v.enc) {
			continue
		}
		if b, err := fs.ReadFile(s.files, name+v.ext); err == nil {
			return v.enc, b
		}
	}
	return "", nil
}

// serviceWorker is the PWA's service worker (frontend/public/sw.js): it
// caches the app shell only, never /api or /ws answers.
const serviceWorker = "sw.js"

func (s *Server) writeIndex(c echo.Context, status int, head []byte) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	page := s.spa.index
	if page == nil {
		page = []byte(notBuilt)
	}
	if head != nil {
		page = bytes.Replace(page, []byte("</head>"), append(head, "</head>"...), 1)
	}
	return c.HTMLBlob(status, page)
}
