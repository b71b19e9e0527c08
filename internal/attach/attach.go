// Package attach decodes and checks the files a person attaches to a chat
// message ({"name","mediaType","data":"<base64>"}) and turns them into the
// content blocks the Claude CLI takes on stdin (stream-json): images as
// image blocks, PDFs as document blocks, text files as text documents
// with their name. It owns the limits; it holds no state.
package attach

import (
	"encoding/base64"
	"fmt"
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// Limits (docs/api-extensions.md, "Attachments").
const (
	// MaxFile bounds one file, decoded.
	MaxFile = 10 << 20
	// MaxTotal bounds the files of one message together, decoded.
	MaxTotal = 30 << 20
	// MaxText bounds a text file: larger ones are refused, not cut.
	MaxText = 1 << 20
	// MaxCount bounds the files of one message.
	MaxCount = 20
	// MaxName bounds a file name, in bytes.
	MaxName = 255
)

// Kind says how a file goes to the CLI.
type Kind uint8

const (
	Image    Kind = iota + 1 // an image block
	Document                 // a base64 document block (PDF)
	Text                     // a text document block, with the file's name
)

// Input is an attachment as a client sends it.
type Input struct {
	Name      string `json:"name"`
	MediaType string `json:"mediaType"`
	Data      string `json:"data"` // standard base64, padded
	// Decoded, when not nil, is Data already decoded (then Data is empty):
	// the server decodes large bodies' files straight from the body, so
	// that the base64 text is never copied. Decode checks it as it checks
	// Data.
	Decoded []byte `json:"-"`
}

// File is a checked attachment: MediaType is canonical (text files are
// text/plain), Data decoded.
type File struct {
	Name      string
	MediaType string
	Kind      Kind
	Data      []byte
}

// imageTypes are the image media types the Messages API takes, each with
// the type net/http's sniffer gives its bytes.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// Decode checks every attachment and decodes it. It fails on the first
// problem with a *wire.CodeError: too_large for a file or message over
// the limits, invalid_field for anything else; the message names the file
// and the rule. Nothing is decoded past a limit: the size is checked from
// the base64 length first.
func Decode(in []Input) ([]File, error) {
	if len(in) > MaxCount {
		return nil, invalid("At most %d files can be attached to one message (attachments), not %d", MaxCount, len(in))
	}
	out := make([]File, 0, len(in))
	total := 0
	for i, a := range in {
		f, err := decodeOne(i, a)
		if err != nil {
			return nil, err
		}
		total += len(f.Data)
		if total > MaxTotal {
			return nil, tooLarge("The files of one message may hold %s together; with %q (attachments[%d]) they hold more", size(MaxTotal), f.Name, i)
		}
		out = append(out, f)
	}
	return out, nil
}

func decodeOne(i int, a Input) (File, error) {
	field := fmt.Sprintf("attachments[%d]", i)
	name, err := checkName(field, a.Name)
	if err != nil {
		return File{}, err
	}
	label := fmt.Sprintf("File %q (%s)", name, field)
	data := a.Decoded
	if data == nil {
		if base64.StdEncoding.DecodedLen(len(a.Data)) > MaxFile+3 {
			return File{}, tooLarge("%s is larger than %s, the limit for one file", label, size(MaxFile))
		}
		var err error
		if data, err = base64.StdEncoding.DecodeString(a.Data); err != nil {
			return File{}, invalid("%s: its data is not valid base64", label)
		}
	}
	if len(data) == 0 {
		return File{}, invalid("%s is empty", label)
	}
	if len(data) > MaxFile {
		return File{}, tooLarge("%s is %s, larger than %s, the limit for one file", label, size(len(data)), size(MaxFile))
	}
	mt := mediaType(a.MediaType)
	f := File{Name: name, MediaType: mt, Data: data}
	switch {
	case imageTypes[mt]:
		f.Kind = Image
		if sniffed := sniffImage(data); sniffed != mt {
			return File{}, invalid("%s is not a valid %s image", label, mt)
		}
	case mt == "application/pdf":
		f.Kind = Document
		if !strings.HasPrefix(string(data[:min(len(data), 5)]), "%PDF-") {
			return File{}, invalid("%s is not a PDF file", label)
		}
	case isTextType(mt, name):
		f.Kind, f.MediaType = Text, "text/plain"
		if err := checkText(label, data); err != nil {
			return File{}, err
		}
	default:
		what := mt
		if what == "" {
			what = "a file of unknown type"
		}
		return File{}, invalid("%s: %s cannot be attached; attach PNG, JPEG, GIF or WebP images, PDF files, or text files", label, what)
	}
	return f, nil
}

// checkName returns the file's name: one path segment, printable, at most
// MaxName bytes.
func checkName(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", invalid("%s: name is required", field)
	case len(name) > MaxName:
		return "", invalid("%s: name is longer than %d bytes", field, MaxName)
	case !utf8.ValidString(name):
		return "", invalid("%s: name is not valid UTF-8", field)
	case strings.ContainsAny(name, `/\`) || name == "." || name == "..":
		return "", invalid("%s: name must be a file name, not a path", field)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return "", invalid("%s: name contains control characters", field)
	}
	return name, nil
}

// sniffImage is the image type the bytes say they are (the Messages API
// refuses an image whose bytes do not match its media type).
func sniffImage(data []byte) string {
	return http.DetectContentType(data[:min(len(data), 512)])
}

// mediaType is mt lower-cased without parameters ("" when unparsable).
func mediaType(mt string) string {
	if mt == "" {
		return ""
	}
	base, _, err := mime.ParseMediaType(mt)
	if err != nil {
		return ""
	}
	return strings.ToLower(base)
}

// textExts are extensions of text files that browsers often send with no
// media type or a non-text one (application/json, application/x-sh …).
var textExts = map[string]bool{
	".txt": true, ".md": true, ".markdown": true, ".rst": true, ".log": true, ".csv": true, ".tsv": true,
	".json": true, ".jsonl": true, ".yaml": true, ".yml": true, ".toml": true, ".ini": true, ".cfg": true,
	".conf": true, ".env": true, ".xml": true, ".html": true, ".htm": true, ".css": true, ".scss": true,
	".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".tsx": true, ".jsx": true, ".go": true,
	".mod": true, ".sum": true, ".py": true, ".rb": true, ".rs": true, ".c": true, ".h": true,
	".cc": true, ".cpp": true, ".hpp": true, ".java": true, ".kt": true, ".swift": true, ".cs": true,
	".php": true, ".pl": true, ".lua": true, ".sh": true, ".bash": true, ".zsh": true, ".fish": true,
	".sql": true, ".graphql": true, ".proto": true, ".diff": true, ".patch": true, ".tex": true,
	".vue": true, ".svelte": true, ".dockerfile": true, ".gitignore": true, ".svg": true,
}

// isTextType reports whether a file counts as text: a text/* media type,
// or a known text extension with no media type or a generic one. Whether
// its bytes are text is checkText's job.
func isTextType(mt, name string) bool {
	if strings.HasPrefix(mt, "text/") {
		return true
	}
	if !textExts[strings.ToLower(path.Ext(name))] {
		return false
	}
	switch mt {
	case "", "application/octet-stream", "application/json", "application/xml", "application/javascript",
		"application/x-sh", "application/x-yaml", "application/yaml", "application/toml", "image/svg+xml":
		return true
	}
	return strings.HasPrefix(mt, "application/x-")
}

// checkText accepts at most MaxText bytes of UTF-8 without NUL bytes.
func checkText(label string, data []byte) error {
	switch {
	case len(data) > MaxText:
		return tooLarge("%s is %s; text files may be at most %s", label, size(len(data)), size(MaxText))
	case !utf8.Valid(data):
		return invalid("%s is not UTF-8 text", label)
	case strings.IndexByte(string(data), 0) >= 0:
		return invalid("%s is not a text file (it holds NUL bytes)", label)
	}
	return nil
}

func invalid(format string, args ...any) error {
	return &wire.CodeError{Code: wire.CodeInvalidField, Err: fmt.Errorf(format, args...)}
}

func tooLarge(format string, args ...any) error {
	return &wire.CodeError{Code: wire.CodeTooLarge, Err: fmt.Errorf(format, args...)}
}

// size writes n bytes for people: "10 MiB", "1.5 MiB", "12 KiB".
func size(n int) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
