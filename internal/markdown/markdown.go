// Package markdown renders the agent's markdown to sanitized HTML on the
// server, so that the browser never has to trust the model's output.
//
// One goldmark instance, built on first use (not at start), serves every
// caller: it is stateless, so Render is safe for concurrent use. Raw HTML is never passed
// through, links keep only safe schemes and open without referrer or opener,
// and fenced code comes out plain, as <pre><code class="language-X">: the
// web UI colours its tokens in the browser, with the hl- classes of the
// stylesheet CSS returns. (Chroma did it here until round 7: its package
// init alone cost the idle server ~6 MiB, issue 29, and it was a large
// part of rendering an import, issue 28.)
package markdown

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"

	_ "embed" // the stylesheet

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// css is the stylesheet of the code blocks' token classes, both themes.
//
//go:embed highlight.css
var css string

// neverMatch disables e-mail linkify: only http and https text is linkified.
var neverMatch = regexp.MustCompile(`\A\z.`)

// renderer is the markdown converter.
type renderer struct {
	md goldmark.Markdown
}

// builds counts how often the renderer was built: once at most, on first
// use, so that a server that renders no markdown pays nothing for it but
// the init of the packages it links (TestStartLoadsNoFeature checks that
// start-up does not build it).
var builds atomic.Int32

// get builds the renderer on first use, not at start.
var get = sync.OnceValue(func() *renderer {
	builds.Add(1)
	md := goldmark.New(
		goldmark.WithExtensions(
			extension.Table,
			extension.Strikethrough,
			extension.TaskList,
			extension.NewLinkify(
				extension.WithLinkifyAllowedProtocols([]string{"http:", "https:"}),
				extension.WithLinkifyEmailRegexp(neverMatch),
			),
		),
		goldmark.WithParserOptions(
			parser.WithASTTransformers(util.Prioritized(linkTransformer{}, 1000)),
		),
		// No html.WithUnsafe: raw HTML becomes a comment and dangerous
		// URLs are emptied even if the transformer missed one.
	)
	return &renderer{md: md}
})

// Built reports whether the renderer was built (for start-up's tests).
func Built() bool { return builds.Load() > 0 }

// renderBuf is an output buffer with the buffered writer goldmark wants;
// without one it allocates a 4 KiB writer per call.
type renderBuf struct {
	b bytes.Buffer
	w *bufio.Writer
}

var bufs = sync.Pool{New: func() any {
	rb := &renderBuf{}
	rb.w = bufio.NewWriterSize(&rb.b, 4<<10)
	return rb
}}

// maxPooled keeps the buffers of unusually long renders out of the pool.
const maxPooled = 256 << 10

// Render converts markdown to sanitized HTML. It is safe for concurrent use.
func Render(src string) (string, error) {
	if out, ok := plainHTML(src); ok {
		return out, nil
	}
	return renderGoldmark(src)
}

// renderGoldmark is Render without the plain-text fast path.
func renderGoldmark(src string) (string, error) {
	rb := bufs.Get().(*renderBuf)
	rb.b.Reset()
	rb.w.Reset(&rb.b)
	err := get().md.Convert([]byte(src), rb.w) // flushes rb.w
	out := rb.b.String()
	if rb.b.Cap() <= maxPooled {
		bufs.Put(rb)
	}
	if err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	return out, nil
}

// CSS returns the stylesheet of code blocks: the colours of the token
// classes (hl- prefix) the web UI puts on code, in both themes.
func CSS() string { return css }
