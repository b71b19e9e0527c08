package server

import (
	"net/http"
	"strings"

	"github.com/klauspost/compress/gzhttp"
	"github.com/labstack/echo/v4"
)

// HTTP answers are compressed when the client asks for it: a chat's
// history is JSON with the messages' HTML, which gzip makes 5–10 times
// smaller, and the app's own files are served precompressed (spa.go).
// gzhttp (klauspost/compress) does the negotiation, Vary, a minimum size
// and the streaming, and is several times faster than compress/gzip;
// zstd is offered too (browsers ask for it over HTTPS only).
//
// What is not compressed: WebSocket upgrades (the sockets have their own
// rules, socket.go), a file's raw bytes (…/fs/file answers Range requests
// and serves any type), and types that are compressed already (only the
// text types below are). No answer holds a secret beside text an attacker
// chooses (the token travels in a cookie header, never in a body), so
// compressing them gives a BREACH-style attack nothing to guess.

// compressTypes are the content types worth compressing.
var compressTypes = []string{
	"application/json", "application/x-ndjson", "application/javascript", "text/javascript",
	"text/css", "text/html", "text/plain", "text/markdown", "image/svg+xml",
	"application/manifest+json",
}

// compressMinSize: smaller answers cost more to compress than they save.
const compressMinSize = 1024

// newCompressor builds the gzhttp wrapper; its options are constants, so
// an error is a programming error.
func newCompressor() func(http.Handler) http.HandlerFunc {
	gz, err := gzhttp.NewWrapper(gzhttp.ContentTypes(compressTypes), gzhttp.MinSize(compressMinSize),
		gzhttp.CompressionLevel(5))
	if err != nil {
		panic(err)
	}
	return gz
}

// uncompressed reports the requests whose answers go as they are.
func uncompressed(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/ws/") || strings.HasSuffix(r.URL.Path, "/fs/file") ||
		r.Header.Get("Range") != ""
}

// compress is the middleware. An error of a later handler is written
// through the compressing writer before it closes (echo would write it
// after this middleware returned, into a writer gzhttp has recycled).
func (s *Server) compress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if uncompressed(c.Request()) {
			return next(c)
		}
		res := c.Response()
		orig := res.Writer
		defer func() { res.Writer = orig }()
		s.gz(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			res.Writer = w
			c.SetRequest(r)
			if err := next(c); err != nil {
				c.Error(err)
			}
		})).ServeHTTP(orig, c.Request())
		return nil
	}
}

// acceptsEncoding reports whether an Accept-Encoding header value allows
// enc (a listed coding without q=0).
func acceptsEncoding(header, enc string) bool {
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), enc) {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return !strings.HasPrefix(q, "q=0") || strings.TrimLeft(strings.TrimPrefix(q, "q=0"), ".0") != ""
	}
	return false
}
