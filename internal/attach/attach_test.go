package attach

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// redPNG is a 2×2 PNG (testdata/red.png, the image of the CLI recording).
var redPNG = mustRead("testdata/red.png")

func mustRead(p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		panic(err)
	}
	return b
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

var pdf = []byte("%PDF-1.4\n%%EOF\n")

func TestDecodeAccepts(t *testing.T) {
	in := []Input{
		{Name: "red.png", MediaType: "image/png", Data: b64(redPNG)},
		{Name: "doc.pdf", MediaType: "application/pdf", Data: b64(pdf)},
		{Name: "notes.txt", MediaType: "text/plain; charset=utf-8", Data: b64([]byte("héllo\n"))},
		{Name: "main.go", MediaType: "", Data: b64([]byte("package main\n"))},
		{Name: "data.json", MediaType: "application/json", Data: b64([]byte(`{"a":1}`))},
	}
	files, err := Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind Kind
		mt   string
	}{{Image, "image/png"}, {Document, "application/pdf"}, {Text, "text/plain"}, {Text, "text/plain"}, {Text, "text/plain"}}
	for i, f := range files {
		if f.Kind != want[i].kind || f.MediaType != want[i].mt || f.Name != in[i].Name {
			t.Errorf("file %d: %+v", i, f)
		}
	}
	if !bytes.Equal(files[0].Data, redPNG) {
		t.Error("image bytes changed")
	}
}

func TestDecodeRefuses(t *testing.T) {
	big := make([]byte, MaxFile+1)
	copy(big, redPNG)
	nine := make([]byte, 9<<20)
	copy(nine, redPNG)
	cases := []struct {
		name string
		in   []Input
		code wire.Code
		says string
	}{
		{"no name", []Input{{MediaType: "image/png", Data: b64(redPNG)}}, wire.CodeInvalidField, "name is required"},
		{"path name", []Input{{Name: "../x.png", MediaType: "image/png", Data: b64(redPNG)}}, wire.CodeInvalidField, "not a path"},
		{"control name", []Input{{Name: "a\nb.png", MediaType: "image/png", Data: b64(redPNG)}}, wire.CodeInvalidField, "control"},
		{"bad base64", []Input{{Name: "a.png", MediaType: "image/png", Data: "!!!"}}, wire.CodeInvalidField, "base64"},
		{"empty", []Input{{Name: "a.txt", MediaType: "text/plain", Data: ""}}, wire.CodeInvalidField, "is empty"},
		{"svg image", []Input{{Name: "x.bin", MediaType: "image/svg+xml", Data: b64([]byte("<svg/>"))}}, wire.CodeInvalidField, "cannot be attached"},
		{"html page", []Input{{Name: "x.exe", MediaType: "application/x-msdownload", Data: b64([]byte("MZ"))}}, wire.CodeInvalidField, "cannot be attached"},
		{"png lie", []Input{{Name: "a.png", MediaType: "image/png", Data: b64([]byte("GIF89a......"))}}, wire.CodeInvalidField, "not a valid image/png"},
		{"pdf lie", []Input{{Name: "a.pdf", MediaType: "application/pdf", Data: b64([]byte("hello"))}}, wire.CodeInvalidField, "not a PDF"},
		{"binary text", []Input{{Name: "a.txt", MediaType: "text/plain", Data: b64([]byte{0xff, 0xfe, 0})}}, wire.CodeInvalidField, "UTF-8"},
		{"nul text", []Input{{Name: "a.txt", MediaType: "text/plain", Data: b64([]byte("a\x00b"))}}, wire.CodeInvalidField, "NUL"},
		{"big text", []Input{{Name: "a.txt", MediaType: "text/plain", Data: b64(bytes.Repeat([]byte("a"), MaxText+1))}}, wire.CodeTooLarge, "at most 1 MiB"},
		{"big file", []Input{{Name: "big.png", MediaType: "image/png", Data: b64(big)}}, wire.CodeTooLarge, "10 MiB"},
		{"big message", []Input{
			{Name: "a.png", MediaType: "image/png", Data: b64(nine)},
			{Name: "b.png", MediaType: "image/png", Data: b64(nine)},
			{Name: "c.png", MediaType: "image/png", Data: b64(nine)},
			{Name: "d.png", MediaType: "image/png", Data: b64(nine)},
		}, wire.CodeTooLarge, "30 MiB together"},
		{"too many", make([]Input, MaxCount+1), wire.CodeInvalidField, "At most 20 files"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files, err := Decode(c.in)
			var ce *wire.CodeError
			if !errors.As(err, &ce) || ce.Code != c.code || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("Decode: %v (files %d), want %s saying %q", err, len(files), c.code, c.says)
			}
			if files != nil {
				t.Error("files returned with an error")
			}
		})
	}
}

