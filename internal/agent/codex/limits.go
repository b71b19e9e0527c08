package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Limits bound a Session: Codex has no flag for either (agents.md §C),
// so the Session counts and interrupts the turn itself. Zero is no limit.
type Limits struct {
	// MaxTurns bounds the model requests of one turn (the agent's steps
	// per user message, as Claude's --max-turns counts them): after the
	// last step allowed, its tools run, then the turn is interrupted and
	// ends as error_max_turns. Codex may have sent the next request by
	// the time the interrupt lands: it is cut off, or its reply shown if
	// it finished first (the result says the limit either way).
	MaxTurns int
	// MaxBudgetUSD bounds what the process may spend, at the model's list
	// price (usage.go): checked after each model request; the turn that
	// reaches it is interrupted and ends as error_max_budget_usd, and a
	// later message gets that result at once, with no request. A model
	// whose price is not known costs nothing here.
	MaxBudgetUSD float64
}

// Result subtypes of a turn a limit ended (Claude's words).
const (
	SubtypeMaxTurns  = "error_max_turns"
	SubtypeMaxBudget = "error_max_budget_usd"
)

// limiter follows one turn's steps and the process's spend. It lives in
// the Translator and is fed under its lock.
type limiter struct {
	Limits
	steps     int            // model requests of the running turn
	toolsStep int            // tool items since the step before the limit
	inFlight  map[string]int // tool items started and not completed
	prev      *tokens        // the thread's total at the last request
	spent     float64        // the process's spend
	hit       string         // the subtype the running turn ends with; "" none
}

// toolItem reports whether an item type is a tool the model called.
func toolItem(typ string) bool {
	switch typ {
	case "commandExecution", "fileChange", "mcpToolCall", "dynamicToolCall", "webSearch", "imageView", "collabAgentToolCall":
		return true
	}
	return false
}

// watch follows m for the limits, the thread running model; true when
// the running turn must be interrupted now (a limit was reached). Call it
// after the Translator's Feed.
func (l *limiter) watch(m Msg, model string) bool {
	if l.MaxTurns <= 0 && l.MaxBudgetUSD <= 0 {
		return false
	}
	switch m.Method {
	case "turn/started":
		l.steps, l.toolsStep, l.hit = 0, 0, ""
		l.inFlight = map[string]int{}
	case "item/started", "item/completed":
		return l.item(m)
	case "thread/tokenUsage/updated":
		return l.request(m.Params, model)
	}
	return false
}

// item counts the tools of the step at the turn limit: once they all ran,
// the turn stops before the model is asked again.
func (l *limiter) item(m Msg) bool {
	h := params[itemHead](params[itemParams](m.Params).Item)
	if l.hit != "" || l.MaxTurns <= 0 || l.inFlight == nil {
		return false
	}
	if m.Method == "item/started" {
		if toolItem(h.Type) {
			l.inFlight[h.ID]++
			l.toolsStep++
		}
		return false
	}
	if toolItem(h.Type) {
		delete(l.inFlight, h.ID)
	}
	return l.turnsDone()
}

// turnsDone reports (and marks) a turn at its step limit whose last
// step's tools all ran: the model would be asked again.
func (l *limiter) turnsDone() bool {
	if l.steps >= l.MaxTurns && l.toolsStep > 0 && len(l.inFlight) == 0 {
		l.hit = SubtypeMaxTurns
		return true
	}
	return false
}

// request counts a model request from the thread's token total, and its
// cost: a total that did not grow is the same request told again.
func (l *limiter) request(raw json.RawMessage, model string) bool {
	p := params[tokenUsageParams](raw)
	total := p.TokenUsage.Total
	d := p.TokenUsage.Last
	if l.prev != nil {
		d = total.minus(*l.prev)
	}
	l.prev = &total
	if d.Total == 0 && d.Input == 0 && d.Output == 0 {
		return false
	}
	if usd, ok := cost(model, d); ok {
		l.spent += usd
	}
	if l.hit != "" || l.inFlight == nil {
		return false
	}
	l.steps++
	if l.steps < l.MaxTurns {
		// The tools counted so far are this step's: the one at the
		// limit counts its own (started before or after its usage).
		l.toolsStep = 0
	}
	if l.MaxBudgetUSD > 0 && l.spent >= l.MaxBudgetUSD {
		l.hit = SubtypeMaxBudget
		return true
	}
	if l.MaxTurns > 0 && l.steps > l.MaxTurns {
		l.hit = SubtypeMaxTurns // the step after the last: stop at once
		return true
	}
	return l.MaxTurns > 0 && l.turnsDone()
}

// spentAll reports whether the process spent its budget.
func (l *limiter) spentAll() bool {
	return l.MaxBudgetUSD > 0 && l.spent >= l.MaxBudgetUSD
}

// limitText is what a result at limit subtype says (Claude's words).
func (l *limiter) limitText(subtype string) string {
	if subtype == SubtypeMaxBudget {
		return fmt.Sprintf("Reached maximum budget ($%g)", l.MaxBudgetUSD)
	}
	return fmt.Sprintf("Reached maximum number of turns (%d)", l.MaxTurns)
}

// budgetResult is the result of a message the process got after it spent
// its budget: no turn started.
func budgetResult(t *Translator) Out {
	return t.message("result", map[string]any{
		"subtype": SubtypeMaxBudget, "is_error": true, "duration_ms": 0, "num_turns": 0, "result": "",
		"stop_reason": nil, "errors": []string{t.lim.limitText(SubtypeMaxBudget)},
		"usage":                         map[string]any{"input_tokens": 0, "output_tokens": 0, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0},
		"model_usage_since_last_result": map[string]any{},
		"permission_denials":            []any{},
	})
}

// stopTurn interrupts turn, which reached a limit, without waiting: it
// runs on the pump, which must go on reading for the answer to come. The
// goroutine is the Session's; Close ends the CLI, which ends its call.
func (s *Session) stopTurn(thread, turn string) {
	if turn == "" {
		return
	}
	s.wg.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), limitStopTimeout)
		defer cancel()
		s.p.InterruptTurn(ctx, thread, turn) // a turn that ended meanwhile needs none
	})
}

// limitStopTimeout bounds the interrupt of a turn at a limit.
const limitStopTimeout = time.Minute

// emit passes o on as if Codex had said it (a result the Session makes).
func (s *Session) emit(ctx context.Context, o Out) error {
	select {
	case s.extra <- o:
		return nil
	case <-s.quit:
		return ErrExited
	case <-s.p.Done():
		return ErrExited
	case <-ctx.Done():
		return ctx.Err()
	}
}
