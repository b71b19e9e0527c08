package worker

import "regexp"

// What a Codex chat can take of the tool rules (docs/api-extensions.md,
// "Per-session limits and prompt"): Codex asks before a command or a
// change of files and before an MCP tool; it has no way to take one of
// its own tools away. A rule it cannot apply is refused, never ignored.
// mcpServerName is an MCP server's name in a tool rule.
const mcpServerName = `[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*`

var (
	// codexAllowed: Bash, Bash(<command>), Bash(<prefix> *), Edit,
	// Edit(<file>), a whole MCP server, or a tool of agentdesk's own
	// bridge (asked about by agentdesk, not Codex). One tool of another
	// server is not: Codex has no approval per MCP tool. A server's name
	// holds no "__" (it separates the tool's).
	codexAllowed = regexp.MustCompile(`^((Bash|Edit)(\(.+\))?|mcp__agentdesk__[A-Za-z0-9_-]+|mcp__` + mcpServerName + `(__\*)?)$`)
	// codexDisallowed: an MCP server's tool, or the whole server.
	codexDisallowed = regexp.MustCompile(`^mcp__` + mcpServerName + `(__([A-Za-z0-9_-]+|\*))?$`)
)

// checkCodexRules refuses the allowed and disallowed tools a Codex chat
// cannot apply.
func checkCodexRules(allowed []string, l Limits) error {
	for _, r := range allowed {
		if !codexAllowed.MatchString(r) {
			return fieldErr("allowedTools", "%q does not apply to a Codex chat: allow Bash, Bash(<command>), Bash(<prefix> *), Edit, Edit(<file>), or a whole MCP server as mcp__<server>__*", r)
		}
	}
	for _, r := range l.DisallowedTools {
		if !codexDisallowed.MatchString(r) {
			return fieldErr("disallowedTools", "%q cannot be taken from a Codex chat: Codex's own tools stay (decline them when Codex asks); disallow an MCP server's tool as mcp__<server>__<tool>, or the whole server as mcp__<server>__*", r)
		}
	}
	return nil
}
