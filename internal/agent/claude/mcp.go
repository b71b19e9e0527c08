package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// The tool bridge in the CLI (agents.md, section A): agentdesk's tools are
// an SDK MCP server named SDKServer, hosted by agentdesk and reached over
// the control protocol. The CLI sends each JSON-RPC message for it as an
// mcp_message control request; agentdesk answers it with mcp_response.

// SDKServer is the name of agentdesk's own MCP server: the agent sees its
// tools as mcp__agentdesk__<tool>.
const SDKServer = "agentdesk"

// ToolUseMeta is the key of tools/call's _meta that carries the id of the
// tool_use block the call is for.
const ToolUseMeta = "claudecode/toolUseId"

// SubtypeMCPMessage is the control request of a JSON-RPC message to an SDK
// MCP server.
const SubtypeMCPMessage = "mcp_message"

// MCPServer is an MCP server the CLI runs itself: a command over stdio, or
// a server over HTTP.
type MCPServer struct {
	Name    string
	Type    string // "stdio" or "http"
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
}

type mcpEntry struct {
	Type       string            `json:"type"`
	Name       string            `json:"name,omitempty"`
	AlwaysLoad bool              `json:"alwaysLoad,omitempty"`
	Timeout    int64             `json:"timeout,omitempty"`
	Command    string            `json:"command,omitempty"`
	Args       []string          `json:"args,omitempty"`
	Env        map[string]string `json:"env,omitempty"`
	URL        string            `json:"url,omitempty"`
	Headers    map[string]string `json:"headers,omitempty"`
}

// MCPConfig is the value of --mcp-config: agentdesk's SDK server, always
// loaded (without alwaysLoad the CLI defers MCP tools behind ToolSearch)
// with the CLI's own per-call timeout, and the other servers. The JSON
// holds the servers' secrets: it goes on the CLI's command line only.
func MCPConfig(timeout time.Duration, servers []MCPServer) string {
	return mcpConfig(map[string]mcpEntry{SDKServer: {Type: "sdk", Name: SDKServer, AlwaysLoad: true, Timeout: timeout.Milliseconds()}}, servers)
}

// ServersConfig is --mcp-config's JSON for servers alone, without
// agentdesk's SDK server (which needs the stream-json control channel the
// interactive TUI has not); "" for none.
func ServersConfig(servers []MCPServer) string {
	if len(servers) == 0 {
		return ""
	}
	return mcpConfig(map[string]mcpEntry{}, servers)
}

// mcpConfig adds servers to all and returns --mcp-config's JSON.
func mcpConfig(all map[string]mcpEntry, servers []MCPServer) string {
	for _, s := range servers {
		all[s.Name] = mcpEntry{Type: s.Type, Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": all})
	if err != nil {
		panic(fmt.Sprintf("claude: marshal mcp config: %v", err)) // plain strings only
	}
	return string(b)
}

// InitializeTools is Initialize that also declares agentdesk's SDK server
// with its cached handshake (manifest: initializeResult and
// toolsListResult): the CLI then parks the server and never asks for the
// handshake, so the first turn does not wait for it.
func (p *Process) InitializeTools(ctx context.Context, manifest any) (json.RawMessage, error) {
	return p.Control(ctx, map[string]any{
		"subtype":               "initialize",
		"sdkMcpServers":         []string{SDKServer},
		"sdkMcpServerManifests": map[string]any{SDKServer: manifest},
	})
}

// MCPMessage reads an mcp_message control request: the server it is for
// and its JSON-RPC message.
func MCPMessage(l Line) (server string, msg json.RawMessage, err error) {
	var r struct {
		Request struct {
			ServerName string          `json:"server_name"`
			Message    json.RawMessage `json:"message"`
		} `json:"request"`
	}
	if err := json.Unmarshal(l.Raw, &r); err != nil {
		return "", nil, fmt.Errorf("decode mcp_message: %w", err)
	}
	return r.Request.ServerName, r.Request.Message, nil
}

// RespondMCP answers an mcp_message control request with a JSON-RPC reply.
func (p *Process) RespondMCP(requestID string, reply json.RawMessage) error {
	return p.Respond(requestID, map[string]any{"mcp_response": reply})
}

// NotifyMCP sends server's JSON-RPC notification to the CLI (the tool list
// changed) and waits for the CLI's acknowledgement.
func (p *Process) NotifyMCP(ctx context.Context, server string, msg json.RawMessage) error {
	_, err := p.Control(ctx, map[string]any{"subtype": SubtypeMCPMessage, "server_name": server, "message": msg})
	return err
}

// MCPServerStatus is one MCP server as the CLI reports it, without its
// configuration (which holds secrets: the CLI echoes headers).
type MCPServerStatus struct {
	Name   string
	Status string
	Error  string
	Tools  []string
}

// MCPStatus asks the CLI for its MCP servers (mcp_status). Asked before the
// handshakes finish, it lists none.
func (p *Process) MCPStatus(ctx context.Context) ([]MCPServerStatus, error) {
	raw, err := p.Control(ctx, map[string]any{"subtype": "mcp_status"})
	if err != nil {
		return nil, err
	}
	var r struct {
		Servers []struct {
			Name   string `json:"name"`
			Status string `json:"status"`
			Error  string `json:"error"`
			Tools  []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("decode mcp_status: %w", err)
	}
	out := make([]MCPServerStatus, 0, len(r.Servers))
	for _, s := range r.Servers {
		st := MCPServerStatus{Name: s.Name, Status: s.Status, Error: s.Error, Tools: []string{}}
		for _, t := range s.Tools {
			st.Tools = append(st.Tools, t.Name)
		}
		out = append(out, st)
	}
	return out, nil
}

// MCPToggle turns one of the CLI's MCP servers off or on (mcp_toggle); on
// again runs its handshake anew.
func (p *Process) MCPToggle(ctx context.Context, name string, enabled bool) error {
	_, err := p.Control(ctx, map[string]any{"subtype": "mcp_toggle", "serverName": name, "enabled": enabled})
	return err
}
