package toolbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
)

// ProtocolVersion is the MCP version a Host's manifest states; it must be
// the agent's own for a cached handshake to be taken.
const ProtocolVersion = "2025-11-25"

// JSON-RPC error codes a Host answers.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcNoMethod       = -32601
	rpcInvalidParams  = -32602
)

// HostOptions configure a Host.
type HostOptions struct {
	Scope   string // the scope (session) whose tools the agent sees
	Name    string // the server's name, as the agent knows it
	Version string // the server's version in its initialize answer
	// ToolUseMeta is the key of tools/call's _meta that carries the
	// agent's tool-use id; "" when the agent sends none.
	ToolUseMeta string
	// Notify, when set, sends the agent a JSON-RPC notification (the tool
	// list changed). It is called from the Host's own goroutine.
	Notify func(msg []byte)
	// Started, when set, is told about each call once it is routed
	// (CallRequest.Started), with the agent's tool-use id.
	Started func(toolUseID, callID, provider string)
}

// Host is the server side of MCP for one agent process: the agent sends it
// JSON-RPC messages, it answers. initialize, tools/list, ping and
// notifications are answered at once, from memory, so that the agent's
// start never waits for a provider; tools/call goes to the Registry and is
// answered when the call ends. Safe for concurrent use.
type Host struct {
	r      *Registry
	o      HostOptions
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	inflight map[string]*inflight // tools/call by JSON-RPC id
	listed   string               // the tool list the agent last got
	told     string               // the tool list last announced as changed
}

// NewHost returns a Host serving r's tools of o.Scope. When o.Notify is
// set it watches the tool list and tells the agent when it changed.
// Close it when the agent is gone.
func NewHost(r *Registry, o HostOptions) *Host {
	ctx, cancel := context.WithCancel(context.Background())
	h := &Host{r: r, o: o, ctx: ctx, cancel: cancel, inflight: map[string]*inflight{}}
	if o.Notify != nil {
		w := r.Watch(o.Scope)
		h.wg.Go(func() {
			defer w.Close()
			h.watch(w)
		})
	}
	return h
}

// Close cancels the calls in flight (their providers are told) and waits
// for the Host's goroutines. Calls it cancels get no answer.
func (h *Host) Close() {
	h.mu.Lock()
	h.cancel() // under mu: no call starts after it
	h.mu.Unlock()
	h.wg.Wait()
}

// rpcMessage is any JSON-RPC message the agent sends.
type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Handle answers one JSON-RPC message from the agent by calling reply with
// the answer: at once, or for tools/call when the call ends. A
// notification is answered with an empty result, which is what an agent
// that wraps MCP in its own requests waits for. A call the agent cancels
// is never answered. reply is called at most once, from any goroutine.
func (h *Host) Handle(msg []byte, reply func([]byte)) {
	var m rpcMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		reply(rpcError(json.RawMessage("null"), rpcParseError, "not a JSON-RPC message"))
		return
	}
	if len(m.ID) == 0 || string(m.ID) == "null" {
		h.notification(m)
		reply(rpcResult(nil, struct{}{}))
		return
	}
	switch m.Method {
	case "initialize":
		reply(rpcResult(m.ID, h.initializeResult(clientVersion(m.Params))))
	case "ping":
		reply(rpcResult(m.ID, struct{}{}))
	case "tools/list":
		reply(rpcResult(m.ID, h.list()))
	case "tools/call":
		h.call(m, reply)
	case "":
		reply(rpcError(m.ID, rpcInvalidRequest, "a request needs a method"))
	default:
		reply(rpcError(m.ID, rpcNoMethod, "method not found: "+m.Method))
	}
}

// notification acts on a notification: a cancelled call is cancelled;
// the others need nothing.
func (h *Host) notification(m rpcMessage) {
	if m.Method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return
	}
	h.mu.Lock()
	c := h.inflight[idKey(p.RequestID)]
	h.mu.Unlock()
	if c != nil {
		c.cancel()
	}
}

type initializeResult struct {
	ProtocolVersion string `json:"protocolVersion"`
	Capabilities    struct {
		Tools struct {
			ListChanged bool `json:"listChanged"`
		} `json:"tools"`
	} `json:"capabilities"`
	ServerInfo struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo"`
}

func (h *Host) initializeResult(version string) initializeResult {
	var r initializeResult
	r.ProtocolVersion = version
	r.Capabilities.Tools.ListChanged = true
	r.ServerInfo.Name, r.ServerInfo.Version = h.o.Name, h.o.Version
	return r
}

// clientVersion is the protocol version the agent asked for: answering
// the same one is what the agent accepts.
func clientVersion(params json.RawMessage) string {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(params, &p) == nil && p.ProtocolVersion != "" {
		return p.ProtocolVersion
	}
	return ProtocolVersion
}

type toolsList struct {
	Tools []Tool `json:"tools"`
}

// list is the tools/list answer, remembered as what the agent knows.
func (h *Host) list() toolsList {
	l := h.current()
	b := mustJSON(l)
	h.mu.Lock()
	h.listed = string(b)
	h.mu.Unlock()
	return l
}

func (h *Host) current() toolsList {
	listed := h.r.Tools(h.o.Scope)
	out := toolsList{Tools: make([]Tool, len(listed))}
	for i, l := range listed {
		out.Tools[i] = l.Tool
	}
	return out
}

// idKey is a JSON-RPC id as a map key: the same id however it was
// spaced.
func idKey(id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}

// Manifest is a cached handshake: what initialize and tools/list answer
// now, for an agent that takes them at start instead of asking.
type Manifest struct {
	InitializeResult json.RawMessage `json:"initializeResult"`
	ToolsListResult  json.RawMessage `json:"toolsListResult"`
}

// Manifest returns the handshake's answers; the tool list counts as
// listed.
func (h *Host) Manifest() Manifest {
	return Manifest{
		InitializeResult: mustJSON(h.initializeResult(ProtocolVersion)),
		ToolsListResult:  mustJSON(h.list()),
	}
}

// watch tells the agent when the tools it sees are no longer the ones it
// was last given.
func (h *Host) watch(w *Watch) {
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-w.Changed():
			now := string(mustJSON(h.current()))
			h.mu.Lock()
			changed := now != h.listed && now != h.told
			if changed {
				h.told = now
			}
			h.mu.Unlock()
			if changed {
				h.o.Notify(ListChanged())
			}
		}
	}
}

// ListChanged is the notification that the tool list changed.
func ListChanged() []byte {
	return []byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
}

func rpcResult(id json.RawMessage, result any) []byte {
	if id == nil {
		return mustJSON(struct {
			JSONRPC string `json:"jsonrpc"`
			Result  any    `json:"result"`
		}{"2.0", result})
	}
	return mustJSON(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
}

func rpcError(id json.RawMessage, code int, msg string) []byte {
	type rpcErr struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	return mustJSON(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcErr          `json:"error"`
	}{"2.0", id, rpcErr{code, msg}})
}
