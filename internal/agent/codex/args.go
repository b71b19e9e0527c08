package codex

import "github.com/agentdesk/agentdesk/internal/childproc"

// quietArgs turn off what Codex does besides the conversation: the update
// check, analytics and feedback uploads (agents.md §C: with these, only
// POST /v1/responses leaves the CLI), and the ChatGPT apps and plugins.
var quietArgs = []string{
	"-c", "check_for_update_on_startup=false",
	"-c", "analytics.enabled=false",
	"-c", "feedback.enabled=false",
	"--disable", "apps",
	"--disable", "plugins",
}

// Args are the CLI's arguments: `app-server` with the quiet settings,
// then overrides, each a `-c` value ("key=value", TOML; e.g.
// model_provider="name"), which win over the user's config.toml.
func Args(overrides []string) []string {
	out := append([]string{"app-server"}, quietArgs...)
	for _, o := range overrides {
		out = append(out, "-c", o)
	}
	return out
}

// ChildEnv returns the CLI's environment: base without AGENTDESK_*
// variables (agentdesk's own settings and secrets stay with agentdesk),
// plus CODEX_HOME=home when home is not "" (else the user's own: the
// CODEX_HOME of base, or ~/.codex, with their login and config), plus
// extra ("KEY=value"). A later entry replaces an earlier one with the same
// key. base is not modified.
func ChildEnv(base []string, home string, extra ...string) []string {
	var add []string
	if home != "" {
		add = append(add, "CODEX_HOME="+home)
	}
	return childproc.Env(base, "", append(add, extra...)...)
}
