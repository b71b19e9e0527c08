package chat

import (
	"log/slog"
	"slices"
	"sync"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

// prefs are what the next agent starts with and what the running one
// reports: the person's settings (model, permission mode), the session's
// rules, the agent's last capabilities and what it says is in force
// (Worker.current). Safe for concurrent use.
type prefs struct {
	env *worker.Env // the Runtime's: Info.AllowedTools, Report, SaveMode, AddRules
	log *slog.Logger

	mu       sync.Mutex
	settings worker.Settings      // the flags of the next agent
	rules    []worker.Rule        // the session's rules, passed to every agent
	caps     *worker.Capabilities // the last agent's answer at its start
	inForce  agent.Settings       // what the agent reports it runs with
	allowed  []string             // the worker's allowed tools
	limits   worker.Limits        // the worker's limits
	mcp      []worker.MCPServer   // the session's MCP servers
	stale    bool                 // limits or servers changed since the agent started
}

func newPrefs(env *worker.Env, log *slog.Logger) *prefs {
	return &prefs{
		env: env, log: log,
		settings: worker.Settings{Model: env.Info.Model, PermissionMode: env.Info.PermissionMode},
		rules:    worker.SessionRules(env.Session.PermissionRules),
		inForce:  inForceOf(env.Info),
		allowed:  slices.Clone(env.Info.AllowedTools),
		limits:   env.Info.Limits,
		mcp:      slices.Clone(env.Session.MCPServers),
	}
}

// inForceOf is the worker's last reported settings, kept across restarts.
func inForceOf(i worker.Info) agent.Settings {
	if i.Current == nil {
		return agent.Settings{}
	}
	return agent.Settings{Model: i.Current.Model, PermissionMode: i.Current.PermissionMode}
}

// startFlags returns what the next agent starts with: the chosen settings,
// and the worker's allowed tools plus the session's rules.
func (p *prefs) startFlags() (worker.Settings, []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	tools := slices.Clone(p.allowed)
	for _, rule := range p.rules {
		tools = append(tools, rule.Spec())
	}
	return p.settings, tools
}

// limitsNow returns the limits and MCP servers of the next start.
func (p *prefs) limitsNow() (worker.Limits, []worker.MCPServer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.limits, p.mcp
}

// setLimits keeps new limits and allowed tools for the next start.
func (p *prefs) setLimits(l worker.Limits, allowed []string) {
	p.mu.Lock()
	p.limits, p.allowed, p.stale = l, slices.Clone(allowed), true
	p.mu.Unlock()
}

// setMCP keeps the session's MCP servers for the next start.
func (p *prefs) setMCP(servers []worker.MCPServer) {
	p.mu.Lock()
	p.mcp, p.stale = slices.Clone(servers), true
	p.mu.Unlock()
}

// takeStale reports whether limits or servers changed since it was last
// asked, and forgets it.
func (p *prefs) takeStale() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.stale
	p.stale = false
	return st
}

// get returns the chosen settings.
func (p *prefs) get() worker.Settings {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.settings
}

// set keeps the chosen settings for the agents started later.
func (p *prefs) set(s worker.Settings) {
	p.mu.Lock()
	p.settings = s
	p.mu.Unlock()
}

// setRules replaces the session rules.
func (p *prefs) setRules(rules []worker.Rule) {
	p.mu.Lock()
	p.rules = append([]worker.Rule(nil), rules...)
	p.mu.Unlock()
}

// noteInForce merges what the agent reported into the worker's current
// settings and reports a change. Each change is reported to the manager
// before the message that told it is stored, so the Worker object says so
// no later than the chat does. It runs on the reader, in the agent's start
// and in ApplySettings.
func (p *prefs) noteInForce(f agent.Settings) {
	p.mu.Lock()
	next := p.inForce.Merge(f)
	changed := next != p.inForce
	p.inForce = next
	p.mu.Unlock()
	if changed && p.env.Report != nil {
		p.env.Report.Current(worker.Current{Model: next.Model, PermissionMode: next.PermissionMode})
	}
}

// setCapabilities keeps what the agent that just started offers (none
// when it said nothing readable). It outlives that agent: the next start
// answers the same.
func (p *prefs) setCapabilities(a agent.Capabilities) {
	if a.Models == nil && a.Commands == nil {
		return
	}
	// The API never answers null lists.
	c := worker.Capabilities{Models: []worker.Model{}, Commands: []worker.Command{}, PermissionMode: a.PermissionMode}
	for _, m := range a.Models {
		c.Models = append(c.Models, worker.Model(m))
	}
	for _, cmd := range a.Commands {
		c.Commands = append(c.Commands, worker.Command(cmd))
	}
	p.mu.Lock()
	p.caps = &c
	p.mu.Unlock()
	p.noteInForce(agent.Settings{PermissionMode: c.PermissionMode})
}

// capabilities returns the last agent's answer, if one started.
func (p *prefs) capabilities() (worker.Capabilities, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.caps == nil {
		return worker.Capabilities{}, false
	}
	return *p.caps, true
}

// applied records what the agent took with an answer: a session mode
// becomes the worker's mode (a plan approved "with auto-accept" starts
// the next agent in acceptEdits too), and rules added are kept on the
// session (session ones are passed to the next agents).
func (p *prefs) applied(u agent.Updates) {
	rules := make([]worker.Rule, 0, len(u.Rules))
	for _, x := range u.Rules {
		rules = append(rules, worker.Rule{ToolName: x.ToolName, RuleContent: x.RuleContent, Destination: x.Destination})
	}
	p.mu.Lock()
	if u.Mode != "" {
		p.settings.PermissionMode = u.Mode
	}
	p.rules = append(p.rules, worker.SessionRules(rules)...)
	p.mu.Unlock()
	if u.Mode != "" && p.env.SaveMode != nil {
		if err := p.env.SaveMode(u.Mode); err != nil {
			p.log.Error("store the permission mode of an answer", "err", err)
		}
	}
	if len(rules) > 0 && p.env.AddRules != nil {
		if err := p.env.AddRules(rules); err != nil {
			p.log.Error("store rules of an answer", "err", err)
		}
	}
}
