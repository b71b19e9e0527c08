package server

import (
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/claudesessions"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// procRoot is where the processes that may write a session file are
// found.
const procRoot = "/proc"

// claudeSessionRoutes list the conversations the CLI already holds, for
// adoption (docs/api-extensions.md, "Adopt existing sessions").
func (s *Server) claudeSessionRoutes(api *echo.Group) {
	api.GET("/claude/projects", s.claudeProjects)
	api.GET("/claude/sessions", s.claudeSessions)
}

// claudeConfigDir is where the agent workers' CLI keeps its sessions.
func (s *Server) claudeConfigDir() string {
	cfg := s.mgr.Config()
	return claude.ConfigDir(claude.ChildEnv(cfg.ChildEnv, cfg.ClaudeConfigDir))
}

func (s *Server) claudeProjects(c echo.Context) error {
	ps, err := claudesessions.Projects(s.claudeConfigDir())
	if err != nil {
		return fmt.Errorf("list Claude projects: %w", err)
	}
	return c.JSON(http.StatusOK, map[string]any{"projects": ps})
}

// adoptable is a listed conversation, with the agentdesk session that
// holds it already, if any.
type adoptable struct {
	claudesessions.Summary
	AgentdeskSessionID *string `json:"agentdeskSessionId"`
}

func (s *Server) claudeSessions(c echo.Context) error {
	cwd := c.QueryParam("cwd")
	if !filepath.IsAbs(cwd) {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "cwd: must be the absolute path of a project directory")
	}
	ss, err := claudesessions.Sessions(s.claudeConfigDir(), filepath.Clean(cwd))
	if err != nil {
		return fmt.Errorf("list Claude sessions: %w", err)
	}
	claudesessions.MarkLive(ss, procRoot, time.Now())
	held := map[string]string{}
	for _, sess := range s.mgr.Sessions() {
		if id := sess.ClaudeSessionID; id != nil {
			held[*id] = sess.ID
		}
	}
	out := make([]adoptable, len(ss))
	for i, sum := range ss {
		out[i] = adoptable{Summary: sum}
		if sid, ok := held[sum.ID]; ok {
			out[i].AgentdeskSessionID = &sid
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"sessions": out})
}

// checkAdoptable refuses to adopt a conversation whose file is not there.
// One a claude process is writing now is adopted read-only: the chat
// follows it until that process ends (worker/chat/watch.go).
func (s *Server) checkAdoptable(req worker.CreateSessionRequest) error {
	id := req.ClaudeSessionID
	if _, ok := claude.FindSessionFile(s.claudeConfigDir(), req.Cwd, id); !ok {
		return newError(http.StatusNotFound, wire.CodeNotFound,
			fmt.Sprintf("No Claude Code conversation %q was found; list them with GET /api/claude/sessions?cwd=…", id))
	}
	return nil
}
