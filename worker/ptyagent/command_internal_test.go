package ptyagent

import (
	"strings"
	"testing"
)

// The MCP servers' JSON (headers and environment may hold secrets) stays
// out of the log line of a start.
func TestLoggableHidesMCPConfig(t *testing.T) {
	args := []string{"--session-id", "x", "--mcp-config", `{"mcpServers":{"a":{"headers":{"Authorization":"Bearer s3cret"}}}}`, "--add-dir", "/d"}
	got := strings.Join(loggable(args), " ")
	if strings.Contains(got, "s3cret") || !strings.Contains(got, "--add-dir /d") {
		t.Errorf("logged %q", got)
	}
	if !strings.Contains(args[3], "s3cret") {
		t.Error("loggable changed the CLI's arguments")
	}
}
