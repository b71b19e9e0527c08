package server

import (
	"encoding/json"
	"mime"
	"net/http"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// attachRoutes serves the files attached to chat messages.
func (s *Server) attachRoutes(api *echo.Group) {
	api.GET("/sessions/:sid/workers/:wid/attachments/:id", s.workerAttachment)
	api.HEAD("/sessions/:sid/workers/:wid/attachments/:id", s.workerAttachment)
}

// inputFiles is POST …/input with attachments: they are checked before
// the worker is asked for anything, so a bad one stores and sends nothing.
func (s *Server) inputFiles(c echo.Context, content, when string, in []worker.AttachmentInput) error {
	files, err := worker.DecodeAttachments(in)
	if err != nil {
		return err
	}
	fs, err := runtimeAs[worker.FileSender](s, c, "attachments")
	if err != nil {
		return err
	}
	if err := fs.SendUserFiles(c.Request().Context(), content, when, files); err != nil {
		return err
	}
	return c.NoContent(http.StatusAccepted)
}

// inlineTypes are the media types served for display in the page: images
// the browser shows as images and plain text. Everything else (PDFs, and
// whatever an import brought) is a download, so no stored file runs as
// active content (HTML, SVG, a PDF's scripts) in our origin.
var inlineTypes = map[string]string{
	"image/png": "image/png", "image/jpeg": "image/jpeg", "image/gif": "image/gif", "image/webp": "image/webp",
	"text/plain": "text/plain; charset=utf-8",
}

// workerAttachment serves an attachment's bytes. Ids are never reused,
// so the answer can be cached for good (privately: it needs the token).
func (s *Server) workerAttachment(c echo.Context) error {
	ar, err := runtimeAs[worker.AttachmentReader](s, c, "attachments")
	if err != nil {
		return err
	}
	a, err := ar.Attachment(c.Param("id"))
	if err != nil {
		return err
	}
	ct, inline := inlineTypes[a.MediaType]
	disp := "inline"
	if !inline {
		ct, disp = "application/octet-stream", "attachment"
		if a.MediaType == "application/pdf" {
			ct = a.MediaType
		}
	}
	h := c.Response().Header()
	h.Set("Content-Disposition", contentDisposition(disp, a.Name))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "private, max-age=31536000, immutable")
	return c.Blob(http.StatusOK, ct, a.Data)
}

// contentDisposition quotes the name (RFC 2231 for non-ASCII names); a
// name it cannot encode is left out.
func contentDisposition(disp, name string) string {
	if v := mime.FormatMediaType(disp, map[string]string{"filename": name}); v != "" {
		return v
	}
	return disp
}

// frameFits reports whether a client frame of an sdk socket may be as
// large as it is: up to wire.MaxClientFrame for any frame, up to
// wire.MaxInputFrame (the socket's read limit) for a user-message, which
// carries attachments.
func frameFits(data []byte) bool {
	if len(data) <= wire.MaxClientFrame {
		return true
	}
	var f struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(data, &f) == nil && f.Type == wire.TypeUserMessage
}

// raiseFrameLimit lets an sdk socket's client send user-message frames
// with attachments; handle then closes the socket with 1009 for any other
// frame over wire.MaxClientFrame, as before.
func raiseFrameLimit(conn *socket, kind worker.Kind, handle func([]byte)) func([]byte) {
	if kind != worker.KindSDK {
		return handle
	}
	conn.SetReadLimit(wire.MaxInputFrame)
	return func(data []byte) {
		if !frameFits(data) {
			_ = conn.Close(websocket.StatusMessageTooBig, "frame too large")
			return
		}
		handle(data)
	}
}
