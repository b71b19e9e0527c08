package server

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// exportAPI serves a worker's conversation as a file
// (docs/api-extensions.md, "Export").
type exportAPI struct{ s *Server }

func (a exportAPI) routes(api *echo.Group) {
	api.GET("/sessions/:sid/workers/:wid/export", a.export)
}

// exportFormats are the formats of GET …/export and their media types.
var exportFormats = map[string]string{
	"md":    "text/markdown; charset=utf-8",
	"jsonl": "application/x-ndjson",
}

func (a exportAPI) export(c echo.Context) error {
	format := c.QueryParam("format")
	if format == "" {
		format = "md"
	}
	ctype, ok := exportFormats[format]
	if !ok {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, `format: must be "md" or "jsonl"`)
	}
	ml, err := runtimeAs[worker.MessageLister](a.s, c, "export")
	if err != nil {
		return err
	}
	sess, err := a.s.mgr.Session(c.Param("sid"))
	if err != nil {
		return err
	}
	x, err := worker.NewExport(sess, c.Param("wid"), ml, format)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, ctype)
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s"`, x.FileName()))
	c.Response().WriteHeader(http.StatusOK)
	w := c.Response()
	if err := x.WriteHeader(w); err != nil {
		return nil // the client went away
	}
	if err := x.WriteMessages(w, w.Flush); err != nil {
		a.s.log.Warn("export ended early", "worker", c.Param("wid"), "err", err)
	}
	return nil
}
