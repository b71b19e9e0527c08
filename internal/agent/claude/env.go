package claude

import (
	"strings"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// quietEnv turns off the CLI's telemetry, error reporting, self-update and
// every side request to Anthropic or GitHub (claude-cli.md §2).
var quietEnv = []string{
	"DISABLE_TELEMETRY=1",
	"DISABLE_ERROR_REPORTING=1",
	"DISABLE_AUTOUPDATER=1",
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
}

// ChildEnv returns the CLI's environment: base without AGENTDESK_* variables
// (agentdesk's own settings and secrets stay with agentdesk), plus the quiet
// variables of claude-cli.md §2, plus CLAUDE_CONFIG_DIR=configDir when
// configDir is not "" (a config directory chosen for the CLI), plus extra
// ("KEY=value"). A later entry replaces an earlier one with the same key,
// so extra can override anything. base is not modified.
func ChildEnv(base []string, configDir string, extra ...string) []string {
	add := make([]string, 0, len(quietEnv)+1+len(extra))
	add = append(add, quietEnv...)
	if configDir != "" {
		add = append(add, "CLAUDE_CONFIG_DIR="+configDir)
	}
	return childproc.Env(base, "", append(add, extra...)...)
}

// lookupEnv returns key's value in env ("KEY=value"; "" when absent). The
// last entry wins, as for the child.
func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}
