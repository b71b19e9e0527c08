package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// Config is what the driver needs beside a start's agent.Options.
type Config struct {
	// Path is the CLI ("": codex on PATH).
	Path string
	// Home is CODEX_HOME for every start ("": the user's own, with their
	// login and config.toml). Each start first prepares it (PrepareHome):
	// created 0700, Seed's login and config.toml copied in when newer.
	Home string
	// Seed is the user's own CODEX_HOME that Home is seeded from (UserHome;
	// "": nothing is copied).
	Seed string
	// Overrides are `-c` values for every start (Args).
	Overrides []string
	// Sandbox is Codex's own sandbox mode for every thread ("":
	// DefaultSandbox). A chat that runs in agentdesk's box asks for
	// FullAccess: the box is its sandbox (Codex's would nest bwrap, which
	// the box's dropped capabilities refuse).
	Sandbox string
	// Version introduces agentdesk in initialize ("": "dev").
	Version string
}

// Driver runs Codex chats for the chat engine (worker/chat): each start
// is one app-server with one thread (Session), seen through agent.Conn.
type Driver struct{ cfg Config }

var (
	_ agent.Driver  = (*Driver)(nil)
	_ agent.Updater = (*Driver)(nil)
	_ agent.Conn    = (*conn)(nil)
	_ agent.Named   = (*conn)(nil)
)

// NewDriver returns the driver for c.
func NewDriver(c Config) *Driver { return &Driver{cfg: c} }

// Start runs the CLI for o and opens its thread: o.Conversation resumed
// when o.Resume (a thread Codex has no record of is started anew, and the
// Conn's Conversation says the new id), else a new thread, whose id Codex
// gives (Conn.Conversation). o.Settings.PermissionMode is Codex's approval
// policy; o.AllowedTools that read as Tool(Content) are allowed without
// asking (the rules a person allowed for the session). o.Tools, when
// set, are declared to a new thread as dynamic tools and served from the
// registry.
func (d *Driver) Start(ctx context.Context, o agent.Options) (agent.Conn, error) {
	if _, err := Resolve(d.cfg.Path); err != nil {
		return nil, agent.NewError(agent.ErrNotFound, err.Error())
	}
	if d.cfg.Home != "" {
		if err := PrepareHome(d.cfg.Home, d.cfg.Seed); err != nil {
			return nil, err
		}
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	env := o.Env
	if env != nil || d.cfg.Home != "" {
		env = ChildEnv(env, d.cfg.Home)
	}
	so := SessionOptions{
		Process:    Options{Path: d.cfg.Path, Overrides: d.cfg.Overrides, Dir: o.Dir, Env: env, Marker: o.Marker},
		Settings:   Settings{Model: o.Settings.Model, Policy: o.Settings.PermissionMode},
		Sandbox:    d.cfg.Sandbox,
		Allowed:    rules(o.AllowedTools),
		ClientName: "agentdesk", ClientVersion: d.cfg.Version,
		Tools: o.Tools.Registry, ToolScope: o.Tools.Scope,
		DeveloperInstructions: o.Limits.AppendSystemPrompt,
		Config:                ThreadConfig(o.MCPServers, o.Limits.AddDirs, o.AllowedTools, o.Limits.DisallowedTools),
		Limits:                Limits{MaxTurns: o.Limits.MaxTurns, MaxBudgetUSD: o.Limits.MaxBudgetUSD},
	}
	if so.ClientVersion == "" {
		so.ClientVersion = "dev"
	}
	if o.Resume {
		so.Thread = o.Conversation
	}
	s, err := Open(ctx, o.Launcher, so)
	if err != nil {
		return nil, err
	}
	if err := s.Resumed(); err != nil {
		log.Info("codex has no record of the thread: started a new one", "thread", o.Conversation, "new", s.Thread(), "err", err)
	}
	return newConn(s), nil
}

// rules reads the allowed tools that are rules of this driver's syntax,
// and those that allow the tool bridge's tools (toolask.go).
func rules(tools []string) []Rule {
	var out []Rule
	for _, t := range tools {
		if isBridgeRule(t) {
			out = append(out, Rule{Tool: t})
		} else if r, ok := readRule(t); ok {
			out = append(out, r)
		}
	}
	return out
}

// update is one permission update of an answer, in the shape of the
// request's suggestion (sessionSuggestion).
type update struct {
	Type        string `json:"type"`
	Behavior    string `json:"behavior"`
	Destination string `json:"destination"`
	Rules       []struct {
		ToolName    string `json:"toolName"`
		RuleContent string `json:"ruleContent"`
	} `json:"rules"`
}

// errUpdates is the one shape of updates Codex takes.
var errUpdates = errors.New(`updatedPermissions: Codex takes only the request's own suggestion, [{"type":"addRules","behavior":"allow","destination":"session","rules":[…]}] (allow for this session)`)

// Updates checks an answer's permission updates: Codex has one choice, the
// request's "allow for this session" (acceptForSession), an addRules
// update with destination session. Anything else is refused.
func (d *Driver) Updates(allow bool, raw json.RawMessage) (agent.Updates, error) {
	var us []update
	if err := json.Unmarshal(raw, &us); err != nil {
		return agent.Updates{}, fmt.Errorf("%w: %w", errUpdates, wire.ErrInvalid)
	}
	var out agent.Updates
	for _, u := range us {
		if !allow || u.Type != "addRules" || u.Behavior != "allow" || u.Destination != "session" || len(u.Rules) == 0 {
			return agent.Updates{}, fmt.Errorf("%w: %w", errUpdates, wire.ErrInvalid)
		}
		for _, r := range u.Rules {
			if r.ToolName == "" {
				return agent.Updates{}, fmt.Errorf("%w: %w", errUpdates, wire.ErrInvalid)
			}
			out.Rules = append(out.Rules, agent.Rule{ToolName: r.ToolName, RuleContent: r.RuleContent, Destination: "session"})
		}
	}
	return out, nil
}
