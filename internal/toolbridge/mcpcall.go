package toolbridge

import (
	"context"
	"encoding/json"
)

type callParams struct {
	Name      string                     `json:"name"`
	Arguments json.RawMessage            `json:"arguments"`
	Meta      map[string]json.RawMessage `json:"_meta"`
}

// call runs a tools/call in its own goroutine and answers when it ends.
func (h *Host) call(m rpcMessage, reply func([]byte)) {
	var p callParams
	if err := json.Unmarshal(m.Params, &p); err != nil || p.Name == "" {
		reply(rpcError(m.ID, rpcInvalidParams, "tools/call needs params.name"))
		return
	}
	var toolUseID string
	if raw, ok := p.Meta[h.o.ToolUseMeta]; ok && h.o.ToolUseMeta != "" {
		_ = json.Unmarshal(raw, &toolUseID)
	}
	key := idKey(m.ID)
	ctx, cancel := context.WithCancel(h.ctx)
	mine := &inflight{cancel: cancel}
	h.mu.Lock()
	if h.ctx.Err() != nil {
		h.mu.Unlock()
		cancel()
		return // closed: the agent is gone
	}
	if prev := h.inflight[key]; prev != nil {
		prev.cancel() // the agent reused an id: the older call is abandoned
	}
	h.inflight[key] = mine
	h.wg.Add(1)
	h.mu.Unlock()
	req := CallRequest{Scope: h.o.Scope, Tool: p.Name, Input: p.Arguments, ToolUseID: toolUseID}
	if h.o.Started != nil {
		req.Started = func(callID, provider string) { h.o.Started(toolUseID, callID, provider) }
	}
	go func() {
		defer h.wg.Done()
		defer cancel()
		res := h.r.Call(ctx, req)
		h.mu.Lock()
		if h.inflight[key] == mine {
			delete(h.inflight, key)
		}
		h.mu.Unlock()
		if ctx.Err() != nil {
			return // cancelled by the agent, or the agent is gone: no answer
		}
		reply(rpcResult(m.ID, mcpResult(res)))
	}()
}

// inflight is a tools/call in flight.
type inflight struct{ cancel context.CancelFunc }

// mcpContent is one item of an MCP tool result.
type mcpContent struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
}

type mcpCallResult struct {
	Content []mcpContent `json:"content"`
	IsError bool         `json:"isError,omitempty"`
}

// mcpResult is a Result as MCP says it: JSON content, which MCP has no
// type for, goes as text holding the JSON.
func mcpResult(r Result) mcpCallResult {
	out := mcpCallResult{Content: make([]mcpContent, 0, len(r.Content)), IsError: r.IsError}
	for _, c := range r.Content {
		switch c.Type {
		case "image":
			out.Content = append(out.Content, mcpContent{Type: "image", Data: c.Data, MimeType: c.MimeType})
		case "json":
			out.Content = append(out.Content, mcpContent{Type: "text", Text: string(c.JSON)})
		default:
			out.Content = append(out.Content, mcpContent{Type: "text", Text: c.Text})
		}
	}
	return out
}
