package transcript

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// ownLevels is how many heading levels the document uses itself: # for
// its title, ## for each message. A message's own headings go below them.
const ownLevels = 2

// mdParser finds the headings; a parser is safe for concurrent Parse calls.
var mdParser parser.Parser = goldmark.DefaultParser()

// edit replaces src[start:stop] with with.
type edit struct {
	start, stop int
	with        string
}

// demoteHeadings returns md with each of its headings ownLevels lower
// (# Title becomes ### Title; at most ######), so that a reply's outline
// sits under the message it belongs to. It parses md as CommonMark does:
// a # in a code block or fence is not a heading and stays as it is. A
// setext heading (Title, then === or ---) becomes an ATX one.
func demoteHeadings(md string) string {
	if !strings.ContainsAny(md, "#=-") {
		return md
	}
	src := []byte(md)
	var edits []edit
	_ = ast.Walk(mdParser.Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			if e, ok := demotion(src, h); ok {
				edits = append(edits, e)
			}
		}
		return ast.WalkContinue, nil
	})
	if len(edits) == 0 {
		return md
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	var out strings.Builder
	out.Grow(len(md) + 4*len(edits))
	at := 0
	for _, e := range edits {
		if e.start < at {
			continue // cannot happen: headings do not overlap
		}
		out.WriteString(md[at:e.start])
		out.WriteString(e.with)
		at = e.stop
	}
	out.WriteString(md[at:])
	return out.String()
}

// demotion is the edit that makes h ownLevels lower. An empty heading
// (# alone) is left as it is: it has no text to place in the outline,
// and goldmark gives it no reliable position.
func demotion(src []byte, h *ast.Heading) (edit, bool) {
	lines := h.Lines()
	if lines.Len() == 0 {
		return edit{}, false
	}
	marker := strings.Repeat("#", min(h.Level+ownLevels, 6))
	// ATX (# Title): the marker and blanks stand before the text on its
	// line. A setext heading's text has only its container's marks (>, -)
	// before it, never a #.
	start := lines.At(0).Start
	q := start
	for q > 0 && strings.IndexByte(" \t\r\v\f", src[q-1]) >= 0 { // goldmark's blanks
		q--
	}
	run := q
	for run > 0 && src[run-1] == '#' {
		run--
	}
	if q-run == h.Level {
		return edit{run, q, marker}, true
	}
	// Setext: the text's lines, then the underline's line.
	var words []string
	for i := range lines.Len() {
		seg := lines.At(i)
		words = append(words, strings.TrimSpace(string(seg.Value(src))))
	}
	end := lines.At(lines.Len() - 1).Stop
	if end > 0 && src[end-1] == '\n' {
		end--
	}
	end = lineEnd(src, end) // the end of the text's last line
	if end < len(src) {
		end = lineEnd(src, end+1) // the end of the underline
	}
	return edit{start, end, marker + " " + strings.Join(words, " ")}, true
}

// lineEnd is the index of the first newline at or after i, or len(src).
func lineEnd(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' {
		i++
	}
	return i
}
