package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// mcpAPI is the MCP servers of a session (docs/api-extensions.md, "MCP
// servers of a session"). Secrets (env values, header values) are never
// answered back: the domain masks them.
type mcpAPI struct{ mcp *worker.MCPServers }

func (a mcpAPI) routes(api *echo.Group) {
	api.GET("/sessions/:sid/mcp-servers", a.list)
	api.POST("/sessions/:sid/mcp-servers", a.add)
	api.PATCH("/sessions/:sid/mcp-servers/:name", a.toggle)
	api.DELETE("/sessions/:sid/mcp-servers/:name", a.remove)
}

// mcpAdd is the body of POST …/mcp-servers.
type mcpAdd struct {
	Name    string            `json:"name"`
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

// mcpToggle is the body of PATCH …/mcp-servers/:name.
type mcpToggle struct {
	Enabled *bool `json:"enabled"`
}

func (a mcpAPI) list(c echo.Context) error {
	list, err := a.mcp.List(c.Request().Context(), c.Param("sid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"servers": list})
}

func (a mcpAPI) add(c echo.Context) error {
	var req mcpAdd
	if err := bind(c, &req); err != nil {
		return err
	}
	srv, err := a.mcp.Add(c.Request().Context(), c.Param("sid"), worker.MCPServer{
		Name: req.Name, Type: req.Type, Command: req.Command, Args: req.Args, Env: req.Env, URL: req.URL, Headers: req.Headers,
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, srv)
}

func (a mcpAPI) toggle(c echo.Context) error {
	var req mcpToggle
	if err := bind(c, &req); err != nil {
		return err
	}
	if req.Enabled == nil {
		return fromDomain(wire.FieldErrorf("enabled", "is required: true turns the server on, false off"))
	}
	v, err := a.mcp.SetEnabled(c.Request().Context(), c.Param("sid"), c.Param("name"), *req.Enabled)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

func (a mcpAPI) remove(c echo.Context) error {
	if err := a.mcp.Remove(c.Request().Context(), c.Param("sid"), c.Param("name")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
