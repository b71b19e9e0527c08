package attach

import (
	"bytes"
	"encoding/base64"

	"github.com/agentdesk/agentdesk/internal/jsonscan"
)

// ExtractFiles finds the base64 data of each file of a body's top-level
// "attachments" array and decodes it; it returns the body with "" in
// place of each such data string, and the files by their index in the
// array (nil where none was taken). ok is false when the body is not
// plain enough to do so: not one JSON object, a repeated "attachments" or
// "data" key, escapes in the data, data that is not base64 or larger than
// a file may be. The caller then decodes the body as it is, and the usual
// checks say what is wrong. It spares a large upload the copies an
// ordinary decode makes (the body, the decoder's, the base64 strings).
func ExtractFiles(body []byte) (rest []byte, files [][]byte, ok bool) {
	var spans [][2]int
	s := jsonscan.Scanner{B: body, MaxDepth: 64}
	s.WS()
	seen := false
	ok = s.Members(1, func(key []byte) (bool, bool) {
		if string(key) != `"attachments"` {
			return false, true
		}
		if seen {
			return true, false
		}
		seen = true
		var good bool
		spans, good = dataSpans(&s)
		return true, good
	})
	s.WS()
	if !ok || s.I != len(body) || len(spans) == 0 {
		return nil, nil, false
	}
	files = make([][]byte, len(spans))
	rest = make([]byte, 0, len(body)/64+256)
	at := 0
	for i, sp := range spans {
		if sp[0] == sp[1] {
			continue // an element without data
		}
		raw := body[sp[0]+1 : sp[1]-1] // inside the quotes
		if base64.StdEncoding.DecodedLen(len(raw)) > MaxFile+3 {
			return nil, nil, false
		}
		f := make([]byte, base64.StdEncoding.DecodedLen(len(raw)))
		n, err := base64.StdEncoding.Decode(f, raw)
		if err != nil || n == 0 {
			return nil, nil, false
		}
		files[i] = f[:n]
		rest = append(append(rest, body[at:sp[0]]...), `""`...)
		at = sp[1]
	}
	return append(rest, body[at:]...), files, true
}

// dataSpans walks the attachments array at s.I and returns, for each
// element, the span of its "data" string ({0, 0} when it has none or the
// element is no object). ok is false for anything it cannot take plainly.
func dataSpans(s *jsonscan.Scanner) ([][2]int, bool) {
	if !s.At('[') {
		return nil, false
	}
	s.I++
	s.WS()
	var spans [][2]int
	if s.At(']') {
		s.I++
		return spans, true
	}
	for {
		s.WS()
		var sp [2]int
		if s.At('{') {
			seen := false
			if !s.Members(3, func(key []byte) (bool, bool) {
				if string(key) != `"data"` {
					return false, true
				}
				if seen { // a repeated key: encoding/json would take the last
					return true, false
				}
				seen = true
				sp = plainString(s)
				return true, sp[1] > 0
			}) {
				return nil, false
			}
		} else if !s.Value(2) {
			return nil, false
		}
		spans = append(spans, sp)
		more, ok := s.Sep(']')
		if !ok {
			return nil, false
		}
		if !more {
			return spans, true
		}
	}
}

// plainString takes the string at s.I when it has no escape and no line
// break, and returns its span ({0, 0} otherwise). It looks for bytes
// with IndexByte, not one by one: a file's base64 is tens of MB. Any other
// byte JSON forbids in a string is no base64 either: decoding refuses it.
func plainString(s *jsonscan.Scanner) [2]int {
	if !s.At('"') {
		return [2]int{}
	}
	end := bytes.IndexByte(s.B[s.I+1:], '"')
	if end < 0 {
		return [2]int{}
	}
	str := s.B[s.I+1 : s.I+1+end]
	for _, c := range []byte{'\\', '\n', '\r'} {
		if bytes.IndexByte(str, c) >= 0 {
			return [2]int{}
		}
	}
	sp := [2]int{s.I, s.I + end + 2}
	s.I = sp[1]
	return sp
}
