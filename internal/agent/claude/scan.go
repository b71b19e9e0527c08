package claude

import (
	"bytes"

	"github.com/agentdesk/agentdesk/internal/jsonscan"
)

// ParseLine uses a small strict JSON scanner (internal/jsonscan) instead of
// encoding/json, which costs about 60 µs for a 1 KB line on a small machine
// (it decodes every field it then throws away). The scanner validates the
// whole line by the same grammar but only picks out the few top-level
// values dispatch needs, several times faster. FuzzParseLine checks it
// against encoding/json.

// maxDepth matches encoding/json's nesting limit.
const maxDepth = 10000

// fields scans b, which must be one JSON object and nothing else, calling
// field for each top-level member with its key (still quoted) and raw value.
func fields(b []byte, field func(key, val []byte)) bool {
	s := jsonscan.Scanner{B: b, MaxDepth: maxDepth}
	s.WS()
	ok := s.Members(1, func(key []byte) (bool, bool) {
		v := s.I
		if !s.Value(1) {
			return true, false
		}
		field(key, s.B[v:s.I])
		return true, true
	})
	if !ok {
		return false
	}
	s.WS()
	return s.I == len(b)
}

// unquote returns the string a raw JSON value holds, and false when it is
// not a string.
func unquote(raw []byte) (string, bool) { return jsonscan.Unquote(raw) }

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
