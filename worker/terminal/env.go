package terminal

import (
	"strings"

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

// childEnv is base with the terminal type xterm.js emulates.
func childEnv(base []string) []string {
	env := make([]string, 0, len(base)+2)
	for _, kv := range base {
		if !strings.HasPrefix(kv, "TERM=") && !strings.HasPrefix(kv, "COLORTERM=") {
			env = append(env, kv)
		}
	}
	return append(env, "TERM=xterm-256color", "COLORTERM=truecolor")
}

func lookup(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}
