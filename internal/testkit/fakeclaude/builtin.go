package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// The built-in turn: the shapes of claude-cli.md §4, cut to the fields
// consumers read.

func (f *fake) initLine() map[string]any {
	return map[string]any{
		"type": "system", "subtype": "init", "cwd": f.cwd, "session_id": f.sessionID,
		"tools": []string{"Bash", "Edit", "Read", "Write", "AskUserQuestion"}, "mcp_servers": []any{},
		"model": "claude-opus-5-5", "permissionMode": "default", "apiKeySource": "ANTHROPIC_API_KEY",
		"claude_code_version": "2.1.330-fakeclaude", "uuid": uuid.NewString(),
	}
}

func (f *fake) assistantLine(msgID, text string) map[string]any {
	return map[string]any{
		"type": "assistant",
		"message": map[string]any{
			"id": msgID, "type": "message", "role": "assistant", "model": "claude-opus-5-5",
			"content":     []any{map[string]string{"type": "text", "text": text}},
			"stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]int{"input_tokens": 10, "output_tokens": 1},
		},
		"parent_tool_use_id": nil, "session_id": f.sessionID, "uuid": uuid.NewString(),
	}
}

func (f *fake) resultLine(text string, turn int) map[string]any {
	return map[string]any{
		"type": "result", "subtype": "success", "is_error": false, "result": text,
		"stop_reason": "end_turn", "num_turns": 1, "session_id": f.sessionID,
		"duration_ms": 1, "duration_api_ms": 1, "total_cost_usd": 0.001,
		"usage":              map[string]int{"input_tokens": 10, "output_tokens": 5},
		"permission_denials": []any{}, "terminal_reason": "completed", "result_index": turn,
		"uuid": uuid.NewString(),
	}
}

func (f *fake) builtinTurn(prompt string) {
	text := "Echo: " + prompt
	f.emitJSON(f.initLine())
	f.emitJSON(f.assistantLine(fmt.Sprintf("msg_fake_%04d", f.next), text))
	f.emitJSON(f.resultLine(text, f.next))
	f.next++
	f.lastError = false
}

// floodTurn writes n assistant lines. Without a rate it writes them as fast
// as it can, without flushing each one, to measure the reader rather than
// this program. With a rate it writes them in 1 ms bursts, flushed, and
// stamps each line's text with the wall-clock time it was written
// ("flood line <unix ns>"), so a client on the same machine can measure the
// latency from CLI stdout to its screen.
func (f *fake) floodTurn() {
	f.emitJSON(f.initLine())
	head := `{"type":"assistant","message":{"id":"msg_flood","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"flood line`
	mid := fmt.Sprintf(`"}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}},"parent_tool_use_id":null,"session_id":%q,"uuid":"`, f.sessionID)
	run := uuid.New()
	perMs := f.floodRate / 1000
	next := time.Now()
	var b []byte
	for i := range f.flood {
		if perMs > 0 && i%perMs == 0 && i > 0 {
			f.out.Flush()
			next = next.Add(time.Millisecond)
			time.Sleep(time.Until(next))
		}
		b = append(b[:0], head...)
		if perMs > 0 {
			b = append(b, ' ')
			b = strconv.AppendInt(b, time.Now().UnixNano(), 10)
		}
		b = append(b, mid...)
		b = fmt.Appendf(b, "%x-%x-%x-%x-", run[0:4], run[4:6], run[6:8], run[8:10])
		b = append(b, fmt.Sprintf("%012s", strconv.FormatInt(int64(i), 16))...)
		b = append(b, "\"}\n"...)
		f.out.Write(b)
	}
	f.emitJSON(f.resultLine("flood done", f.next))
	f.next++
	f.lastError = false
}
