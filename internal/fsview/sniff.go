package fsview

import (
	"bytes"
	"net/http"
	"path"
	"strings"
)

// Kinds of file content, decided from the bytes (the name only tells
// markdown from other text, and SVG from other XML).
const (
	KindText     = "text"
	KindMarkdown = "markdown"
	KindImage    = "image"
	KindPDF      = "pdf"
	KindBinary   = "binary"
)

// sniffBytes is how much of a file Sniff looks at: git's own heuristic
// looks for a NUL in the first 8,000 bytes.
const sniffBytes = 8000

// Sniff says what a file holds from its first bytes (at least the first
// 8,000 when it has them) and its name, and the Content-Type it is
// served with. It is the only place that decides how a file's bytes reach
// a browser: a type that the browser would run (HTML, XML, SVG as a
// document) is never served as itself, except SVG, which Attachment then
// marks for download.
func Sniff(name string, head []byte) (kind, contentType string) {
	head = head[:min(len(head), sniffBytes)]
	sniffed := http.DetectContentType(head)
	binary := bytes.IndexByte(head, 0) >= 0
	ext := strings.ToLower(path.Ext(name))
	switch {
	case rasterImage(sniffed):
		return KindImage, sniffed
	case sniffed == "application/pdf":
		return KindPDF, sniffed
	case binary:
		return KindBinary, "application/octet-stream"
	case ext == ".svg" && bytes.Contains(head, []byte("<svg")):
		return KindImage, "image/svg+xml"
	case ext == ".md" || ext == ".markdown" || ext == ".mdx":
		return KindMarkdown, "text/plain; charset=utf-8"
	}
	return KindText, "text/plain; charset=utf-8"
}

// Attachment reports whether a file of this Content-Type is always served
// as a download: SVG can carry script, so it is shown only through <img>
// (which runs none) and saved when opened directly.
func Attachment(contentType string) bool {
	return contentType == "image/svg+xml" || contentType == "application/octet-stream"
}

// rasterImage is the image types browsers decode without running anything.
func rasterImage(ct string) bool {
	switch ct {
	case "image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/x-icon", "image/avif":
		return true
	}
	return false
}
