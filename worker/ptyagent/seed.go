package ptyagent

import (
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// seed prepares the config before the CLI starts (claude.SeedConfig: the
// session's directory and the added ones trusted) and
// says so in the terminal (dim, before the CLI draws) and in the log, only
// when it changed something. A failure is reported the same way; the CLI
// starts anyway and may stop at a dialog the user can still answer in the
// tab.
func (r *Runtime) seed(env []string) {
	res, err := claude.SeedConfig(env, r.env.Session.Cwd, r.env.Info.Limits.AddDirs...)
	if err != nil {
		r.slog.Warn("prepare claude config", "file", res.File, "err", err)
		r.writeNote(dim, fmt.Sprintf("agentdesk: could not prepare %s (%v); Claude Code may stop at a start-up dialog", res.File, err))
		return
	}
	if len(res.Changes) == 0 {
		return
	}
	r.slog.Info("prepared claude config", "file", res.File, "changes", res.Changes)
	r.writeNote(dim, fmt.Sprintf("agentdesk: %s in %s so Claude Code starts at its prompt",
		strings.Join(res.Changes, ", "), res.File))
}
