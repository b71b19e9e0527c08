package markdown

import (
	"regexp"
	"strings"
	"testing"
)

var (
	tagRe  = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>`)
	attrRe = regexp.MustCompile(`\s([a-zA-Z-]+)="([^"]*)"`)
)

// allowedTags is every element the renderer may produce.
var allowedTags = map[string]bool{
	"p": true, "a": true, "em": true, "strong": true, "del": true, "code": true, "pre": true,
	"span": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"ul": true, "ol": true, "li": true, "blockquote": true, "hr": true, "br": true, "img": true,
	"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "input": true,
}

// fuzzRenderSeeds are FuzzRender's corpus, shared with FuzzPlain.
var fuzzRenderSeeds = []string{
	"hi <script>alert(1)</script>", `[c](javascript:alert(1))`, `![x](vbscript:x)`,
	`<img src=x onerror=alert(1)>`, "```go\nfunc f() {}\n```", "| a |\n|---|\n| b |",
	"- [x] t", "~~s~~ https://example.com www.example.com", `<a href="javascript:x">y</a>`,
	"[a](<java\tscript:x>)", "&#106;avascript:", "```\"><svg onload=1>\nx\n```",
}

// FuzzRender checks the sanitizer's contract on any input: only known
// elements, no event handler attributes, no script-capable URLs.
func FuzzRender(f *testing.F) {
	for _, s := range fuzzRenderSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, err := Render(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tagRe.FindAllStringSubmatch(out, -1) {
			if !allowedTags[strings.ToLower(m[1])] {
				t.Fatalf("element %q in %q", m[1], out)
			}
			for _, a := range attrRe.FindAllStringSubmatch(m[2], -1) {
				name, val := strings.ToLower(a[1]), strings.ToLower(a[2])
				if strings.HasPrefix(name, "on") || name == "style" && m[1] != "td" && m[1] != "th" {
					t.Fatalf("attribute %q in %q", name, out)
				}
				if (name == "href" || name == "src") && !safeURL([]byte(val), name == "src") {
					t.Fatalf("url %q in %q", val, out)
				}
			}
		}
	})
}
