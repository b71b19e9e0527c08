// Package adopt finds the conversations the claude CLI already holds in
// its config directory (one started in a terminal), for a new session to
// adopt (docs/api-extensions.md, "Adopt existing sessions"): the projects
// and conversations, which a claude process writes now, which agentdesk
// session holds one already, and the check that a conversation to adopt
// exists. It reads files only and runs no goroutine.
package adopt

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/claudesessions"
	"github.com/agentdesk/agentdesk/worker"
)

// procRoot is where the processes that may write a conversation's file
// are found.
const procRoot = "/proc"

// Project is a project directory the CLI holds conversations of.
type Project = claudesessions.Project

// Conversation is a listed conversation, with the agentdesk session that
// holds it already, if any.
type Conversation struct {
	claudesessions.Summary
	AgentdeskSessionID *string `json:"agentdeskSessionId"`
}

// Sessions is what the listing needs of the manager.
type Sessions interface {
	Config() worker.Config
	Sessions() []worker.Session
}

// Service lists the CLI's conversations for adoption. Safe for concurrent
// use.
type Service struct{ m Sessions }

// New returns the conversations of the CLI m's agent workers run.
func New(m Sessions) *Service { return &Service{m: m} }

// configDir is where the agent workers' CLI keeps its conversations.
func configDir(cfg worker.Config) string {
	return claude.ConfigDir(claude.ChildEnv(cfg.ChildEnv, cfg.ClaudeConfigDir))
}

// Projects lists the project directories with conversations.
func (s *Service) Projects() ([]Project, error) {
	ps, err := claudesessions.Projects(configDir(s.m.Config()))
	if err != nil {
		return nil, fmt.Errorf("list Claude projects: %w", err)
	}
	return ps, nil
}

// Conversations lists the conversations of the project directory cwd,
// each marked live when a claude process writes it now, and with the
// session that holds it.
func (s *Service) Conversations(cwd string) ([]Conversation, error) {
	if !filepath.IsAbs(cwd) {
		return nil, fmt.Errorf("cwd: must be the absolute path of a project directory: %w", worker.ErrInvalid)
	}
	ss, err := claudesessions.Sessions(configDir(s.m.Config()), filepath.Clean(cwd))
	if err != nil {
		return nil, fmt.Errorf("list Claude sessions: %w", err)
	}
	claudesessions.MarkLive(ss, procRoot, time.Now())
	held := map[string]string{}
	for _, sess := range s.m.Sessions() {
		if id := sess.ClaudeSessionID; id != nil {
			held[*id] = sess.ID
		}
	}
	out := make([]Conversation, len(ss))
	for i, sum := range ss {
		out[i] = Conversation{Summary: sum}
		if sid, ok := held[sum.ID]; ok {
			out[i].AgentdeskSessionID = &sid
		}
	}
	return out, nil
}

// Check is the manager's check before a session adopts conversation id
// (worker.Options.Adoptable): its file must be there. One a claude
// process is writing now is adopted read-only: the chat follows it until
// that process ends (worker/sdk/watch.go).
func Check(cfg worker.Config) func(cwd, id string) error {
	return func(cwd, id string) error {
		if _, ok := claude.FindSessionFile(configDir(cfg), cwd, id); !ok {
			return fmt.Errorf("No Claude Code conversation %q was found; list them with GET /api/claude/sessions?cwd=…: %w", id, worker.ErrNotFound)
		}
		return nil
	}
}
