package fakeapi_test

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
)

// A "tools:<name>" prompt gets its script one step per request, counted from
// the assistant messages after the prompt, then the usual tool_result summary.
func TestToolScripts(t *testing.T) {
	s := fakeapi.New(t)
	toolUse := func(id, name string) map[string]any {
		return map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{}}}}
	}
	result := func(id string) map[string]any {
		return userMsg([]any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": "done"}})
	}
	convo := []any{userMsg("earlier"), map[string]any{"role": "assistant", "content": "Echo"}, userMsg("please tools:edit now")}
	steps := []struct {
		stop, tool, input string // stop_reason, the tool_use name, a part of its input
	}{
		{"tool_use", "Write", `"file_path":"hello.py"`},
		{"tool_use", "Edit", `"old_string":`},
		{"end_turn", "", "Tool finished. Results:\n- `Edit` (ok): 'done'"},
	}
	for i, want := range steps {
		r := post(t, s, map[string]any{"stream": true, "tools": someTools, "messages": convo})
		if r.stop != want.stop {
			t.Fatalf("step %d: stop %q, want %q", i, r.stop, want.stop)
		}
		last := len(r.blocks) - 1
		if name, _ := r.blocks[last]["name"].(string); name != want.tool || !strings.Contains(r.text[last], want.input) {
			t.Fatalf("step %d: block %v %q, want %s with %s", i, r.blocks[last], r.text[last], want.tool, want.input)
		}
		id := "toolu_" + string(rune('a'+i))
		convo = append(convo, toolUse(id, want.tool), result(id))
	}
	got := s.MessageRequests()
	if reply := got[0].Reply; reply != "tools:edit" {
		t.Errorf("logged reply %q, want tools:edit", reply)
	}
}

// A Task's subagent starts from the Task's prompt: the "agent" script's Task
// names the "sub" script, whose first step is a Bash call.
func TestToolScriptSubagent(t *testing.T) {
	s := fakeapi.New(t)
	r := post(t, s, map[string]any{"stream": true, "tools": someTools, "messages": []any{userMsg("tools:agent")}})
	if name, _ := r.blocks[1]["name"].(string); name != "Task" || !strings.Contains(r.text[1], `tools:sub`) {
		t.Fatalf("agent step: %v %q", r.blocks, r.text[1])
	}
	r = post(t, s, map[string]any{"stream": true, "tools": someTools, "messages": []any{userMsg("tools:sub Look around.")}})
	if name, _ := r.blocks[1]["name"].(string); name != "Bash" {
		t.Fatalf("sub step: %v", r.blocks)
	}
}
