package fsview

import (
	"fmt"
	"io"
	"path"
	"time"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/internal/markdown"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// View is the first view of a file: what it is, and for text its first
// wire.FSViewBytes (markdown also rendered to sanitized HTML). Images,
// PDFs and other files carry no content: the viewer loads them from the
// file's own URL.
type View struct {
	Path        string    `json:"path"`
	Name        string    `json:"name"`
	Size        int64     `json:"size"`
	MTime       time.Time `json:"mtime"`
	ETag        string    `json:"etag"`
	Kind        string    `json:"kind"`
	ContentType string    `json:"contentType"`
	// Partial: Text (and HTML) hold only the first wire.FSViewBytes.
	Partial bool   `json:"partial"`
	Text    string `json:"text,omitempty"`
	HTML    string `json:"html,omitempty"`
	// Editable: text of at most wire.FSEditBytes that is valid UTF-8, so
	// that an editor can save it back unchanged but for the edits.
	Editable bool `json:"editable"`
}

// View opens p and returns its first view.
func (t *Tree) View(p string) (View, error) {
	f, err := t.Open(p)
	if err != nil {
		return View{}, err
	}
	defer f.Close()
	head, err := f.head(wire.FSViewBytes)
	if err != nil {
		return View{}, err
	}
	v := View{Path: f.Path, Name: path.Base(f.Path), Size: f.Size, MTime: f.MTime, ETag: f.ETag}
	v.Kind, v.ContentType = Sniff(v.Name, head)
	if v.Kind != KindText && v.Kind != KindMarkdown {
		return v, nil
	}
	v.Partial = int64(len(head)) < f.Size
	text := head
	if v.Partial {
		text = trimRune(text)
	}
	v.Text = string(text)
	v.Editable = f.Data != nil && utf8.Valid(f.Data)
	if v.Kind == KindMarkdown {
		if v.HTML, err = markdown.Render(v.Text); err != nil {
			return View{}, fmt.Errorf("view %s: %w", f.Path, err)
		}
	}
	return v, nil
}

// head returns the first n bytes of the file (fewer when it is shorter).
func (f *File) head(n int) ([]byte, error) {
	if f.Data != nil {
		return f.Data[:min(n, len(f.Data))], nil
	}
	buf := make([]byte, n)
	m, err := io.ReadFull(f.File, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("read %s: %w", f.Path, err)
	}
	return buf[:m], nil
}

// trimRune drops an incomplete UTF-8 sequence cut at the end of b.
func trimRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}
