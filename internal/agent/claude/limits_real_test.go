package claude_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/testkit/mcpstdio/mcpstdiotest"
	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// TestRealToolTimeoutAndNoProvider: a provider that never answers gets
// agentdesk's timeout (the agent reads why, the provider is told to
// cancel); a tool whose provider left before the agent re-listed answers
// at once that no provider serves it.
func TestRealToolTimeoutAndNoProvider(t *testing.T) {
	reg := toolbridge.New(toolbridge.Options{Timeout: 2 * time.Second})
	cancels := make(chan string, 2)
	provider(t, reg, "slow tab", []toolbridge.Tool{tool("never")}, func(name string, _ *toolbridge.Provider, id string) {
		if name == "" {
			cancels <- id
		}
	})
	left := provider(t, reg, "left tab", []toolbridge.Tool{tool("left")}, func(string, *toolbridge.Provider, string) {})
	b := startBridge(t, reg, false, claude.Limits{}) // no list_changed: the CLI keeps "left"

	lines := b.turn(`call mcp__agentdesk__never {}`, allow, nil)
	if c, isErr := toolResult(t, lines); !isErr || !strings.Contains(string(c), "did not answer within 2s") {
		t.Errorf("timeout: %s (error %v)", c, isErr)
	}
	<-cancels

	left.Close()
	lines = b.turn(`call mcp__agentdesk__left {}`, allow, nil)
	if c, isErr := toolResult(t, lines); !isErr || !strings.Contains(string(c), "No provider serves the tool left") {
		t.Errorf("no provider: %s (error %v)", c, isErr)
	}
}

// TestRealLimits: each per-session flag reaches the CLI: the appended
// prompt the fake API's system, the added directory and the disallowed
// tool its init line, the turn limit its result (error_max_turns); a
// budget below the first turn's cost ends the turn with
// error_max_budget_usd.
func TestRealLimits(t *testing.T) {
	extra := t.TempDir()
	reg := toolbridge.New(toolbridge.Options{})
	b := startBridge(t, reg, false, claude.Limits{AppendSystemPrompt: "APPENDED-MARKER-26", MaxTurns: 1,
		DisallowedTools: []string{"WebFetch"}, AddDirs: []string{extra}})
	lines := b.turn("bash:ls", allow, nil)
	init := map[string]any{}
	for _, l := range lines {
		if l.Type == "system" && l.Subtype == "init" {
			if err := json.Unmarshal(l.Raw, &init); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if init["subtype"] != "init" {
		t.Fatal("no init line")
	}
	if dirs, _ := init["additional_directories"].([]any); len(dirs) != 1 || dirs[0] != extra {
		t.Errorf("additional_directories %v", init["additional_directories"])
	}
	for _, tl := range init["tools"].([]any) {
		if tl == "WebFetch" {
			t.Error("WebFetch is still among the tools")
		}
	}
	if res := resultOf(t, lines); res["subtype"] != "error_max_turns" || res["is_error"] != true {
		t.Errorf("result %v %v", res["subtype"], res["errors"])
	}
	if !strings.Contains(string(b.api.MessageRequests()[0].RawBody), "APPENDED-MARKER-26") {
		t.Error("the appended prompt is not in the request")
	}

	b2 := startBridge(t, toolbridge.New(toolbridge.Options{}), false, claude.Limits{MaxBudgetUSD: 0.0001})
	if res := resultOf(t, b2.turn("hello", nil, nil)); res["subtype"] != "error_max_budget_usd" {
		t.Errorf("budget: result %v %v", res["subtype"], res["errors"])
	}
}

// TestRealMCPServerToggle: an MCP server of the session (a stdio program)
// runs in the CLI beside agentdesk's, is listed with its tools by
// mcp_status, and is turned off and on again with mcp_toggle.
func TestRealMCPServerToggle(t *testing.T) {
	dir := t.TempDir()
	bin, err := mcpstdiotest.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg := toolbridge.New(toolbridge.Options{})
	provider(t, reg, "page", []toolbridge.Tool{tool("echo")}, func(string, *toolbridge.Provider, string) {})
	cfg := claude.MCPConfig(time.Minute, []claude.MCPServer{{Name: "ext", Type: "stdio", Command: bin, Env: map[string]string{"EXT_TOKEN": "secret-1"}}})
	b := startBridge(t, reg, false, claude.Limits{MCPConfig: cfg})
	go b.answerMCP(t.Context()) // the handshake of agentdesk's server, while we ask
	want := func(name, status string) claude.MCPServerStatus {
		for {
			st, err := b.p.MCPStatus(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range st {
				if s.Name == name && s.Status == status {
					return s
				}
			}
			select {
			case <-time.After(100 * time.Millisecond): // the CLI offers no event for a server's state
			case <-t.Context().Done():
				t.Fatal("context ended")
			}
		}
	}
	if ext := want("ext", "connected"); strings.Join(ext.Tools, ",") != "ping" {
		t.Errorf("ext tools %v", ext.Tools)
	}
	if own := want(claude.SDKServer, "connected"); strings.Join(own.Tools, ",") != "echo" {
		t.Errorf("agentdesk tools %v", own.Tools)
	}
	if err := b.p.MCPToggle(t.Context(), "ext", false); err != nil {
		t.Fatal(err)
	}
	want("ext", "disabled")
	if err := b.p.MCPToggle(t.Context(), "ext", true); err != nil {
		t.Fatal(err)
	}
	want("ext", "connected")
	if _, err := os.Stat(filepath.Join(dir, "mcpstdio")); err != nil {
		t.Fatal(err)
	}
}

// answerMCP answers the CLI's mcp_message requests until ctx ends.
func (b *bridge) answerMCP(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case l, ok := <-b.p.Lines():
			if !ok {
				return
			}
			if l.Subtype == claude.SubtypeMCPMessage {
				b.mcp(l, nil)
			}
		}
	}
}
