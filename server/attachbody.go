package server

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/jsonscan"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// A body that may carry attachments (POST …/input and …/queue) is up to
// wire.MaxInputBody, 42 MiB. Decoded the ordinary way it was held several
// times over (the body, the decoder's copy, the base64 strings, the key
// check's copy, the files): four parallel uploads of 30 MiB took the
// server from 118 to 793 MiB. Now a large body waits for its turn, at
// most maxLargeBodies at once, and its files are decoded straight from
// the body, which is then dropped.
const (
	// largeBody is the announced length past which a body counts as
	// large; a body of unknown length counts as large too.
	largeBody = 1 << 20
	// maxLargeBodies bounds the large bodies read and decoded at once.
	maxLargeBodies = 1
)

// largeBodies holds a token per large body being read and decoded. The
// bound is the process's: memory is.
var largeBodies = make(chan struct{}, maxLargeBodies)

// bindInput is bindMax with wire.MaxInputBody for a body with attachments
// (atts points at the request's). It returns the function that ends a
// large body's turn: call it once the request is done with the files.
func (s *Server) bindInput(c echo.Context, v any, atts *[]attach.Input) (func(), error) {
	cl := c.Request().ContentLength
	if cl >= 0 && cl <= largeBody {
		return func() {}, bindMax(c, v, wire.MaxInputBody)
	}
	if cl > wire.MaxInputBody {
		return func() {}, tooLargeBody(wire.MaxInputBody)
	}
	release, err := s.waitLargeBody(c)
	if err != nil {
		return func() {}, err
	}
	data, err := readBody(c, wire.MaxInputBody)
	if err != nil {
		release()
		return func() {}, err
	}
	rest, files, ok := extractFiles(data)
	if !ok { // the ordinary decode says what is wrong
		rest, files = data, nil
	}
	if err := decodeBody(rest, v); err != nil {
		release()
		return func() {}, err
	}
	for i, f := range files {
		if f != nil && i < len(*atts) {
			(*atts)[i].Decoded = f
		}
	}
	return release, nil
}

// waitLargeBody waits for a large body's turn, up to the body timeout; the
// body's own time then starts afresh.
func (s *Server) waitLargeBody(c echo.Context) (func(), error) {
	t := time.NewTimer(s.limits.BodyTimeout)
	defer t.Stop()
	select {
	case largeBodies <- struct{}{}:
	case <-c.Request().Context().Done():
		return nil, newError(http.StatusServiceUnavailable, wire.CodeTimeout, "the request ended while it waited for other uploads")
	case <-t.C:
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(s.limits.BodyTimeout/time.Second)))
		return nil, newError(http.StatusServiceUnavailable, wire.CodeTimeout,
			"the server is receiving other large uploads; send this message again in a moment")
	}
	_ = http.NewResponseController(c.Response().Writer).SetReadDeadline(time.Now().Add(s.limits.BodyTimeout))
	var once sync.Once
	return func() { once.Do(func() { <-largeBodies }) }, nil
}

// extractFiles finds the base64 data of each file of a body's top-level
// "attachments" array and decodes it; it returns the body with "" in
// place of each such data string, and the files by their index in the
// array (nil where none was taken). ok is false when the body is not
// plain enough to do so: not one JSON object, a repeated "attachments" or
// "data" key, escapes in the data, data that is not base64 or larger than
// a file may be. The caller then decodes the body as it is, and the usual
// checks say what is wrong.
func extractFiles(body []byte) (rest []byte, files [][]byte, ok bool) {
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
		if base64.StdEncoding.DecodedLen(len(raw)) > attach.MaxFile+3 {
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
