package markdown

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func render(t *testing.T, src string) string {
	t.Helper()
	out, err := Render(src)
	if err != nil {
		t.Fatalf("Render(%q): %v", src, err)
	}
	return out
}

func TestXSSNeutralised(t *testing.T) {
	cases := []struct {
		name, src string
		banned    []string // case-insensitive substrings that must not appear
		want      []string // substrings that must appear
	}{
		{"script tag", "hi <script>alert(1)</script>", []string{"<script"}, []string{"hi"}},
		{"script block", "<script>\nalert(1)\n</script>", []string{"<script"}, nil},
		{"img onerror", `<img src=x onerror="alert(1)">`, []string{"<img", "onerror"}, nil},
		{"raw div", `<div onclick="x()">a</div>`, []string{"<div", "onclick"}, nil},
		{"iframe", `<iframe src="https://evil"></iframe>`, []string{"<iframe"}, nil},
		{"javascript link", `[click](javascript:alert(1))`, []string{"javascript:", "<a"}, []string{"click"}},
		{"mixed case js", `[c](JaVaScRiPt:alert(1))`, []string{"javascript:", "<a"}, []string{">c<"}},
		{"entity js", `[c](&#106;avascript:alert(1))`, []string{"javascript:", "<a"}, nil},
		{"tab in scheme", "[c](<java\tscript:alert(1)>)", []string{"script:", "<a"}, nil},
		{"vbscript", `[c](vbscript:msgbox)`, []string{"vbscript", "<a"}, nil},
		{"data link", `[c](data:text/html;base64,PHNjcmlwdD4=)`, []string{"data:", "<a"}, nil},
		{"js image", `![alt text](javascript:alert(1))`, []string{"<img", "javascript"}, []string{"alt text"}},
		{"js autolink", `<javascript:alert(1)>`, []string{"<a", "href=\"javascript"}, nil},
		{"attribute break", `[x](https://a.example/"onmouseover="alert(1))`, []string{`" onmouseover`, `"onmouseover="`}, nil},
		{"inline html in text", `a <b onmouseover=alert(1)>b</b>`, []string{"<b ", "onmouseover"}, nil},
		{"code span html", "`<script>`", []string{"<script"}, []string{"&lt;script&gt;"}},
		{"fence html", "```html\n<script>alert(1)</script>\n```", []string{"<script"}, []string{"&lt;"}},
		{"fence info attr", "```js {style=\"x\" onload=alert(1)}\nx\n```", []string{"onload"}, nil},
		{"unknown lang fence", "```\"><img src=x onerror=1>\nx\n```", []string{"<img", "onerror="}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := render(t, c.src)
			low := strings.ToLower(out)
			for _, b := range c.banned {
				if strings.Contains(low, strings.ToLower(b)) {
					t.Errorf("output contains %q:\n%s", b, out)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestLinks(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
		banned    []string
	}{
		{"inline http", "[a](https://example.com/x)", []string{`href="https://example.com/x"`, `rel="nofollow noopener noreferrer"`, `target="_blank"`}, nil},
		{"linkify https", "see https://example.com/p?q=1 now", []string{`<a href="https://example.com/p?q=1"`, `rel="nofollow noopener noreferrer"`}, nil},
		{"linkify www", "see www.example.com now", []string{`href="http://www.example.com"`, "noreferrer"}, nil},
		{"no linkify ftp", "see ftp://example.com now", []string{"ftp://example.com"}, []string{"<a"}},
		{"no linkify email", "mail a@example.com now", []string{"a@example.com"}, []string{"<a"}},
		{"mailto link", "[m](mailto:a@example.com)", []string{`href="mailto:a@example.com"`, "noopener"}, nil},
		{"relative", "[f](src/main.go)", []string{`href="src/main.go"`, "noopener"}, nil},
		{"autolink", "<https://example.com>", []string{`href="https://example.com"`, "noopener"}, nil},
		{"image", "![i](https://example.com/a.png)", []string{`<img src="https://example.com/a.png"`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := render(t, c.src)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, b := range c.banned {
				if strings.Contains(out, b) {
					t.Errorf("output contains %q:\n%s", b, out)
				}
			}
		})
	}
}

func TestGFM(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"table", "| a | b |\n|---|:-:|\n| 1 | 2 |\n", []string{"<table>", "<th>a</th>", `<td style="text-align:center">2</td>`}},
		{"task list", "- [x] done\n- [ ] todo\n", []string{`<input checked="" disabled="" type="checkbox"`, `<input disabled="" type="checkbox"`}},
		{"strikethrough", "~~gone~~", []string{"<del>gone</del>"}},
		{"emphasis", "**b** _i_", []string{"<strong>b</strong>", "<em>i</em>"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := render(t, c.src)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestCodeBlocksPlain: fenced code comes out as <pre><code
// class="language-X"> with its text escaped and no markup of tokens (the
// browser highlights it); the info string cannot break out of the class.
func TestCodeBlocksPlain(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"```go\nfunc main() { fmt.Println(\"<b>&\") }\n```\n",
			"<pre><code class=\"language-go\">func main() { fmt.Println(&quot;&lt;b&gt;&amp;&quot;) }\n</code></pre>\n"},
		{"```\nplain <i>\n```\n", "<pre><code>plain &lt;i&gt;\n</code></pre>\n"},
		{"```\"><script>alert(1)</script>\nx\n```\n",
			"<pre><code class=\"language-&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">x\n</code></pre>\n"},
		{"    indented <x>\n", "<pre><code>indented &lt;x&gt;\n</code></pre>\n"},
	} {
		if got := render(t, c.src); got != c.want {
			t.Errorf("Render(%q)\n got %q\nwant %q", c.src, got, c.want)
		}
	}
	out := render(t, "```python\nprint(1)  # hi\n```\n")
	for _, bad := range []string{"hl-", "<span", "style="} {
		if strings.Contains(out, bad) {
			t.Errorf("the server marked up tokens (%q):\n%s", bad, out)
		}
	}
}

func TestConcurrentRender(t *testing.T) {
	srcs := []string{
		"# t\n```go\npackage x\n```\n",
		"| a |\n|---|\n| b |\n",
		"see https://example.com and [x](javascript:1)",
		"- [ ] a\n- [x] b\n",
	}
	want := make([]string, len(srcs))
	for i, s := range srcs {
		want[i] = render(t, s)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				k := (g + i) % len(srcs)
				out, err := Render(srcs[k])
				if err == nil && out != want[k] {
					err = fmt.Errorf("render %d differs: %q", k, out)
				}
				if err != nil {
					select {
					case errs <- err:
					default:
					}
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func BenchmarkRender(b *testing.B) {
	src := strings.Repeat("Some **bold** text with a [link](https://example.com) and `code`.\n\n", 10) +
		"```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(src); err != nil {
			b.Fatal(err)
		}
	}
}
