package ptyagent

import (
	"cmp"
	"errors"
	"io/fs"
	"os/exec"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/worker"
)

// isAbsent reports whether a start error means the binary is missing or
// not executable, rather than some other failure.
func isAbsent(err error) bool {
	return errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)
}

// childEnv is the CLI's environment: the server's child environment with
// the quiet settings of claude-cli.md §2, the terminal type xterm.js
// emulates, and the configured CLAUDE_CONFIG_DIR.
func (r *Runtime) childEnv() []string {
	return claude.ChildEnv(r.env.Config.ChildEnv, r.env.Config.ClaudeConfigDir, "TERM=xterm-256color")
}

// pickConversation settles the conversation the CLI carries. The
// session's conversation is resumed when agentdesk's record says a CLI
// already got a message of it (Session.ClaudeSessionStarted): only then
// does the CLI have it. An id without that (recorded, but no prompt was
// ever sent) is started fresh under the same id, since --resume of it
// would fail. A session without a conversation gets a new id, recorded
// before the CLI starts. Where the CLI keeps its files is not guessed at:
// a --claude wrapper may set its own CLAUDE_CONFIG_DIR.
func (r *Runtime) pickConversation() {
	if id := r.env.Session.ClaudeSessionID; id != nil && *id != "" {
		r.conv, r.resume = *id, r.env.Session.ClaudeSessionStarted
		return
	}
	r.conv = uuid.Must(uuid.NewV7()).String()
	if r.env.SetClaudeSession != nil {
		r.env.SetClaudeSession(r.conv)
	}
}

// conversationArgs returns the CLI's arguments: the conversation, the
// model and permission mode it starts with (Info.Current: the person's
// choice, else what the chat a switch retired ran with, whose default mode
// is not the TUI's), and the allowed tools plus the session's "Always
// allow" rules, exactly as the chat's CLI gets them
// (claude.ConversationArgs). Both views then run the same.
func (r *Runtime) conversationArgs() []string {
	tools := append([]string(nil), r.env.Info.AllowedTools...)
	for _, rule := range worker.SessionRules(r.env.Session.PermissionRules) {
		tools = append(tools, rule.Spec())
	}
	o := claude.Options{SessionID: r.conv, Resume: r.resume, AllowedTools: tools, AllowBypass: r.env.Session.Sandboxed()}
	o.Model, o.PermissionMode = r.env.Info.Model, r.env.Info.PermissionMode
	if c := r.env.Info.Current; c != nil {
		o.Model, o.PermissionMode = cmp.Or(o.Model, c.Model), cmp.Or(o.PermissionMode, c.PermissionMode)
	}
	return append(claude.ConversationArgs(o), claude.LimitArgs(r.limits())...)
}

// limits are the worker's limits and the session's MCP servers as the
// interactive CLI takes them: the appended prompt (with the snapshot off
// on a resume, so that the session's current prompt holds, as the chat
// does), the disallowed tools, the added directories and the enabled
// servers. The TUI ignores --max-turns and --max-budget-usd (they work
// with --print only: TestRealCLIInteractiveIgnoresTurnsAndBudget), so
// they are not passed; agentdesk's own tools (the SDK server) need the
// chat's control channel and stay the chat's.
func (r *Runtime) limits() claude.Limits {
	l := r.env.Info.Limits
	var servers []claude.MCPServer
	for _, s := range r.env.Session.MCPServers {
		if s.Enabled {
			servers = append(servers, claude.MCPServer{Name: s.Name, Type: s.Type, Command: s.Command, Args: s.Args,
				Env: s.Env, URL: s.URL, Headers: s.Headers})
		}
	}
	return claude.Limits{
		AppendSystemPrompt: l.AppendSystemPrompt,
		SnapshotOff:        r.resume,
		DisallowedTools:    l.DisallowedTools,
		AddDirs:            l.AddDirs,
		MCPConfig:          claude.ServersConfig(servers),
	}
}

// The CLI's words when the conversation flag was the wrong one
// (claude-cli.md §3): the record and the CLI disagree.
const (
	inUse    = "is already in use"                     // --session-id of an existing conversation
	notFound = "No conversation found with session ID" // --resume of an unknown one
)

// wrongFlag reports whether the CLI that just exited refused the
// conversation flag it was given, as its screen says.
func (r *Runtime) wrongFlag(p *pty.Proc) bool {
	if code, sig := p.ExitStatus(); code == 0 || sig != "" {
		return false
	}
	screen := squash(r.Screen())
	want := inUse
	if r.resume {
		want = notFound
	}
	return strings.Contains(screen, squash(want)) && strings.Contains(screen, r.conv)
}

// relaunch starts the CLI again with the other conversation flag, once,
// after it refused the one agentdesk's record chose: "already in use"
// means the conversation exists after all, "No conversation found" that
// it does not. The record is corrected first. It reports whether a new
// CLI runs.
func (r *Runtime) relaunch(p *pty.Proc) bool {
	if r.retried || !r.wrongFlag(p) {
		return false
	}
	r.retried = true
	r.resume = !r.resume
	flag := "--session-id"
	if r.resume {
		flag = "--resume"
		r.markStarted()
	} else if r.env.SetClaudeSession != nil {
		// The CLI starts the conversation anew under its id: not started
		// until a prompt goes in.
		r.marked.Store(false)
		r.env.SetClaudeSession(r.conv)
	}
	if r.term.Stopping() {
		return false
	}
	r.writeNote(dim, "agentdesk: starting claude again with "+flag)
	if err := r.launch(); err != nil {
		r.slog.Warn("restart claude with "+flag, "err", err)
		return false
	}
	return true
}

// squash drops all white space, so that text the terminal wrapped still
// matches.
func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// markStarted records, once, that the conversation has begun: the next
// agent worker resumes it.
func (r *Runtime) markStarted() {
	if r.conv == "" || r.marked.Swap(true) {
		return
	}
	if r.env.ConversationStarted != nil {
		r.env.ConversationStarted()
	}
}

// loggable is args for the log: the MCP servers' JSON, whose headers and
// environment may hold secrets, is left out.
func loggable(args []string) []string {
	out := slices.Clone(args)
	for i := range len(out) - 1 {
		if out[i] == "--mcp-config" {
			out[i+1] = "(the session's MCP servers, not logged)"
		}
	}
	return out
}
