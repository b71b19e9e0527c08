package fsview_test

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/fsview"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// TestView: each kind is decided by content; text over 1 MiB is cut at
// 1 MiB on a whole character and marked partial; markdown is rendered
// with the chat's sanitizer (raw HTML never passes).
func TestView(t *testing.T) {
	f := newFixture(t)
	long := strings.Repeat("a", wire.FSViewBytes-1) + "é and more"
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
	files := map[string]string{
		"main.go":   "package main\n",
		"README.md": "# Title\n\n<script>alert(1)</script>\n\n**bold**",
		"long.txt":  long,
		"pic.dat":   png,
		"doc.pdf":   "%PDF-1.4\n%…",
		"logo.svg":  `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
		"data.bin":  "abc\x00def",
		"page.html": "<html><script>alert(1)</script></html>",
		"latin1":    "caf\xe9",
	}
	for name, c := range files {
		f.write(t, name, c)
	}
	cases := []struct {
		name, kind, ctype string
		partial, editable bool
	}{
		{"main.go", fsview.KindText, "text/plain; charset=utf-8", false, true},
		{"README.md", fsview.KindMarkdown, "text/plain; charset=utf-8", false, true},
		{"long.txt", fsview.KindText, "text/plain; charset=utf-8", true, true},
		{"pic.dat", fsview.KindImage, "image/png", false, false},
		{"doc.pdf", fsview.KindPDF, "application/pdf", false, false},
		{"logo.svg", fsview.KindImage, "image/svg+xml", false, false},
		{"data.bin", fsview.KindBinary, "application/octet-stream", false, false},
		{"page.html", fsview.KindText, "text/plain; charset=utf-8", false, true},
		{"latin1", fsview.KindText, "text/plain; charset=utf-8", false, false},
	}
	for _, c := range cases {
		v, err := f.tree.View(c.name)
		if err != nil {
			t.Fatalf("View(%s): %v", c.name, err)
		}
		if v.Kind != c.kind || v.ContentType != c.ctype || v.Partial != c.partial || v.Editable != c.editable {
			t.Errorf("View(%s) = kind %s, type %s, partial %v, editable %v; want %s %s %v %v",
				c.name, v.Kind, v.ContentType, v.Partial, v.Editable, c.kind, c.ctype, c.partial, c.editable)
		}
		if v.Size != int64(len(files[c.name])) || v.ETag == "" {
			t.Errorf("View(%s): size %d, etag %q", c.name, v.Size, v.ETag)
		}
	}
	v, _ := f.tree.View("long.txt")
	if len(v.Text) != wire.FSViewBytes-1 || !strings.HasSuffix(v.Text, "a") {
		t.Errorf("partial text is %d bytes ending %q; want the cut é left out", len(v.Text), v.Text[len(v.Text)-3:])
	}
	md, _ := f.tree.View("README.md")
	if !strings.Contains(md.HTML, "<strong>bold</strong>") || strings.Contains(md.HTML, "<script>") {
		t.Errorf("markdown HTML %q", md.HTML)
	}
	if img, _ := f.tree.View("pic.dat"); img.Text != "" {
		t.Error("an image view carries text")
	}
}
