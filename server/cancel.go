package server

import (
	"bytes"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// cancelRequest is POST …/cancel's optional body: force skips the
// interrupt and ends the agent's processes (docs/api-extensions.md,
// "Stall watchdog and escalating stop").
type cancelRequest struct {
	Force *bool `json:"force"`
}

// cancelForce reads the cancel body: none (the API.md form) is not forced.
func cancelForce(c echo.Context) (bool, error) {
	r := c.Request()
	data, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, wire.MaxBody))
	if err != nil {
		return false, decodeError(err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return false, nil
	}
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(data)), int64(len(data))
	var req cancelRequest
	if err := bind(c, &req); err != nil {
		return false, err
	}
	return req.Force != nil && *req.Force, nil
}

// cancelTurn runs the cancel the body asks for.
func (a workersAPI) cancelTurn(c echo.Context, force bool) (bool, error) {
	ctx := c.Request().Context()
	if !force {
		cn, err := runtimeAs[worker.Canceller](a.s, c, "cancel")
		if err != nil {
			return false, err
		}
		return cn.Cancel(ctx)
	}
	fc, err := runtimeAs[worker.ForceCanceller](a.s, c, "a forced cancel")
	if err != nil {
		return false, err
	}
	return fc.ForceCancel(ctx)
}
