package claude_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// These tests run the pinned CLI against the fake API with agentdesk's tool
// bridge: --mcp-config declares the SDK server agentdesk (alwaysLoad), the
// initialize carries its cached handshake, and a toolbridge.Host answers
// the CLI's mcp_message requests, forwarding tools/call to a provider the
// test plays.

const png1x1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

// bridge is a CLI with agentdesk's SDK server, its host and registry.
type bridge struct {
	t    *testing.T
	p    *claude.Process
	reg  *toolbridge.Registry
	host *toolbridge.Host
	api  *fakeapi.Server

	mu      sync.Mutex
	methods []string // the JSON-RPC methods the CLI sent agentdesk's server
}

func startBridge(t *testing.T, reg *toolbridge.Registry, notify bool, l claude.Limits) *bridge {
	t.Helper()
	bin := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := &bridge{t: t, reg: reg, api: api}
	if l.MCPConfig == "" {
		l.MCPConfig = claude.MCPConfig(time.Hour, nil)
	}
	o := claude.Options{Path: bin, Dir: work, Env: api.ClaudeEnv(t.TempDir()), SessionID: uuid.NewString(), Grace: 10 * time.Second, Limits: l}
	p, err := claude.Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	b.p = p
	t.Cleanup(func() { p.Close(context.Background()) })
	ho := toolbridge.HostOptions{Scope: "s1", Name: claude.SDKServer, Version: "test", ToolUseMeta: claude.ToolUseMeta}
	if notify {
		ho.Notify = func(msg []byte) {
			if err := p.NotifyMCP(context.Background(), claude.SDKServer, msg); err != nil {
				t.Errorf("list_changed: %v", err)
			}
		}
	}
	b.host = toolbridge.NewHost(reg, ho)
	t.Cleanup(b.host.Close)
	if _, err := p.InitializeTools(t.Context(), b.host.Manifest()); err != nil {
		t.Fatalf("initialize: %v\nstderr: %s", err, p.Stderr())
	}
	return b
}

