package chat

import (
	"strings"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/internal/jsonscan"
)

// A narrow JSON walk for renderHTML. json.Unmarshal of an assistant line
// into assistantLine costs a reflection-driven decode of the whole line
// (about a sixth of the pipeline's CPU); textBlocks validates the line by
// the same grammar but only looks at message.content[].type and .text.
// Whenever the line is not exactly the shape it understands (a key that
// encoding/json would fold onto a wanted field, a duplicate, an unexpected
// type, deep nesting), it reports !ok and the caller decodes with
// encoding/json, so the result is always what json.Unmarshal gives.
// TestTextBlocksMatchesUnmarshal and FuzzTextBlocks check that.

// maxHTMLText bounds the markdown text rendered per message: goldmark's
// tree and the html cost many times the text, so a 30 MB answer would cost
// hundreds of MB to render, for a page no browser lays out. Text blocks
// past it (in content order) get no html; their text stays in the message.
const maxHTMLText = 1 << 20

// maxScanDepth is far below encoding/json's limit: deeper lines take the
// slow path, which applies the real limit.
const maxScanDepth = 512

// textBlock is one text block of an assistant line: its index in
// message.content and its (non-empty) text, or big when the text is longer
// than maxHTMLText and so left out (not even decoded).
type textBlock struct {
	index int
	text  string
	big   bool
}

func newTextBlock(index int, text string) textBlock {
	if len(text) > maxHTMLText {
		return textBlock{index: index, big: true}
	}
	return textBlock{index: index, text: text}
}

// jscan is the JSON scanner with the walk of this file. Not safe for
// concurrent use.
type jscan struct{ jsonscan.Scanner }

// textBlocks returns the non-empty text blocks of an assistant line, and
// false when it cannot decide exactly as encoding/json would.
func textBlocks(raw []byte) ([]textBlock, bool) {
	s := jscan{jsonscan.Scanner{B: raw, MaxDepth: maxScanDepth}}
	var blocks []textBlock
	seen := false
	ok := s.Members(1, func(key []byte) (bool, bool) {
		if !s.wanted(key, "message", &seen) {
			return false, s.plainKey(key, "message")
		}
		if !s.At('{') {
			return true, false
		}
		var inner bool
		blocks, inner = s.message()
		return true, inner
	})
	if !ok {
		return nil, false
	}
	s.WS()
	return blocks, s.I == len(s.B)
}

// message walks the object at s.I, returning the text blocks of its
// "content" array.
func (s *jscan) message() ([]textBlock, bool) {
	var blocks []textBlock
	seen := false
	ok := s.Members(2, func(key []byte) (bool, bool) {
		if !s.wanted(key, "content", &seen) {
			return false, s.plainKey(key, "content")
		}
		if !s.At('[') {
			return true, false
		}
		var inner bool
		blocks, inner = s.content()
		return true, inner
	})
	return blocks, ok
}

// content walks the array at s.I, whose elements must be objects.
func (s *jscan) content() ([]textBlock, bool) {
	var blocks []textBlock
	s.I++ // '['
	s.WS()
	if s.At(']') {
		s.I++
		return nil, true
	}
	for n := 0; ; n++ {
		s.WS()
		if !s.At('{') {
			return nil, false
		}
		typ, text, big, ok := s.block()
		if !ok {
			return nil, false
		}
		switch {
		case big:
			blocks = append(blocks, textBlock{index: n, big: true})
		case typ == "text" && text != "":
			blocks = append(blocks, newTextBlock(n, text))
		}
		more, ok := s.Sep(']')
		if !ok {
			return nil, false
		}
		if !more {
			return blocks, true
		}
	}
}

// block walks one content element, returning its type and text strings.
// A text block's text is not decoded when it is surely longer than
// maxHTMLText (each byte of text takes at most 6 bytes of JSON): big.
func (s *jscan) block() (typ, text string, big, ok bool) {
	var rawType, rawText []byte
	var seenType, seenText bool
	ok = s.Members(4, func(key []byte) (bool, bool) {
		dst := &rawType
		switch {
		case s.wanted(key, "type", &seenType):
		case s.wanted(key, "text", &seenText):
			dst = &rawText
		default:
			return false, s.plainKey(key, "type") && s.plainKey(key, "text")
		}
		v := s.I
		if !s.At('"') || !s.Str() {
			return true, false
		}
		*dst = s.B[v:s.I]
		return true, true
	})
	if !ok || !seenType {
		return "", "", false, ok
	}
	if typ, ok = jsonscan.Unquote(rawType); !ok || typ != "text" || !seenText {
		return typ, "", false, ok
	}
	if len(rawText) > 6*maxHTMLText+2 {
		return typ, "", true, true
	}
	text, ok = jsonscan.Unquote(rawText)
	return typ, text, false, ok
}

// wanted reports whether key is exactly name, the first time; a second
// time it reports false and plainKey then fails the walk.
func (s *jscan) wanted(key []byte, name string, seen *bool) bool {
	if len(key) != len(name)+2 || string(key[1:len(key)-1]) != name {
		return false
	}
	if *seen {
		*seen = false // a duplicate: make plainKey refuse
		return false
	}
	*seen = true
	return true
}

// plainKey reports whether encoding/json surely would not match key to
// the field name: no escapes, ASCII, and not name in another case.
func (s *jscan) plainKey(key []byte, name string) bool {
	in := key[1 : len(key)-1]
	for _, c := range in {
		if c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return !strings.EqualFold(string(in), name)
}
