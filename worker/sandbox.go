package worker

import (
	"errors"

	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// The session option "sandbox" (docs/api-extensions.md, "Sandboxed
// sessions").
const (
	SandboxOff          = string(sandbox.Off)
	SandboxWorkspace    = string(sandbox.Workspace)
	SandboxWorkspaceNet = string(sandbox.WorkspaceNet)
)

// SandboxView is what a sandboxed session's box shows (sandbox.View).
type SandboxView = sandbox.View

// SandboxOptions configure sandboxed sessions (Options.Sandbox): every
// process of such a session's workers runs in a box of its level
// (internal/launch/sandbox), nothing of it outside.
type SandboxOptions struct {
	// Dir holds each sandboxed session's private home, <Dir>/<session>/home,
	// removed with the session. Its parent (agentdesk's data directory,
	// with the token) is never shown in a box.
	Dir string
	// Tools are bwrap and socat as found at start-up (sandbox.Probe).
	Tools sandbox.Tools
	// Agents say what each agent CLI needs in a box.
	Agents []AgentBox
	// ReadOnly are further directories every box reads (the agents'
	// install directories).
	ReadOnly []string
	// Forbidden are further paths no box may show; the user's home (HOME)
	// and Dir's parent always are.
	Forbidden []string
}

// AgentBox is what one agent CLI needs in a sandboxed session, said by
// the wiring that knows the agent (worker/agentbox): the launcher and the
// manager know none.
type AgentBox struct {
	// ConfigVar names the variable of its config directory; in a box that
	// is <home>/<ConfigName>, in every process's environment and in the
	// session's Config.ChildEnv (where the domain reads its files).
	ConfigVar, ConfigName string
	// Pass are its variables the box keeps ("NAME" or "PREFIX*"); Set are
	// "KEY=value" set in the box.
	Pass, Set []string
	// EndpointVar names the variable holding its API's URL, and
	// EndpointURL is that URL when Config.ChildEnv has none; "" for an
	// agent that needs no network, or whose API is in its own config
	// (FromConfig).
	EndpointVar, EndpointURL string
	// FromConfig, when not nil, is read each time a session's box is
	// worked out (creation, load): the API addresses the agent takes from
	// its own config, which no variable names (the box keeps each
	// address: sandbox.Endpoint with no Var), and the further variables it
	// needs there (the API key's, which that config names).
	FromConfig func() (urls, pass []string)
	// Prepare fills the config directory dir before the session's box
	// first runs a process in this run of agentdesk: the CLI's login
	// copied in, an adopted conversation. May be nil.
	Prepare func(dir string, sess Session) error
}

// Sandboxed reports whether a session's processes run in a box.
func (s Session) Sandboxed() bool { return s.Sandbox != "" && s.Sandbox != SandboxOff }

// boxedLimits refuses what a sandboxed session's box cannot give its
// agent: directories besides the session's (addDirs), which the box does
// not show.
func (s Session) boxedLimits(l Limits) error {
	if s.Sandboxed() && len(l.AddDirs) > 0 {
		return fieldErr("addDirs", "a sandboxed session's box shows only the session's folder; leave addDirs out, or create the session without a sandbox")
	}
	return nil
}

// SandboxLevel is one sandbox level and whether this server runs it.
type SandboxLevel struct {
	Level     string `json:"level"`
	Available bool   `json:"available"`
	// Reason says why not, and what to install.
	Reason string `json:"reason,omitempty"`
}

// Levels lists the levels of the session option "sandbox" and whether
// each can run with o (nil: none but off), as found at start-up: GET
// /api/capabilities.
func (o *SandboxOptions) Levels() []SandboxLevel {
	out := []SandboxLevel{{Level: SandboxOff, Available: true}}
	for _, l := range []string{SandboxWorkspace, SandboxWorkspaceNet} {
		_, err := o.check(l)
		sl := SandboxLevel{Level: l, Available: err == nil}
		if err != nil {
			sl.Reason = err.Error()
		}
		out = append(out, sl)
	}
	return out
}

// check returns the level a new session asks for ("" is off), or why it
// cannot run with o.
func (o *SandboxOptions) check(level string) (string, error) {
	switch {
	case level == "" || level == SandboxOff:
		return SandboxOff, nil
	case !sandbox.Level(level).Valid():
		return "", fieldErr("sandbox", `must be "off", "workspace" or "workspace+net", got %q`, level)
	case o == nil:
		return "", &CodeError{Code: wire.CodeSandboxUnavailable, Err: errors.New("this server runs no sandboxed sessions")}
	}
	if err := o.Tools.Check(sandbox.Level(level)); err != nil {
		return "", &CodeError{Code: wire.CodeSandboxUnavailable, Err: err}
	}
	return level, nil
}
