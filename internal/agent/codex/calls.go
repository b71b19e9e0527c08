package codex

import (
	"context"
	"encoding/json"
	"fmt"
)

// The typed calls of app-server this package makes (schema v2 of the
// pinned CLI; testdata/schema keeps the parts relied on).

// Initialize is the handshake: initialize, then the initialized
// notification. Nothing else may be called before it. experimental opts
// into the experimental API (dynamic tools need it, agents.md §C).
func (p *Process) Initialize(ctx context.Context, name, version string, experimental bool) error {
	params := map[string]any{"clientInfo": map[string]string{"name": name, "version": version}}
	if experimental {
		params["capabilities"] = map[string]any{"experimentalApi": true}
	}
	if err := p.Call(ctx, "initialize", params, nil); err != nil {
		return err
	}
	return p.Notify("initialized", nil)
}

// ThreadParams start or resume a thread; "" leaves a setting to Codex
// (the user's config.toml, else its default).
type ThreadParams struct {
	Cwd            string `json:"cwd,omitempty"`
	Model          string `json:"model,omitempty"`
	ApprovalPolicy string `json:"approvalPolicy,omitempty"`
	Sandbox        string `json:"sandbox,omitempty"`
	// DynamicTools are the client's tools the model may call (thread/start
	// only: thread/resume takes none in the pinned CLI).
	DynamicTools []DynamicTool `json:"dynamicTools,omitempty"`
	// DeveloperInstructions are added to the model's instructions as a
	// developer message (the session's addition to the system prompt).
	DeveloperInstructions string `json:"developerInstructions,omitempty"`
	// Config are config.toml settings for this thread only, by key (the
	// session's MCP servers, writable roots): they travel over the pipe,
	// never on the command line.
	Config map[string]any `json:"config,omitempty"`
}

// DynamicTool is a function tool the client serves (DynamicToolSpec).
type DynamicTool struct {
	Type        string          `json:"type"` // function
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// Thread is what thread/start and thread/resume answer: the thread and the
// settings in force.
type Thread struct {
	Thread struct {
		ID    string `json:"id"`
		Turns []Turn `json:"turns"`
	} `json:"thread"`
	Model         string `json:"model"`
	ModelProvider string `json:"modelProvider"`
	Cwd           string `json:"cwd"`
	// ApprovalPolicy is a policy's name, or an object for a granular
	// policy (then "").
	ApprovalPolicy json.RawMessage `json:"approvalPolicy"`
}

// Policy is the approval policy's name ("" for a granular one).
func (t Thread) Policy() string {
	var s string
	json.Unmarshal(t.ApprovalPolicy, &s)
	return s
}

// Turn is a turn as thread/resume lists it and turn/* notifications carry.
type Turn struct {
	ID         string            `json:"id"`
	Status     string            `json:"status"` // completed, interrupted, failed, inProgress
	Items      []json.RawMessage `json:"items"`
	Error      *TurnError        `json:"error"`
	DurationMs *int64            `json:"durationMs"`
}

// TurnError is why a turn failed.
type TurnError struct {
	Message           string `json:"message"`
	AdditionalDetails string `json:"additionalDetails"`
}

// StartThread starts a new thread.
func (p *Process) StartThread(ctx context.Context, tp ThreadParams) (Thread, error) {
	var t Thread
	err := p.Call(ctx, "thread/start", tp, &t)
	return t, err
}

// ResumeThread loads thread id from Codex's own record (its rollout file
// under CODEX_HOME) and makes it the running one. A thread Codex has no
// record of is an *RPCError ("no rollout found for thread id …").
func (p *Process) ResumeThread(ctx context.Context, id string, tp ThreadParams) (Thread, error) {
	params := struct {
		ThreadID string `json:"threadId"`
		ThreadParams
	}{id, tp}
	params.DynamicTools = nil
	var t Thread
	err := p.Call(ctx, "thread/resume", params, &t)
	return t, err
}

// Input is one item of a user message: {"type":"text","text"} or
// {"type":"image","url"} (a data: URL).
type Input struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	URL  string `json:"url,omitempty"`
}

// TurnParams start a turn. Model and ApprovalPolicy, when set, hold for
// this turn and the later ones.
type TurnParams struct {
	ThreadID string  `json:"threadId"`
	Input    []Input `json:"input"`
	// ClientID is the id Codex gives back in the turn's userMessage item
	// (clientId): the engine's uuid of the message.
	ClientID       string `json:"clientUserMessageId,omitempty"`
	Model          string `json:"model,omitempty"`
	ApprovalPolicy string `json:"approvalPolicy,omitempty"`
}

// StartTurn starts a turn and returns its id.
func (p *Process) StartTurn(ctx context.Context, tp TurnParams) (string, error) {
	var r struct {
		Turn Turn `json:"turn"`
	}
	if err := p.Call(ctx, "turn/start", tp, &r); err != nil {
		return "", err
	}
	return r.Turn.ID, nil
}

// SteerTurn adds input to the running turn turnID (Codex takes it at its
// next request to the model). A turn that is not the running one any more
// is an *RPCError.
func (p *Process) SteerTurn(ctx context.Context, threadID, turnID, clientID string, in []Input) error {
	params := map[string]any{"threadId": threadID, "expectedTurnId": turnID, "input": in}
	if clientID != "" {
		params["clientUserMessageId"] = clientID
	}
	return p.Call(ctx, "turn/steer", params, nil)
}

// InterruptTurn asks the running turn turnID to stop; turn/completed
// (status "interrupted") follows.
func (p *Process) InterruptTurn(ctx context.Context, threadID, turnID string) error {
	return p.Call(ctx, "turn/interrupt", map[string]string{"threadId": threadID, "turnId": turnID}, nil)
}

// ModelInfo is one model of model/list.
type ModelInfo struct {
	ID          string `json:"id"`
	Model       string `json:"model"`
	DisplayName string `json:"displayName"`
	Description string `json:"description"`
	Hidden      bool   `json:"hidden"`
	IsDefault   bool   `json:"isDefault"`
}

// maxModelPages bounds model/list's pagination.
const maxModelPages = 20

// Models lists the models Codex offers (hidden ones left out).
func (p *Process) Models(ctx context.Context) ([]ModelInfo, error) {
	var out []ModelInfo
	cursor := ""
	for range maxModelPages {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var r struct {
			Data       []ModelInfo `json:"data"`
			NextCursor *string     `json:"nextCursor"`
		}
		if err := p.Call(ctx, "model/list", params, &r); err != nil {
			return nil, fmt.Errorf("list codex models: %w", err)
		}
		for _, m := range r.Data {
			if !m.Hidden {
				out = append(out, m)
			}
		}
		if r.NextCursor == nil || *r.NextCursor == "" {
			return out, nil
		}
		cursor = *r.NextCursor
	}
	return out, nil
}
