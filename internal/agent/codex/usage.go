package codex

import (
	"encoding/json"
	"math"
)

// tokens are Codex's token counts (TokenUsageBreakdown). Input counts the
// cached tokens too, as OpenAI counts them.
type tokens struct {
	Input     int64 `json:"inputTokens"`
	Cached    int64 `json:"cachedInputTokens"`
	Output    int64 `json:"outputTokens"`
	Reasoning int64 `json:"reasoningOutputTokens"`
	Total     int64 `json:"totalTokens"`
}

func (a tokens) minus(b tokens) tokens {
	return tokens{Input: max(a.Input-b.Input, 0), Cached: max(a.Cached-b.Cached, 0),
		Output: max(a.Output-b.Output, 0), Reasoning: max(a.Reasoning-b.Reasoning, 0),
		Total: max(a.Total-b.Total, 0)}
}

// usageCounter follows thread/tokenUsage/updated, which gives the thread's
// running total (and the last request's figures). A turn's tokens are the
// total's growth over the turn: Codex sends the same total again at times
// (when a steer cuts a request short), so summing the last requests
// would count one twice.
type usageCounter struct {
	base   *tokens // the total when the turn started; nil: not known yet
	latest *tokens // the last total seen
}

func (u *usageCounter) turnStarted() { u.base = u.latest }

// tokenUsageParams are thread/tokenUsage/updated's: the thread's running
// total and the last request's figures.
type tokenUsageParams struct {
	TokenUsage struct {
		Total tokens `json:"total"`
		Last  tokens `json:"last"`
	} `json:"tokenUsage"`
}

func (u *usageCounter) update(raw json.RawMessage) {
	p := params[tokenUsageParams](raw)
	total := p.TokenUsage.Total
	if u.base == nil {
		// The first figures this process saw (a resumed thread's total
		// holds its earlier turns): the turn's share is the last request.
		b := total.minus(p.TokenUsage.Last)
		u.base = &b
	}
	u.latest = &total
}

// turn is the tokens of the turn so far.
func (u *usageCounter) turn() tokens {
	if u.latest == nil || u.base == nil {
		return tokens{}
	}
	return u.latest.minus(*u.base)
}

// price is a model's list price in USD per million tokens.
type price struct{ input, cached, output float64 }

// prices are OpenAI's list prices for the models whose price is known
// here: developers.openai.com/api/docs/pricing as third parties reported
// it in 2026. A model not listed (most of what Codex 0.171.0 offers, and
// any model of a custom provider) gets no cost: "unknown", not zero.
var prices = map[string]price{
	"gpt-5.5":      {5.00, 0.50, 30.00},
	"gpt-5.4":      {2.50, 0.25, 15.00},
	"gpt-5.4-mini": {0.75, 0.075, 4.50},
	"gpt-5.4-nano": {0.20, 0.02, 1.25},
	"gpt-5.2":      {1.75, 0.175, 14.00},
	"gpt-5":        {1.25, 0.125, 10.00},
	"gpt-5-mini":   {0.25, 0.025, 2.00},
}

// cost is what tk cost with model, and whether the price is known.
func cost(model string, tk tokens) (float64, bool) {
	p, ok := prices[model]
	if !ok {
		return 0, false
	}
	fresh := float64(max(tk.Input-tk.Cached, 0))
	usd := (fresh*p.input + float64(tk.Cached)*p.cached + float64(tk.Output)*p.output) / 1e6
	return math.Round(usd*1e8) / 1e8, true
}
