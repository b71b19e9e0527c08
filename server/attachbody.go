package server

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
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
func (s *Server) bindInput(c echo.Context, v any, atts *[]worker.AttachmentInput) (func(), error) {
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
	rest, files, ok := worker.ExtractAttachmentFiles(data)
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
