// Package markdown renders the agent's markdown to sanitized HTML on the
// server, so that the browser never has to trust the model's output.
//
// One goldmark instance, built on first use (not at start), serves every
// caller: it is stateless, so Render is safe for concurrent use. Raw HTML is never passed
// through, links keep only safe schemes and open without referrer or opener,
// and fenced code is highlighted by chroma with CSS classes whose stylesheet
// CSS returns.
package markdown

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark"
	highlighting "github.com/yuin/goldmark-highlighting/v2"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// Style is the chroma style of code blocks in the dark theme (the
// default); LightStyle's rules follow it in CSS.
const Style = "github-dark"

// classPrefix keeps chroma's short class names (k, s, nx...) from clashing
// with the application's own classes.
const classPrefix = "hl-"

// neverMatch disables e-mail linkify: only http and https text is linkified.
var neverMatch = regexp.MustCompile(`\A\z.`)

// renderer is the markdown converter with its highlighter and the
// stylesheet of both themes.
type renderer struct {
	md  goldmark.Markdown
	css string
}

// builds counts how often the renderer was built: once at most, on first
// use, so that a server that renders no markdown pays nothing for it but
// the init of the packages it links (TestStartLoadsNoFeature checks that
// start-up does not build it).
var builds atomic.Int32

// get builds the renderer on first use (Render or CSS), not at start.
var get = sync.OnceValue(func() *renderer {
	builds.Add(1)
	format := []chromahtml.Option{chromahtml.WithClasses(true), chromahtml.ClassPrefix(classPrefix)}
	// goldmark-highlighting makes a chroma formatter per code block, and
	// each new formatter computes the style's CSS again (a third of the
	// time of rendering a message with code: issue 28's import profile).
	// The first option makes every one a copy of one formatter, so they
	// share its style cache (a pointer, safe for concurrent use); the
	// options after it apply on top as before.
	shared := chromahtml.New(format...)
	share := func(f *chromahtml.Formatter) { *f = *shared }
	md := goldmark.New(
		goldmark.WithExtensions(
			extension.Table,
			extension.Strikethrough,
			extension.TaskList,
			extension.NewLinkify(
				extension.WithLinkifyAllowedProtocols([]string{"http:", "https:"}),
				extension.WithLinkifyEmailRegexp(neverMatch),
			),
			// Never WithCSSWriter here: it would write the stylesheet after
			// every code block of every render.
			highlighting.NewHighlighting(
				highlighting.WithStyle(Style),
				highlighting.WithFormatOptions(append([]chromahtml.Option{share}, format...)...),
			),
		),
		goldmark.WithParserOptions(
			parser.WithASTTransformers(util.Prioritized(linkTransformer{}, 1000)),
		),
		// No html.WithUnsafe: raw HTML becomes a comment and dangerous
		// URLs are emptied even if the transformer missed one.
	)
	css, err := themeCSS(format)
	if err != nil {
		panic(fmt.Sprintf("markdown: %v", err)) // the styles are compiled in: a bug, not input
	}
	return &renderer{md: md, css: css}
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

// CSS returns the stylesheet for highlighted code blocks, generated on
// first use. Its selectors use the "hl-" class prefix.
func CSS() string { return get().css }
