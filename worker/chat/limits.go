package chat

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

// The session's limits, MCP servers and tools, given to every agent the
// worker starts (docs/api-extensions.md, "Per-session limits and prompt",
// "MCP servers of a session", "Tools from the browser").

// startLimits are the next start's limits, tools and servers: the budget
// is what the conversation has left of it. A budget spent is errBudget.
func startLimits(p *prefs, env *worker.Env) (agent.Limits, agent.Tools, []agent.MCPServer, error) {
	l, servers := p.limitsNow()
	out := agent.Limits{AppendSystemPrompt: l.AppendSystemPrompt, MaxTurns: l.MaxTurns,
		DisallowedTools: l.DisallowedTools, AddDirs: l.AddDirs}
	if l.MaxBudgetUSD > 0 && env.SpentUSD != nil {
		spent, err := env.SpentUSD()
		if err != nil {
			return out, agent.Tools{}, nil, fmt.Errorf("read what the conversation cost: %w", err)
		}
		if spent >= l.MaxBudgetUSD {
			return out, agent.Tools{}, nil, &budgetError{budget: l.MaxBudgetUSD, spent: spent}
		}
		out.MaxBudgetUSD = l.MaxBudgetUSD - spent
	}
	var tools agent.Tools
	if env.Config.Tools != nil {
		tools = agent.Tools{Registry: env.Config.Tools, Scope: env.Session.ID}
	}
	var mcp []agent.MCPServer
	for _, srv := range servers {
		if srv.Enabled {
			mcp = append(mcp, agent.MCPServer{Name: srv.Name, Type: srv.Type, Command: srv.Command, Args: srv.Args,
				Env: srv.Env, URL: srv.URL, Headers: srv.Headers})
		}
	}
	return out, tools, mcp, nil
}

// budgetError is a conversation that spent its budget: no agent starts.
// A caller other than the sender (Capabilities) answers it as a conflict.
type budgetError struct{ budget, spent float64 }

func (e *budgetError) Unwrap() error { return worker.ErrConflict }

func (e *budgetError) Error() string {
	return fmt.Sprintf("This conversation has cost $%.4f of its $%.2f budget. Raise or remove the budget in the chat's limits to go on.", e.spent, e.budget)
}

// budgetResult is the result the chat stores for a message no agent got
// because the budget is spent: the same as an agent's own result at its
// budget, so the chat shows the limit and the turn ends.
type budgetResult struct {
	Type       string         `json:"type"`
	Subtype    string         `json:"subtype"`
	IsError    bool           `json:"is_error"`
	NumTurns   int            `json:"num_turns"`
	Errors     []string       `json:"errors"`
	ModelUsage map[string]any `json:"modelUsage"`
	UUID       string         `json:"uuid"`
	SessionID  string         `json:"session_id"`
}

// budgetEntry is the budget's result for the message just stored.
func budgetEntry(e *budgetError, conv string) entry {
	id := uuid.Must(uuid.NewV7()).String()
	msg := mustJSON(budgetResult{Type: "result", Subtype: "error_max_budget_usd", IsError: true,
		Errors: []string{e.Error()}, ModelUsage: map[string]any{}, UUID: id, SessionID: conv})
	return entry{kind: kStored, msg: msg, uuid: id, typ: "result"}
}