func TestBlocks(t *testing.T) {
	files, err := Decode([]Input{
		{Name: "red.png", MediaType: "image/png", Data: b64(redPNG)},
		{Name: "doc.pdf", MediaType: "application/pdf", Data: b64(pdf)},
		{Name: "notes.txt", MediaType: "text/plain", Data: b64([]byte("hello\n"))},
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(Blocks("look", files))
	want := `[{"type":"text","text":"look"},` +
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + b64(redPNG) + `"}},` +
		`{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"` + b64(pdf) + `"},"title":"doc.pdf"},` +
		`{"type":"document","source":{"type":"text","media_type":"text/plain","data":"hello\n"},"title":"notes.txt"}]`
	if string(got) != want {
		t.Errorf("blocks:\n%s\nwant\n%s", got, want)
	}
	if got, _ := json.Marshal(Blocks("", files[:1])); strings.Contains(string(got), `"text"`) {
		t.Errorf("empty text still gives a text block: %s", got)
	}
}

// FuzzAttachments feeds the decoder arbitrary attachment lists as JSON:
// it never panics, an accepted file respects every limit and rule, and
// an error is a CodeError with one of the two codes.
func FuzzAttachments(f *testing.F) {
	seed, _ := json.Marshal([]Input{{Name: "red.png", MediaType: "image/png", Data: b64(redPNG)}})
	f.Add(seed)
	f.Add([]byte(`[{"name":"a.txt","mediaType":"text/plain","data":"aGVsbG8="}]`))
	f.Add([]byte(`[{"name":"a.pdf","mediaType":"application/pdf","data":"JVBERi0xLjQK"}]`))
	f.Add([]byte(`[{"name":"x.go","mediaType":"","data":"cGFja2FnZSBt\nYWlu"}]`))
	f.Add([]byte(`[{"name":"..","mediaType":"image/gif","data":"R0lGODlh"}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var in []Input
		if json.Unmarshal(raw, &in) != nil {
			return
		}
		files, err := Decode(in)
		if err != nil {
			var ce *wire.CodeError
			if !errors.As(err, &ce) || (ce.Code != wire.CodeInvalidField && ce.Code != wire.CodeTooLarge) {
				t.Fatalf("error %v is not an attachment error", err)
			}
			return
		}
		total := 0
		for _, f := range files {
			total += len(f.Data)
			if len(f.Data) == 0 || len(f.Data) > MaxFile || f.Name == "" || strings.ContainsAny(f.Name, `/\`) {
				t.Fatalf("accepted %q (%d bytes)", f.Name, len(f.Data))
			}
			if f.Kind == Text && (len(f.Data) > MaxText || f.MediaType != "text/plain") {
				t.Fatalf("accepted text %q (%d bytes, %s)", f.Name, len(f.Data), f.MediaType)
			}
			if f.Kind == Image && !imageTypes[f.MediaType] {
				t.Fatalf("accepted image type %s", f.MediaType)
			}
		}
		if total > MaxTotal || len(files) > MaxCount {
			t.Fatalf("accepted %d files of %d bytes", len(files), total)
		}
		if _, err := json.Marshal(Blocks("x", files)); err != nil {
			t.Fatal(err)
		}
	})
}
