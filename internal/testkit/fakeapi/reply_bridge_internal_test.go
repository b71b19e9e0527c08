package fakeapi

import (
	"encoding/json"
	"testing"
)

// TestBridgePlan: "call mcp__…" makes a tool call with the given input,
// also when the same user message carries an interrupted call's result.
func TestBridgePlan(t *testing.T) {
	tools := []json.RawMessage{json.RawMessage(`{"name":"mcp__agentdesk__echo"}`)}
	body := func(content string) messagesBody {
		return messagesBody{Tools: tools, Messages: []Message{{Role: "user", Content: json.RawMessage(content)}}}
	}
	s := &Server{}
	p := s.decide(body(`"call mcp__agentdesk__echo {\"text\":\"hi\"}"`))
	if p.kind != "call" || p.blocks[1].ToolName != "mcp__agentdesk__echo" || p.blocks[1].Input["text"] != "hi" {
		t.Errorf("plan %+v", p)
	}
	p = s.decide(body(`[{"type":"tool_result","tool_use_id":"t1","content":"x"},{"type":"text","text":"call mcp__agentdesk__echo"}]`))
	if p.kind != "call" || len(p.blocks[1].Input) != 0 {
		t.Errorf("with a pending result: %+v", p)
	}
	if p := s.decide(body(`[{"type":"tool_result","tool_use_id":"t1","content":"x"}]`)); p.kind != "tool_result" {
		t.Errorf("a plain follow-up: %+v", p.kind)
	}
}
