package terminal

import (
	"strings"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/worker"
)

// command is the worker's command, else the user's $SHELL, else /bin/sh.
// A shell on a terminal is interactive without -i: it checks isatty.
func command(env worker.Env) []string {
	if len(env.Info.Command) > 0 {
		return env.Info.Command
	}
	if sh := lookup(env.Config.ChildEnv, "SHELL"); sh != "" {
		return []string{sh}
	}
	return []string{"/bin/sh"}
}

// childEnv is base with the terminal type xterm.js emulates; internal/pty
// adds the worker's marker and removes agentdesk's own variables.
func childEnv(base []string) []string {
	return childproc.Env(base, "", "TERM=xterm-256color", "COLORTERM=truecolor")
}

func lookup(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}
