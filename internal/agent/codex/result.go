package codex

import (
	"encoding/json"
	"strings"
)

// denials is the result's list of the calls the person declined.
func denials(d []any) []any {
	if d == nil {
		return []any{}
	}
	return d
}

func (t *Translator) turnCompleted(raw json.RawMessage) []Out {
	turn := params[turnParams](raw).Turn
	out := t.flushStreams()
	out = append(out, t.withdrawAll()...)
	out = append(out, t.result(turn))
	t.turn = ""
	clear(t.calls)
	return out
}

// result is the message that ends a turn, in the shape of Claude's result
// line where the chat reads it: subtype and is_error, duration, the text,
// usage (input without the cached tokens, which are cache reads) and the
// turn's own figures per model with the cost when the price is known
// (model_usage_since_last_result; a turn of a model without a known price
// has no costUSD).
func (t *Translator) result(turn Turn) Out {
	subtype, isError, text := "success", false, t.lastText
	switch turn.Status {
	case "interrupted":
		subtype = "error_during_execution"
	case "failed":
		subtype, isError = "error", true
		if turn.Error != nil {
			text = strings.TrimSpace(turn.Error.Message + " " + turn.Error.AdditionalDetails)
		}
	}
	if t.lim.hit != "" {
		// Interrupted at a limit, or done before the interrupt landed:
		// the limit was reached either way.
		subtype, isError = t.lim.hit, true
	}
	dur := t.now().Sub(t.turnFrom).Milliseconds()
	if turn.DurationMs != nil {
		dur = *turn.DurationMs
	}
	tk := t.usage.turn()
	fresh := max(tk.Input-tk.Cached, 0)
	figures := map[string]any{"inputTokens": fresh, "outputTokens": tk.Output,
		"cacheReadInputTokens": tk.Cached, "cacheCreationInputTokens": 0}
	if usd, ok := cost(t.model, tk); ok {
		figures["costUSD"] = usd
	}
	fields := map[string]any{
		"subtype": subtype, "is_error": isError, "duration_ms": dur, "num_turns": max(t.lim.steps, 1), "result": text,
		"stop_reason": nil, "turn_id": turn.ID,
		"usage": map[string]any{"input_tokens": fresh, "output_tokens": tk.Output,
			"cache_read_input_tokens": tk.Cached, "cache_creation_input_tokens": 0,
			"reasoning_output_tokens": tk.Reasoning},
		"model_usage_since_last_result": map[string]any{t.model: figures},
		"permission_denials":            denials(t.denied),
	}
	if t.lim.hit != "" {
		fields["errors"] = []string{t.lim.limitText(t.lim.hit)}
	}
	t.lim.hit = ""
	return t.message("result", fields)
}
