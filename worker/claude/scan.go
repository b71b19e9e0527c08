package claude

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A small strict JSON scanner for ParseLine. encoding/json costs about
// 60 µs for a 1 KB line on a small machine (it decodes every field it then
// throws away); this one validates the whole line by the same grammar but
// only picks out the few top-level values dispatch needs, several times
// faster. FuzzParseLine checks it against encoding/json.

// maxDepth matches encoding/json's nesting limit.
const maxDepth = 10000

type scanner struct {
	b []byte
	i int
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value skips one JSON value (after whitespace).
func (s *scanner) value(depth int) bool {
	s.ws()
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object(depth+1, nil)
	case c == '[':
		return s.array(depth + 1)
	case c == '"':
		return s.str()
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.num()
	}
	return false
}

// object scans an object starting at '{', calling field (when not nil) with
// each key (still quoted) and the raw value.
func (s *scanner) object(depth int, field func(key, val []byte)) bool {
	if depth > maxDepth {
		return false
	}
	s.i++ // '{'
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return true
	}
	for {
		s.ws()
		k := s.i
		if s.i >= len(s.b) || s.b[s.i] != '"' || !s.str() {
			return false
		}
		key := s.b[k:s.i]
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return false
		}
		s.i++
		s.ws()
		v := s.i
		if !s.value(depth) {
			return false
		}
		if field != nil {
			field(key, s.b[v:s.i])
		}
		if more, ok := s.sep('}'); !more {
			return ok
		}
	}
}

// sep consumes ',' (more) or the closing byte (not more); ok is false for
// anything else.
func (s *scanner) sep(end byte) (more, ok bool) {
	s.ws()
	if s.i >= len(s.b) {
		return false, false
	}
	c := s.b[s.i]
	s.i++
	switch c {
	case ',':
		return true, true
	case end:
		return false, true
	}
	return false, false
}

func (s *scanner) array(depth int) bool {
	if depth > maxDepth {
		return false
	}
	s.i++ // '['
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return true
	}
	for {
		if !s.value(depth) {
			return false
		}
		if more, ok := s.sep(']'); !more {
			return ok
		}
	}
}

func (s *scanner) str() bool {
	s.i++ // '"'
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if !s.escape() {
				return false
			}
		default:
			s.i++
		}
	}
	return false
}

func (s *scanner) escape() bool {
	s.i++ // '\\'
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i++
		return true
	case 'u':
		if s.i+4 >= len(s.b) {
			return false
		}
		for _, h := range s.b[s.i+1 : s.i+5] {
			if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
				return false
			}
		}
		s.i += 5
		return true
	}
	return false
}

func (s *scanner) lit(word string) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

// num scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) num() bool {
	if s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.digits() == 0:
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

func (s *scanner) digits() int {
	n := 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}

// fields scans b, which must be one JSON object and nothing else, calling
// field for each top-level member.
func fields(b []byte, field func(key, val []byte)) bool {
	s := scanner{b: b}
	s.ws()
	if s.i >= len(b) || b[s.i] != '{' || !s.object(1, field) {
		return false
	}
	s.ws()
	return s.i == len(b)
}

// unquote returns the string a raw JSON value holds, and false when it is
// not a string. Plain strings are sliced; escapes and invalid UTF-8 go
// through encoding/json so the result is exactly what it would give.
func unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var str string
	if json.Unmarshal(raw, &str) != nil {
		return "", false
	}
	return str, true
}

// keyIs reports whether a raw (quoted) key decodes to name.
func keyIs(key []byte, name string) bool {
	if len(key) == len(name)+2 && string(key[1:len(key)-1]) == name {
		return true
	}
	if bytes.IndexByte(key, '\\') < 0 {
		return false
	}
	k, _ := unquote(key)
	return k == name
}
