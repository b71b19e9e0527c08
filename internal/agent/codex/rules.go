package codex

import "strings"

// Allowed rules in the chat's syntax, as a person writes them for a
// session (allowedTools) or Codex's "allow for this session" adds them:
//
//	Bash(npm test)     that exact command
//	Bash(npm test *)   a command that starts with "npm test" (Claude's
//	                   prefix rule); Bash(*) or Bash: every command
//	Edit(a.go\nb.go)   changes to exactly those files; Edit: every change
//
// A rule naming an MCP server's tools (mcp__<server>__*) is not one of
// these: it goes to the server's config (ThreadConfig).

// allowedBy reports whether one of rules allows what r asks.
func allowedBy(rules []Rule, r Rule) bool {
	for _, x := range rules {
		if x.allows(r) {
			return true
		}
	}
	return false
}

// allows reports whether rule x allows what r asks.
func (x Rule) allows(r Rule) bool {
	if x.Tool != r.Tool || r.Tool == "" {
		return false
	}
	switch {
	case x.Content == r.Content, x.Content == "*":
		return true
	case x.Tool == "Bash" && strings.HasSuffix(x.Content, " *"):
		prefix := strings.TrimSuffix(x.Content, " *")
		return r.Content == prefix || strings.HasPrefix(r.Content, prefix+" ")
	}
	return false
}

// wholeTools are the tools a bare name allows every use of.
var wholeTools = map[string]bool{"Bash": true, "Edit": true}

// readRule reads an allowed tool: Tool(Content), or a bare Bash or Edit
// (every use); false for anything else.
func readRule(s string) (Rule, bool) {
	if wholeTools[s] {
		return Rule{Tool: s, Content: "*"}, true
	}
	return ParseRule(s)
}
