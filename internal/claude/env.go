package claude

import "github.com/agentdesk/agentdesk/internal/childproc"

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
// variables of claude-cli.md §2, plus extra ("KEY=value"). A later entry
// replaces an earlier one with the same key, so extra can override anything.
// base is not modified.
func ChildEnv(base []string, extra ...string) []string {
	return childproc.Env(base, "", append(quietEnv[:len(quietEnv):len(quietEnv)], extra...)...)
}
