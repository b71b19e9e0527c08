package worker

import (
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// MCPServer is an MCP server a session's agent runs besides agentdesk's
// own tools: a program over stdio, or a server over HTTP. It is stored
// with the session and given to every agent started for it. The values
// of Env and Headers are secrets (tokens): the API shows them masked and
// they are never logged.
type MCPServer struct {
	Name    string            `json:"name"`
	Type    string            `json:"type"` // MCPStdio or MCPHTTP
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Enabled is false for a server the person turned off: the agent
	// starts without it.
	Enabled bool `json:"enabled"`
}

// MCP server types.
const (
	MCPStdio = "stdio"
	MCPHTTP  = "http"
)

// Masked is what the API shows in place of a secret value.
const Masked = "********"

// ReservedMCPName is the name of agentdesk's own tool server.
const ReservedMCPName = "agentdesk"

// Limits on a session's MCP servers.
const (
	maxMCPServers = 20
	maxMCPArgs    = 64
	maxMCPPairs   = 32 // env variables or headers
	maxMCPValue   = 8 << 10
	maxMCPURL     = 2048
)

var (
	mcpName    = regexp.MustCompile(`^[A-Za-z0-9_-]{1,40}$`)
	envName    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)
	headerName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$")
)

// masked returns s with every secret value replaced by Masked.
func (s MCPServer) masked() MCPServer {
	s.Args = slices.Clone(s.Args)
	s.Env, s.Headers = maskAll(s.Env), maskAll(s.Headers)
	return s
}

func maskAll(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k := range m {
		out[k] = Masked
	}
	return out
}

func (s MCPServer) clone() MCPServer {
	s.Args = slices.Clone(s.Args)
	s.Env, s.Headers = maps.Clone(s.Env), maps.Clone(s.Headers)
	return s
}

// check validates a new server against the ones the session has.
func (s MCPServer) check(have []MCPServer) error {
	if !mcpName.MatchString(s.Name) {
		return fieldErr("name", "must be 1 to 40 letters, digits, _ or -, got %q", s.Name)
	}
	if s.Name == ReservedMCPName {
		return fieldErr("name", "%q is agentdesk's own tool server; choose another name", s.Name)
	}
	for _, h := range have {
		if h.Name == s.Name {
			return fieldErr("name", "the session already has an MCP server named %q; remove it first", s.Name)
		}
	}
	if len(have) >= maxMCPServers {
		return fieldErr("name", "a session has at most %d MCP servers", maxMCPServers)
	}
	switch s.Type {
	case MCPStdio:
		return s.checkStdio()
	case MCPHTTP:
		return s.checkHTTP()
	}
	return fieldErr("type", `must be "stdio" (a command) or "http" (a URL), got %q`, s.Type)
}

func (s MCPServer) checkStdio() error {
	if s.URL != "" || len(s.Headers) > 0 {
		return fieldErr("url", "a stdio server has a command, not a url or headers")
	}
	if strings.TrimSpace(s.Command) == "" || !plainValue(s.Command) {
		return fieldErr("command", "is required for a stdio server: the program to run, e.g. npx")
	}
	if len(s.Args) > maxMCPArgs {
		return fieldErr("args", "at most %d arguments", maxMCPArgs)
	}
	for _, a := range s.Args {
		if !plainValue(a) {
			return fieldErr("args", "each argument must be UTF-8 text of at most %d bytes, without NUL", maxMCPValue)
		}
	}
	if len(s.Env) > maxMCPPairs {
		return fieldErr("env", "at most %d variables", maxMCPPairs)
	}
	for k, v := range s.Env {
		if !envName.MatchString(k) {
			return fieldErr("env", "%q is not a variable name (letters, digits and _, not starting with a digit)", k)
		}
		if !plainValue(v) {
			return fieldErr("env", "the value of %s must be UTF-8 text of at most %d bytes, without NUL", k, maxMCPValue)
		}
	}
	return nil
}

func (s MCPServer) checkHTTP() error {
	if s.Command != "" || len(s.Args) > 0 || len(s.Env) > 0 {
		return fieldErr("command", "an http server has a url, not a command, args or env")
	}
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(s.URL) > maxMCPURL {
		return fieldErr("url", "must be an http:// or https:// URL of the MCP endpoint, e.g. https://mcp.example.com/mcp")
	}
	if len(s.Headers) > maxMCPPairs {
		return fieldErr("headers", "at most %d headers", maxMCPPairs)
	}
	for k, v := range s.Headers {
		if !headerName.MatchString(k) {
			return fieldErr("headers", "%q is not a header name", k)
		}
		if !plainValue(v) || strings.ContainsAny(v, "\r\n") {
			return fieldErr("headers", "the value of %s must be one line of at most %d bytes", k, maxMCPValue)
		}
	}
	return nil
}

func plainValue(s string) bool {
	return len(s) <= maxMCPValue && utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// maskedServers is the API's view of a session's servers.
func maskedServers(in []MCPServer) []MCPServer {
	if in == nil {
		return nil
	}
	out := make([]MCPServer, len(in))
	for i, s := range in {
		out[i] = s.masked()
	}
	return out
}
