package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/transcript"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// exportRoutes serve a worker's conversation as a file
// (docs/api-extensions.md, "Export").
func (s *Server) exportRoutes(api *echo.Group) {
	api.GET("/sessions/:sid/workers/:wid/export", s.exportWorker)
}

// exportFormats are the formats of GET …/export and their media types.
var exportFormats = map[string]string{
	"md":    "text/markdown; charset=utf-8",
	"jsonl": "application/x-ndjson",
}

// unsafeName is what a download's file name may not hold.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func (s *Server) exportWorker(c echo.Context) error {
	format := c.QueryParam("format")
	if format == "" {
		format = "md"
	}
	ctype, ok := exportFormats[format]
	if !ok {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, `format: must be "md" or "jsonl"`)
	}
	ml, err := runtimeAs[worker.MessageLister](s, c, "export")
	if err != nil {
		return err
	}
	sess, err := s.mgr.Session(c.Param("sid"))
	if err != nil {
		return err
	}
	// The first page is read before the answer starts, so a store that
	// cannot be read still gets a proper error answer.
	page, more, err := ml.Messages("", wire.PageMax)
	if err != nil {
		return err
	}
	name := unsafeName.ReplaceAllString(sess.Title, "-")
	if name == "" || name == "-" {
		name = "conversation"
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, ctype)
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s.%s"`, name, format))
	c.Response().WriteHeader(http.StatusOK)
	w := c.Response()
	if format == "md" {
		hdr := transcript.Header{Title: sess.Title, Cwd: sess.Cwd, Worker: c.Param("wid"), Exported: time.Now()}
		if err := transcript.WriteHeader(w, hdr); err != nil {
			return nil // the client went away
		}
	}
	if err := streamExport(w, ml, format, page, more); err != nil {
		s.log.Warn("export ended early", "worker", c.Param("wid"), "err", err)
	}
	return nil
}

// streamExport writes every stored message, a page at a time, flushing
// each page: a conversation of millions of messages never sits in memory.
func streamExport(w *echo.Response, ml worker.MessageLister, format string, page []json.RawMessage, more bool) error {
	for {
		last, err := writePage(w, format, page)
		if err != nil {
			return err
		}
		w.Flush()
		if !more || last == "" {
			return nil
		}
		if page, more, err = ml.Messages(last, wire.PageMax); err != nil {
			return err
		}
	}
}

// writePage writes one page of REST message elements ({seq, message,
// html}) and returns the last one's uuid, the next page's cursor.
func writePage(w io.Writer, format string, page []json.RawMessage) (string, error) {
	last := ""
	for _, el := range page {
		var e struct {
			Message json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal(el, &e); err != nil {
			return "", fmt.Errorf("read stored message: %w", err)
		}
		var id struct {
			UUID string `json:"uuid"`
		}
		_ = json.Unmarshal(e.Message, &id)
		if id.UUID != "" {
			last = id.UUID
		}
		if err := writeOne(w, format, e.Message); err != nil {
			return "", err
		}
	}
	return last, nil
}

func writeOne(w io.Writer, format string, msg json.RawMessage) error {
	if format == "md" {
		return transcript.WriteMessage(w, msg)
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
