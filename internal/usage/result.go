package usage

import (
	"encoding/json"
	"fmt"
	"math"
)

// Totals are the figures of one turn, or a sum of turns. Tokens are as
// the CLI counts them per model; CostUSD is the CLI's list-price figure.
type Totals struct {
	CostUSD             float64 `json:"costUsd"`
	InputTokens         int64   `json:"inputTokens"`
	OutputTokens        int64   `json:"outputTokens"`
	CacheReadTokens     int64   `json:"cacheReadTokens"`
	CacheCreationTokens int64   `json:"cacheCreationTokens"`
	Turns               int64   `json:"turns"`
}

// Add adds o to t.
func (t *Totals) Add(o Totals) {
	t.CostUSD += o.CostUSD
	t.InputTokens += o.InputTokens
	t.OutputTokens += o.OutputTokens
	t.CacheReadTokens += o.CacheReadTokens
	t.CacheCreationTokens += o.CacheCreationTokens
	t.Turns += o.Turns
}

// Record is the usage of one stored result line: one turn, with what
// each model it used cost in that turn alone.
type Record struct {
	Session string            `json:"session"`
	Worker  string            `json:"worker"`
	Day     string            `json:"day"` // YYYY-MM-DD, UTC
	Models  map[string]Totals `json:"models"`
}

// modelFigures is one model's entry in modelUsage (camelCase, as the CLI
// writes it).
type modelFigures struct {
	InputTokens              int64   `json:"inputTokens"`
	OutputTokens             int64   `json:"outputTokens"`
	CacheReadInputTokens     int64   `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64   `json:"cacheCreationInputTokens"`
	CostUSD                  float64 `json:"costUSD"`
}

type resultLine struct {
	Type        string                  `json:"type"`
	ResultIndex *int                    `json:"result_index"`
	ModelUsage  map[string]modelFigures `json:"modelUsage"`
	SinceLast   map[string]modelFigures `json:"model_usage_since_last_result"`
}

// Process follows the results of one CLI process. The CLI's modelUsage
// (and total_cost_usd) add up over all the turns of a process, so a
// result's own figures are model_usage_since_last_result when present,
// else the difference from the process's previous result. A new process
// (result_index 0, or a one-shot result without one) starts from zero:
// a --resume does not carry the old process's sums over. The zero value
// is ready; it is not safe for concurrent use.
type Process struct {
	prev map[string]modelFigures
}

// ErrNotResult is returned by Turn for a line that is not a result.
var ErrNotResult = fmt.Errorf("not a result line")

// Turn returns the per-model figures of the turn a result line ends, each
// with Turns 1. It fails with ErrNotResult for other lines and with a
// decode error for a malformed one; p is left as it was then.
func (p *Process) Turn(line []byte) (map[string]Totals, error) {
	var r resultLine
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, fmt.Errorf("decode result: %w", err)
	}
	if r.Type != "result" {
		return nil, ErrNotResult
	}
	first := r.ResultIndex == nil || *r.ResultIndex == 0
	figures := r.SinceLast
	if figures == nil {
		figures = r.ModelUsage
		if !first {
			figures = minus(r.ModelUsage, p.prev)
		}
	}
	p.prev = r.ModelUsage
	out := make(map[string]Totals, len(figures))
	for model, f := range figures {
		// A line is untrusted input: a negative figure counts as none.
		out[model] = Totals{CostUSD: math.Max(f.CostUSD, 0), InputTokens: max(f.InputTokens, 0),
			OutputTokens: max(f.OutputTokens, 0), CacheReadTokens: max(f.CacheReadInputTokens, 0),
			CacheCreationTokens: max(f.CacheCreationInputTokens, 0), Turns: 1}
	}
	return out, nil
}

// minus is cur−prev per model; a figure that went down (a process we did
// not see start) counts from zero rather than below it.
func minus(cur, prev map[string]modelFigures) map[string]modelFigures {
	out := make(map[string]modelFigures, len(cur))
	for m, c := range cur {
		p := prev[m]
		out[m] = modelFigures{
			InputTokens:              max(c.InputTokens-p.InputTokens, 0),
			OutputTokens:             max(c.OutputTokens-p.OutputTokens, 0),
			CacheReadInputTokens:     max(c.CacheReadInputTokens-p.CacheReadInputTokens, 0),
			CacheCreationInputTokens: max(c.CacheCreationInputTokens-p.CacheCreationInputTokens, 0),
			CostUSD:                  math.Max(c.CostUSD-p.CostUSD, 0),
		}
	}
	return out
}
