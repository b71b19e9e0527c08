package sdk

import "bytes"

// The grammar half of jscan (textblocks.go): skipping and validating any
// JSON value by encoding/json's rules.

// value skips one JSON value at s.i.
func (s *jscan) value(depth int) bool {
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.members(depth+1, func([]byte) (bool, bool) { return false, true })
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

func (s *jscan) array(depth int) bool {
	if depth > maxScanDepth {
		return false
	}
	s.i++ // '['
	s.ws()
	if s.at(']') {
		s.i++
		return true
	}
	for {
		s.ws()
		if !s.value(depth) {
			return false
		}
		more, ok := s.sep(']')
		if !more {
			return ok
		}
	}
}

// sep consumes ',' (more) or the closing byte (not more); ok is false for
// anything else.
func (s *jscan) sep(end byte) (more, ok bool) {
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

// str skips a string starting at '"'.
func (s *jscan) str() bool {
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

func (s *jscan) escape() bool {
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

func (s *jscan) lit(word string) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

// num scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *jscan) num() bool {
	if s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.at('0'):
		s.i++
	case s.digits() == 0:
		return false
	}
	if s.at('.') {
		s.i++
		if s.digits() == 0 {
			return false
		}
	}
	if s.at('e') || s.at('E') {
		s.i++
		if s.at('+') || s.at('-') {
			s.i++
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

func (s *jscan) digits() int {
	n := 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}
