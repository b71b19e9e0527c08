package search

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/internal/jsonscan"
)

// A narrow JSON walk for extract. Decoding a stored frame with
// encoding/json (twice: the frame, then its content) was a fifth of the
// indexer's CPU; scanFrame validates the frame by the same grammar but
// only looks at the fields storedFrame and block name. Whenever the frame
// is not exactly the shape it understands (a key encoding/json would fold
// onto a wanted field, a duplicate, a null or another type where a string
// or object is wanted, deep nesting), it reports !ok and extract decodes
// with encoding/json, so the result is always the same.
// TestScanFrameAgreesWithUnmarshal and FuzzScanFrame check that.

const maxScanDepth = 64

type fscan struct{ jsonscan.Scanner }

// scanned is what scanFrame read: the raw (quoted) strings of the line and
// its content's text, already joined and clipped.
type scanned struct {
	typ, uuid, timestamp []byte
	text                 string
}

// scanFrame reads a frame; ok is false when the caller must decode it with
// encoding/json instead.
func scanFrame(frame []byte) (scanned, bool) {
	s := fscan{jsonscan.Scanner{B: frame, MaxDepth: maxScanDepth}}
	var out scanned
	ok := s.object(1, []string{"message"}, func(int) bool { return s.line(&out) })
	if !ok {
		return scanned{}, false
	}
	s.WS()
	return out, s.I == len(s.B)
}

// line walks the sdk message: {"type","uuid","timestamp","message"}.
func (s *fscan) line(out *scanned) bool {
	return s.object(2, []string{"type", "uuid", "timestamp", "message"}, func(i int) bool {
		switch i {
		case 0:
			return s.str(&out.typ)
		case 1:
			return s.str(&out.uuid)
		case 2:
			return s.str(&out.timestamp)
		}
		return s.object(3, []string{"role", "content"}, func(i int) bool {
			if i == 0 {
				var role []byte
				return s.str(&role)
			}
			return s.content(&out.text)
		})
	})
}

// content reads a plain string or an array of blocks, as contentText.
func (s *fscan) content(text *string) bool {
	if s.At('"') {
		var raw []byte
		if !s.str(&raw) {
			return false
		}
		str, ok := jsonscan.Unquote(raw)
		*text = clip(str)
		return ok
	}
	if !s.At('[') {
		return false
	}
	s.I++
	s.WS()
	var b strings.Builder
	if s.At(']') {
		s.I++
		return true
	}
	for {
		s.WS()
		if !s.block(&b) {
			return false
		}
		more, ok := s.Sep(']')
		if !ok {
			return false
		}
		if !more {
			*text = clip(b.String())
			return true
		}
	}
}

// block reads one content block and appends its searchable parts to b
// (unless b is full), as blockParts.
func (s *fscan) block(b *strings.Builder) bool {
	var typ, text, name []byte
	var in [4][]byte // command, file_path, path, pattern
	ok := s.object(4, []string{"type", "text", "name", "input"}, func(i int) bool {
		switch i {
		case 0:
			return s.str(&typ)
		case 1:
			return s.str(&text)
		case 2:
			return s.str(&name)
		}
		return s.object(5, []string{"command", "file_path", "path", "pattern"}, func(i int) bool {
			return s.str(&in[i])
		})
	})
	if !ok || b.Len() >= maxText {
		return ok
	}
	kind := ""
	if typ != nil {
		var ok bool
		if kind, ok = jsonscan.Unquote(typ); !ok {
			return false
		}
	}
	switch kind {
	case "text":
		return appendPart(b, text)
	case "tool_use":
		for _, p := range [][]byte{name, in[0], in[1], in[2], in[3]} {
			if !appendPart(b, p) {
				return false
			}
		}
	}
	return true
}

// object walks the object at I. For a member whose key is exactly one of
// names, the first time, val(i) is called with I at the value and must
// consume it; other members are skipped, unless encoding/json could match
// their key to a name (escapes, non-ASCII, another case) or it repeats one.
func (s *fscan) object(depth int, names []string, val func(i int) bool) bool {
	if !s.At('{') {
		return false
	}
	var seen uint
	return s.Members(depth, func(key []byte) (bool, bool) {
		k := key[1 : len(key)-1]
		for i, n := range names {
			if string(k) == n {
				if seen&(1<<i) != 0 {
					return true, false
				}
				seen |= 1 << i
				return true, val(i)
			}
		}
		return false, plainKey(k, names)
	})
}

func plainKey(k []byte, names []string) bool {
	for _, c := range k {
		if c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	for _, n := range names {
		if strings.EqualFold(string(k), n) {
			return false
		}
	}
	return true
}

// str reads a string value (not null) into dst, raw and quoted.
func (s *fscan) str(dst *[]byte) bool {
	v := s.I
	if !s.At('"') || !s.Str() {
		return false
	}
	*dst = s.B[v:s.I]
	return true
}

// appendPart appends the string raw holds, after a newline when b is not
// empty; an empty or missing string adds nothing.
func appendPart(b *strings.Builder, raw []byte) bool {
	if len(raw) <= 2 {
		return true
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') >= 0 || !utf8.Valid(inner) {
		str, ok := jsonscan.Unquote(raw)
		if !ok {
			return false
		}
		inner = []byte(str)
	}
	if len(inner) == 0 {
		return true
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	b.Write(inner)
	return true
}