// turn sends prompt and reads to the result, answering mcp_message with the
// host and can_use_tool with answer; during runs once per tools/call seen.
func (b *bridge) turn(prompt string, answer answerFunc, during func()) []claude.Line {
	t := b.t
	t.Helper()
	if err := b.p.SendUser(prompt); err != nil {
		t.Fatal(err)
	}
	var all []claude.Line
	for {
		lines := until(t, b.p, func(l claude.Line) bool {
			return isResult(l) || l.Subtype == "can_use_tool" || l.Subtype == claude.SubtypeMCPMessage
		})
		all = append(all, lines...)
		last := lines[len(lines)-1]
		switch {
		case isResult(last):
			return all
		case last.Subtype == claude.SubtypeMCPMessage:
			b.mcp(last, during)
		default:
			var req struct {
				Request struct {
					Input     json.RawMessage       `json:"input"`
					MCPServer struct{ Name string } `json:"mcp_server"`
				} `json:"request"`
			}
			json.Unmarshal(last.Raw, &req)
			if answer == nil {
				t.Fatalf("unexpected permission request: %s", last.Raw)
			}
			if err := b.p.Respond(last.RequestID, answer(req.Request.Input)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func (b *bridge) mcp(l claude.Line, during func()) {
	server, msg, err := claude.MCPMessage(l)
	if err != nil || server != claude.SDKServer {
		b.t.Fatalf("mcp_message %s: %v", l.Raw, err)
	}
	var m struct{ Method string }
	json.Unmarshal(msg, &m)
	b.mu.Lock()
	b.methods = append(b.methods, m.Method)
	b.mu.Unlock()
	id := l.RequestID
	b.host.Handle(msg, func(reply []byte) {
		if err := b.p.RespondMCP(id, reply); err != nil {
			b.t.Errorf("respond mcp: %v", err)
		}
	})
	if m.Method == "tools/call" && during != nil {
		during()
	}
}

// toolResult is the tool_result block of the turn's user line.
func toolResult(t *testing.T, lines []claude.Line) (content json.RawMessage, isError bool) {
	t.Helper()
	for _, l := range lines {
		if l.Type != "user" {
			continue
		}
		var u struct {
			Message struct {
				Content []struct {
					Type    string          `json:"type"`
					Content json.RawMessage `json:"content"`
					IsError bool            `json:"is_error"`
				} `json:"content"`
			} `json:"message"`
		}
		json.Unmarshal(l.Raw, &u)
		for _, c := range u.Message.Content {
			if c.Type == "tool_result" {
				return c.Content, c.IsError
			}
		}
	}
	t.Fatalf("no tool_result in the turn; its last line: %.500s", lines[len(lines)-1].Raw)
	return nil, false
}

// provider plays a provider: answer is given each call (and each cancel,
// with tool "").
func provider(t *testing.T, reg *toolbridge.Registry, name string, tools []toolbridge.Tool, answer func(tool string, p *toolbridge.Provider, callID string)) *toolbridge.Provider {
	t.Helper()
	p := reg.Connect(name)
	if _, err := p.Register("s1", tools); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-p.Done():
				return
			case b := <-p.Frames():
				var f struct{ Type, CallID, Tool string }
				json.Unmarshal(b, &f)
				switch f.Type {
				case toolbridge.TypeCall:
					answer(f.Tool, p, f.CallID)
				case toolbridge.TypeCancel:
					answer("", p, f.CallID) // told to cancel
				}
			}
		}
	}()
	t.Cleanup(func() {
		p.Close()
		<-done
	})
	return p
}

func tool(name string) toolbridge.Tool {
	return toolbridge.Tool{Name: name, Description: "Test tool " + name + ".", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}
}

// TestRealToolBridge: a provider's tool called and answered with text and
// with an image, denied, a provider gone mid-call, an interrupt during a
// call, a tool added mid-session and used in the next turn; the first turn
// never waited for the MCP handshake.
func TestRealToolBridge(t *testing.T) {
	reg := toolbridge.New(toolbridge.Options{Timeout: time.Hour})
	cancelled := make(chan string, 4)
	var goneMu sync.Mutex
	provider(t, reg, "test page", []toolbridge.Tool{tool("echo"), tool("shot"), tool("hang")}, func(name string, p *toolbridge.Provider, id string) {
		switch name {
		case "":
			cancelled <- id
		case "echo":
			p.Answer(id, toolbridge.TextResult("page says hi"))
		case "shot":
			p.Answer(id, toolbridge.Result{Content: []toolbridge.Content{{Type: "text", Text: "a screenshot"}, {Type: "image", Data: png1x1, MimeType: "image/png"}}})
		}
	})
	b := startBridge(t, reg, true, claude.Limits{})

	lines := b.turn(`call mcp__agentdesk__echo {"text":"hi"}`, allow, nil)
	if c, isErr := toolResult(t, lines); isErr || !strings.Contains(string(c), "page says hi") {
		t.Errorf("echo: %s (error %v)", c, isErr)
	}
	// With --mcp-config the CLI runs the handshake at start even with the
	// manifest; the host answers it at once from memory.
	if got := strings.Join(b.methods, ","); !strings.HasSuffix(got, "tools/call") || strings.Count(got, "tools/call") != 1 {
		t.Errorf("the CLI sent %s", got)
	}
	first := b.api.MessageRequests()[0]
	if !strings.Contains(string(first.RawBody), `"name":"mcp__agentdesk__echo"`) {
		t.Error("the tools were not in the first request (deferred, or the first turn started without them)")
	}

	lines = b.turn(`call mcp__agentdesk__shot {}`, allow, nil)
	if c, isErr := toolResult(t, lines); isErr || !strings.Contains(string(c), `"type":"image"`) || !strings.Contains(string(c), "a screenshot") {
		t.Errorf("shot: %s (error %v)", c, isErr)
	}

	lines = b.turn(`call mcp__agentdesk__echo {"text":"no"}`, deny, nil)
	if c, isErr := toolResult(t, lines); !isErr || !strings.Contains(string(c), "The user said no") {
		t.Errorf("denied: %s (error %v)", c, isErr)
	}

	// A second provider whose tool's provider goes away mid-call.
	var gone *toolbridge.Provider
	gone = provider(t, reg, "flaky tab", []toolbridge.Tool{tool("flaky")}, func(string, *toolbridge.Provider, string) {
		goneMu.Lock()
		defer goneMu.Unlock()
		go gone.Close() // the tab closes while the call waits
	})
	lines = b.turn(`call mcp__agentdesk__flaky {}`, allow, nil)
	if c, isErr := toolResult(t, lines); !isErr || !strings.Contains(string(c), "flaky tab, went away") {
		t.Errorf("gone mid-call: %s (error %v)", c, isErr)
	}

	// An interrupt during a call: the CLI cancels it, the provider is told.
	lines = b.turn(`call mcp__agentdesk__hang {}`, allow, func() {
		go func() {
			if err := b.p.Interrupt(context.Background()); err != nil {
				t.Errorf("interrupt: %v", err)
			}
		}()
	})
	if res := resultOf(t, lines); res["subtype"] != "error_during_execution" {
		t.Errorf("interrupted turn ended %v", res["subtype"])
	}
	b.waitMethod("notifications/cancelled")
	<-cancelled

	// A tool added mid-session reaches the next turn, with no restart.
	provider(t, reg, "late page", []toolbridge.Tool{tool("added_later")}, func(_ string, p *toolbridge.Provider, id string) {
		p.Answer(id, toolbridge.TextResult("added_later ran"))
	})
	b.waitMethod("tools/list")
	lines = b.turn(`call mcp__agentdesk__added_later {}`, allow, nil)
	if c, isErr := toolResult(t, lines); isErr || !strings.Contains(string(c), "added_later ran") {
		t.Errorf("added later: %s (error %v)", c, isErr)
	}
}

// waitMethod reads the CLI's lines, answering mcp_message, until it sent
// method to agentdesk's server.
func (b *bridge) waitMethod(method string) {
	b.t.Helper()
	for {
		b.mu.Lock()
		seen := strings.Contains(","+strings.Join(b.methods, ",")+",", ","+method+",")
		b.mu.Unlock()
		if seen {
			return
		}
		lines := until(b.t, b.p, func(l claude.Line) bool { return l.Subtype == claude.SubtypeMCPMessage })
		b.mcp(lines[len(lines)-1], nil)
	}
}
