package codex

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// MCP servers of a session in Codex: they are given to the thread as
// thread/start's (and thread/resume's) config, mcp_servers.<name>, over
// the pipe: their secrets (env values, header values) never reach the
// command line nor Codex's environment, where the model's commands would
// see them, and Codex does not write that config to its home.

// ThreadConfig is a thread's config overrides (ThreadParams.Config) for
// the session's MCP servers and its writable roots; nil when there is
// nothing. Rules of allowed and disallowed that name a server's tools
// (mcp__<server>__<tool>, mcp__<server>__* or mcp__<server>) apply to its
// entry: a server allowed whole runs its tools without asking
// (default_tools_approval_mode "approve"), a tool disallowed is in its
// disabled_tools, a server disallowed whole is left out.
func ThreadConfig(servers []agent.MCPServer, writableRoots, allowed, disallowed []string) map[string]any {
	cfg := map[string]any{}
	all := map[string]any{}
	for _, s := range servers {
		e := mcpEntry(s)
		if mcpRule(disallowed, s.Name, e, "disabled_tools") {
			continue
		}
		if mcpRule(allowed, s.Name, e, "") {
			e["default_tools_approval_mode"] = "approve"
		}
		all[s.Name] = e
	}
	if len(all) > 0 {
		cfg["mcp_servers"] = all
	}
	if len(writableRoots) > 0 {
		cfg["sandbox_workspace_write"] = map[string]any{"writable_roots": slices.Clone(writableRoots)}
	}
	if len(cfg) == 0 {
		return nil
	}
	return cfg
}

// mcpRule reads the rules about server's tools: true when one names the
// whole server; the tools named one by one go in e[list] (when list is
// not "").
func mcpRule(rules []string, server string, e map[string]any, list string) bool {
	prefix := "mcp__" + server
	whole := false
	var tools []string
	for _, r := range rules {
		switch {
		case r == prefix || r == prefix+"__*":
			whole = true
		case strings.HasPrefix(r, prefix+"__") && !strings.ContainsAny(r, "*("):
			tools = append(tools, strings.TrimPrefix(r, prefix+"__"))
		}
	}
	if list != "" && len(tools) > 0 {
		e[list] = tools
	}
	return whole
}

// mcpEntry is one server in Codex's mcp_servers table: a stdio command
// (command, args, env) or a streamable HTTP server (url, http_headers).
func mcpEntry(s agent.MCPServer) map[string]any {
	e := map[string]any{}
	if s.Type == "http" {
		e["url"] = s.URL
		if len(s.Headers) > 0 {
			e["http_headers"] = s.Headers
		}
		return e
	}
	e["command"] = s.Command
	if len(s.Args) > 0 {
		e["args"] = s.Args
	}
	if len(s.Env) > 0 {
		e["env"] = s.Env
	}
	return e
}

// MCPServerStatus is one MCP server as Codex reports it for the thread
// (mcpServerStatus/list), without its configuration.
type MCPServerStatus struct {
	Name   string
	Status string // connected, pending, failed, disabled, needs-auth
	Error  string
	Tools  []string
}

// maxStatusPages bounds mcpServerStatus/list's pagination.
const maxStatusPages = 20

// MCPStatus lists the thread's MCP servers (the session's and those of
// Codex's own config) with their state and tools.
func (s *Session) MCPStatus(ctx context.Context) ([]MCPServerStatus, error) {
	var out []MCPServerStatus
	cursor := ""
	for range maxStatusPages {
		params := map[string]any{"threadId": s.Thread(), "detail": "toolsAndAuthOnly"}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var r struct {
			Data []struct {
				Name          string         `json:"name"`
				RuntimeStatus string         `json:"runtimeStatus"`
				ToolsError    string         `json:"toolsError"`
				Tools         map[string]any `json:"tools"`
			} `json:"data"`
			NextCursor *string `json:"nextCursor"`
		}
		if err := s.p.Call(ctx, "mcpServerStatus/list", params, &r); err != nil {
			return nil, fmt.Errorf("list codex's mcp servers: %w", err)
		}
		for _, d := range r.Data {
			st := MCPServerStatus{Name: d.Name, Status: mcpState(d.RuntimeStatus), Error: d.ToolsError, Tools: []string{}}
			for name := range d.Tools {
				st.Tools = append(st.Tools, name)
			}
			slices.Sort(st.Tools)
			out = append(out, st)
		}
		if r.NextCursor == nil || *r.NextCursor == "" {
			break
		}
		cursor = *r.NextCursor
	}
	return out, nil
}

// mcpState is Codex's McpServerConnectionStatus in the words the chat
// uses for Claude's servers.
func mcpState(s string) string {
	switch s {
	case "connected", "failed", "disabled":
		return s
	case "authenticationRequired":
		return "needs-auth"
	case "cancelled":
		return "failed"
	default: // notStarted, starting, null
		return "pending"
	}
}
