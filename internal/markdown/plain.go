package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A fast path for text with no markdown in it, which is most of what an
// agent says in a line ("Let me check the tests." ...). Running goldmark on
// it builds a document, a paragraph and text nodes to print one <p>; here
// the same bytes are written directly. plainHTML accepts only text built
// from characters that cannot start any markdown construct where they
// stand, and says no otherwise: goldmark then renders it. TestPlainMatches
// and FuzzPlain compare both over many inputs.

// plainPunct is the ASCII punctuation with no meaning to goldmark and its
// extensions anywhere in a line.
const plainPunct = ` ,.;?!'"/%$^{}`

// midPunct is punctuation that means something only at the start of a
// line (lists, setext headings, thematic breaks).
const midPunct = `-+=`

// plainHTML returns what Render gives for src, and false when src might
// hold markdown.
func plainHTML(src string) (string, bool) {
	if src == "" || len(src) > 64<<10 || strings.Contains(strings.ToLower(src), "www.") {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(src) + 16)
	inPara := false
	for line := range strings.SplitSeq(src, "\n") {
		if line == "" {
			if inPara {
				b.WriteString("</p>\n")
				inPara = false
			}
			continue
		}
		if !plainLine(line) {
			return "", false
		}
		if inPara {
			b.WriteByte('\n')
		} else {
			b.WriteString("<p>")
			inPara = true
		}
		writeEscaped(&b, line)
	}
	if inPara {
		b.WriteString("</p>\n")
	}
	return b.String(), true
}

// plainLine reports whether a non-empty line is plain: no leading or
// trailing space, no ordered-list marker, only plain characters.
func plainLine(line string) bool {
	if line[0] == ' ' || line[len(line)-1] == ' ' || strings.ContainsRune(midPunct, rune(line[0])) {
		return false
	}
	if d := strings.IndexFunc(line, func(r rune) bool { return r < '0' || r > '9' }); d > 0 && line[d] == '.' {
		return false // "1. item"
	}
	for i, r := range line {
		switch {
		case r < utf8.RuneSelf:
			c := byte(r)
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
				strings.IndexByte(plainPunct, c) >= 0 || i > 0 && strings.IndexByte(midPunct, c) >= 0) {
				return false
			}
		case r == utf8.RuneError:
			return false // invalid UTF-8 (or a literal U+FFFD): let goldmark decide
		case !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("—–‘’“”…", r):
			return false
		}
	}
	return true
}

// writeEscaped writes s as goldmark writes text: of the characters plain
// text may hold, only '"' is escaped.
func writeEscaped(b *strings.Builder, s string) {
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		b.WriteString("&quot;")
		s = s[i+1:]
	}
}
