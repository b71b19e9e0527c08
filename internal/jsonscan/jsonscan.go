// Package jsonscan is a small strict JSON scanner: it validates bytes by
// encoding/json's grammar and lets a caller pick out a few values without
// decoding the rest. The CLI line decoder (worker/claude) and the sdk
// worker's text-block reader (worker/chat) use it on their hot paths; each is
// fuzzed against encoding/json.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Scanner reads B from I. MaxDepth bounds nesting (objects and arrays);
// deeper input is refused. Not safe for concurrent use.
type Scanner struct {
	B        []byte
	I        int
	MaxDepth int
}

// WS skips whitespace.
func (s *Scanner) WS() {
	for s.I < len(s.B) {
		switch s.B[s.I] {
		case ' ', '\t', '\n', '\r':
			s.I++
		default:
			return
		}
	}
}

// At reports whether the byte at I is c.
func (s *Scanner) At(c byte) bool { return s.I < len(s.B) && s.B[s.I] == c }

// Value skips one JSON value (after whitespace) at nesting depth.
func (s *Scanner) Value(depth int) bool {
	s.WS()
	if s.I >= len(s.B) {
		return false
	}
	switch c := s.B[s.I]; {
	case c == '{':
		return s.Members(depth+1, func([]byte) (bool, bool) { return false, true })
	case c == '[':
		return s.array(depth + 1)
	case c == '"':
		return s.Str()
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

// Members walks the object at I, at nesting depth. For each member, field
// is called with the raw (quoted) key and I at the value; it reports
// whether it consumed the value (else Members skips it) and whether the
// walk may go on.
func (s *Scanner) Members(depth int, field func(key []byte) (used, ok bool)) bool {
	if depth > s.MaxDepth || !s.At('{') {
		return false
	}
	s.I++
	s.WS()
	if s.At('}') {
		s.I++
		return true
	}
	for {
		s.WS()
		k := s.I
		if !s.At('"') || !s.Str() {
			return false
		}
		key := s.B[k:s.I]
		s.WS()
		if !s.At(':') {
			return false
		}
		s.I++
		s.WS()
		used, ok := field(key)
		if !ok || !used && !s.Value(depth) {
			return false
		}
		more, ok := s.Sep('}')
		if !more {
			return ok
		}
	}
}

// Sep consumes ',' (more) or the closing byte end (not more); ok is false
// for anything else.
func (s *Scanner) Sep(end byte) (more, ok bool) {
	s.WS()
	if s.I >= len(s.B) {
		return false, false
	}
	c := s.B[s.I]
	s.I++
	switch c {
	case ',':
		return true, true
	case end:
		return false, true
	}
	return false, false
}

func (s *Scanner) array(depth int) bool {
	if depth > s.MaxDepth {
		return false
	}
	s.I++ // '['
	s.WS()
	if s.At(']') {
		s.I++
		return true
	}
	for {
		if !s.Value(depth) {
			return false
		}
		if more, ok := s.Sep(']'); !more {
			return ok
		}
	}
}

// Str skips a string starting at '"'.
func (s *Scanner) Str() bool {
	s.I++ // '"'
	for s.I < len(s.B) {
		c := s.B[s.I]
		switch {
		case c == '"':
			s.I++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if !s.escape() {
				return false
			}
		default:
			s.I++
		}
	}
	return false
}

func (s *Scanner) escape() bool {
	s.I++ // '\\'
	if s.I >= len(s.B) {
		return false
	}
	switch s.B[s.I] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.I++
		return true
	case 'u':
		if s.I+4 >= len(s.B) {
			return false
		}
		for _, h := range s.B[s.I+1 : s.I+5] {
			if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
				return false
			}
		}
		s.I += 5
		return true
	}
	return false
}

func (s *Scanner) lit(word string) bool {
	if !bytes.HasPrefix(s.B[s.I:], []byte(word)) {
		return false
	}
	s.I += len(word)
	return true
}

// num scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *Scanner) num() bool {
	if s.B[s.I] == '-' {
		s.I++
	}
	switch {
	case s.I < len(s.B) && s.B[s.I] == '0':
		s.I++
	case s.digits() == 0:
		return false
	}
	if s.I < len(s.B) && s.B[s.I] == '.' {
		s.I++
		if s.digits() == 0 {
			return false
		}
	}
	if s.I < len(s.B) && (s.B[s.I] == 'e' || s.B[s.I] == 'E') {
		s.I++
		if s.I < len(s.B) && (s.B[s.I] == '+' || s.B[s.I] == '-') {
			s.I++
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

func (s *Scanner) digits() int {
	n := 0
	for s.I < len(s.B) && s.B[s.I] >= '0' && s.B[s.I] <= '9' {
		s.I++
		n++
	}
	return n
}

// fields scans b, which must be one JSON object and nothing else, calling
// field for each top-level member.

// Unquote returns the string a raw JSON value holds, and false when it is
// not a string. Plain strings are sliced; escapes and invalid UTF-8 go
// through encoding/json so the result is exactly what it would give.
func Unquote(raw []byte) (string, bool) {
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
