package codex

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// bridge serves the tool bridge's tools (internal/toolbridge) to Codex as
// dynamic tools (agents.md §C): declared in thread/start, called with
// item/tool/call, answered with a DynamicToolCallResponse. Each call runs
// in a goroutine of its own, which the bridge owns: stop cancels and
// waits for them. Its methods are safe for concurrent use; a nil bridge
// does nothing.
type bridge struct {
	reg   *toolbridge.Registry
	scope string
	base  context.Context
	end   context.CancelFunc
	wg    sync.WaitGroup

	mu      sync.Mutex
	stopped bool
	calls   map[string]context.CancelFunc // by Codex's call id
}

func newBridge(reg *toolbridge.Registry, scope string) *bridge {
	base, end := context.WithCancel(context.Background())
	return &bridge{reg: reg, scope: scope, base: base, end: end, calls: map[string]context.CancelFunc{}}
}

// declare is the thread's dynamicTools: the tools the scope sees now.
// Codex takes them once, at thread/start: a tool registered later is not
// seen before the next start.
func (b *bridge) declare() []DynamicTool {
	if b == nil {
		return nil
	}
	listed := b.reg.Tools(b.scope)
	out := make([]DynamicTool, len(listed))
	for i, t := range listed {
		out[i] = DynamicTool{Type: "function", Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
	}
	return out
}

// provider is who answers a call of tool now, "" for none.
func (b *bridge) provider(tool string) string { return b.reg.Provider(b.scope, tool) }

// toolCall is DynamicToolCallParams.
type toolCall struct {
	CallID    string          `json:"callId"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// call routes Codex's request m to the registry and answers it with
// reply once the provider did (or the call failed, timed out or was
// cancelled). It never blocks on the provider.
func (b *bridge) call(m Msg, reply func(Reply)) {
	c := params[toolCall](m.Params)
	b.mu.Lock()
	if b.stopped {
		b.mu.Unlock()
		reply(Reply{ID: m.ID, Result: response(toolbridge.ErrorResult("agentdesk is closing this chat."))})
		return
	}
	ctx, cancel := context.WithCancel(b.base)
	key := c.CallID + "\x00" + string(m.ID) // a call id Codex repeats keeps both calls
	b.calls[key] = cancel
	b.wg.Add(1)
	b.mu.Unlock()
	go func() {
		defer b.wg.Done()
		defer b.forget(key)
		res := b.reg.Call(ctx, toolbridge.CallRequest{Scope: b.scope, Tool: c.Tool, Input: c.Arguments, ToolUseID: c.CallID})
		reply(Reply{ID: m.ID, Result: response(res)})
	}()
}

func (b *bridge) forget(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if cancel, ok := b.calls[key]; ok {
		cancel()
		delete(b.calls, key)
	}
}

// cancel cancels the calls in flight (the turn was interrupted or ended):
// their providers are told, and Codex gets an error result.
func (b *bridge) cancel() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, cancel := range b.calls {
		cancel()
	}
}

// stop cancels every call and waits for their goroutines; later calls are
// answered with an error at once.
func (b *bridge) stop() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.stopped = true
	b.mu.Unlock()
	b.end()
	b.wg.Wait()
}

// contentItem is a DynamicToolCallOutputContentItem.
type contentItem struct {
	Type     string `json:"type"` // inputText, inputImage
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"imageUrl,omitempty"`
}

// response is a provider's result as a DynamicToolCallResponse: texts as
// inputText, images as inputImage data: URLs, JSON values as their text.
func response(r toolbridge.Result) map[string]any {
	items := make([]contentItem, 0, len(r.Content))
	for _, c := range r.Content {
		switch c.Type {
		case "image":
			items = append(items, contentItem{Type: "inputImage", ImageURL: "data:" + c.MimeType + ";base64," + c.Data})
		case "json":
			items = append(items, contentItem{Type: "inputText", Text: string(c.JSON)})
		default:
			items = append(items, contentItem{Type: "inputText", Text: c.Text})
		}
	}
	return map[string]any{"success": !r.IsError, "contentItems": items}
}
