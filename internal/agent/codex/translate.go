package codex

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/google/uuid"
)

// OutKind says what an Out is; the kinds match the chat engine's events.
type OutKind uint8

const (
	// OutMessage is a complete message, to be stored, then shown.
	OutMessage OutKind = iota + 1
	// OutDelta is a stream_event: shown at once, never stored.
	OutDelta
	// OutRequest is Codex asking the person (Request).
	OutRequest
	// OutWithdrawn is Codex dropping its request RequestID (the turn it
	// belonged to ended).
	OutWithdrawn
)

// Out is one thing the Translator makes of what Codex said.
type Out struct {
	Kind        OutKind
	Type, UUID  string // a message's API type and uuid
	Raw         []byte // the message (OutMessage, OutDelta), API.md's format
	EndsMessage bool   // the OutDelta that ends the streamed message
	// Retrying marks an OutMessage that says Codex retries a model request
	// it could not make: no sign of progress (it retries an unreachable
	// API for ever).
	Retrying bool
	// InForce is what an OutMessage says Codex runs with now (the turn's
	// init message); "" says nothing.
	InForce Settings
	Request *Request
	// RequestID is what an OutWithdrawn withdraws.
	RequestID string
}

// Settings are a model and an approval policy ("" when not said).
type Settings struct{ Model, Policy string }

// Translator turns what app-server says (its notifications and requests)
// into the chat's messages and requests. It keeps the state that needs:
// the running turn, the items being streamed, the token counts, the open
// approvals. It is not safe for concurrent use: one goroutine feeds it.
type Translator struct {
	newID func() string
	now   func() time.Time

	thread   string
	model    string
	cwd      string
	policy   string
	turn     string    // the running turn, "" when idle
	turnFrom time.Time // when it started, for a duration Codex does not give
	lastText string    // the turn's last agent message, the result's text
	denied   []any     // the turn's declined calls, for the result

	streams map[string]*stream   // items being streamed, by item id
	opened  []string             // their ids, oldest first
	files   map[string][]change  // fileChange items seen started, by item id
	asks    map[string]*approval // open approvals, by request id
	byRPC   map[string]string    // request id by the JSON-RPC id Codex gave it
	calls   map[string]string    // tool calls shown and not answered yet: their names, by id
	usage   usageCounter
	lim     limiter // the turn and budget limits (limits.go)
	allowed []Rule
	// bridged names dynamic tools without a namespace as the chat names
	// the tool bridge's tools, mcp__agentdesk__<tool> (BridgeNames).
	bridged bool
	// who names the provider of a bridge's tool for its permission
	// request (toolask.go); nil without a bridge.
	who func(tool string) string
}

// BridgePrefix is how the chat names the tool bridge's tools (Claude's
// name for them): a Session with a bridge shows its dynamic tool calls
// so, and the chat's tool card names their provider.
const BridgePrefix = "mcp__agentdesk__"

// BridgeNames makes dynamic tool calls without a namespace show as the
// tool bridge's (BridgePrefix): the Session declared them from it. A
// call then asks the person first (toolask.go); who names the provider
// that would answer it.
func (t *Translator) BridgeNames(who func(tool string) string) { t.bridged, t.who = true, who }

// NewTranslator returns a Translator for thread, which runs with the
// settings Codex answered thread/start or thread/resume with.
func NewTranslator(t Thread) *Translator {
	return &Translator{
		newID:  func() string { return uuid.Must(uuid.NewV7()).String() },
		now:    time.Now,
		thread: t.Thread.ID, model: t.Model, cwd: t.Cwd, policy: t.Policy(),
		streams: map[string]*stream{}, files: map[string][]change{},
		asks: map[string]*approval{}, byRPC: map[string]string{}, calls: map[string]string{},
	}
}

// Thread is the thread's id.
func (t *Translator) Thread() string { return t.thread }

// Turn is the running turn's id, "" when none runs.
func (t *Translator) Turn() string { return t.turn }

// InForce is what the thread runs with now.
func (t *Translator) InForce() Settings { return Settings{Model: t.model, Policy: t.policy} }

// Changed records settings a turn/start will carry ("" values change
// nothing): the messages after it say them.
func (t *Translator) Changed(s Settings) {
	if s.Model != "" {
		t.model = s.Model
	}
	if s.Policy != "" {
		t.policy = s.Policy
	}
}

// Feed translates one message from Codex. Requests Codex needs answered
// at once (nothing a person can answer) come back in reply, with what to
// answer.
func (t *Translator) Feed(m Msg) (out []Out, reply *Reply) {
	if m.IsRequest() {
		return t.request(m)
	}
	switch m.Method {
	case "turn/started":
		return t.turnStarted(m.Params), nil
	case "turn/completed":
		return t.turnCompleted(m.Params), nil
	case "item/started":
		return t.itemStarted(m.Params), nil
	case "item/completed":
		return t.itemCompleted(m.Params), nil
	case "item/agentMessage/delta":
		return t.delta(m.Params, "text"), nil
	case "item/reasoning/summaryTextDelta", "item/reasoning/textDelta":
		return t.delta(m.Params, "thinking"), nil
	case "item/reasoning/summaryPartAdded":
		return t.summaryPart(m.Params), nil
	case "thread/tokenUsage/updated":
		t.usage.update(m.Params)
	case "serverRequest/resolved":
		return t.resolved(m.Params), nil
	case "error":
		return t.apiError(m.Params), nil
	case "warning", "configWarning", "deprecationNotice":
		return t.warning(m.Params), nil
	case "thread/compacted":
		return []Out{t.system("compact_boundary", nil)}, nil
	}
	return nil, nil
}

// params decodes a notification's params; a malformed one reads as empty.
func params[T any](raw json.RawMessage) T {
	var v T
	json.Unmarshal(raw, &v)
	return v
}

// message builds an OutMessage of type typ from fields, with the uuid, the
// thread and parent_tool_use_id every chat message has. "type" comes
// first, as in Claude's lines: readers that look for it there (the load
// tool) find it.
func (t *Translator) message(typ string, fields map[string]any) Out {
	id := t.newID()
	if _, ok := fields["parent_tool_use_id"]; !ok {
		fields["parent_tool_use_id"] = nil
	}
	return Out{Kind: OutMessage, Type: typ, UUID: id, Raw: typeFirst(typ, map[string]any{"uuid": id, "session_id": t.thread}, fields)}
}

// typeFirst is {"type":typ, then head's and fields' members}.
func typeFirst(typ string, head, fields map[string]any) []byte {
	for k, v := range head {
		fields[k] = v
	}
	rest, _ := json.Marshal(fields)
	t, _ := json.Marshal(typ)
	out := make([]byte, 0, len(rest)+len(t)+9)
	out = append(out, `{"type":`...)
	out = append(out, t...)
	if len(rest) > 2 {
		out = append(out, ',')
	}
	return append(out, rest[1:]...)
}

func (t *Translator) system(subtype string, fields map[string]any) Out {
	if fields == nil {
		fields = map[string]any{}
	}
	fields["subtype"] = subtype
	return t.message("system", fields)
}

// init is the system message that opens a turn: what it runs with.
func (t *Translator) init() Out {
	o := t.system("init", map[string]any{"model": t.model, "cwd": t.cwd, "permissionMode": t.policy,
		"agent": "codex", "tools": []string{}})
	o.InForce = t.InForce()
	return o
}

type turnParams struct {
	Turn Turn `json:"turn"`
}

func (t *Translator) turnStarted(raw json.RawMessage) []Out {
	p := params[turnParams](raw)
	t.turn, t.turnFrom, t.lastText, t.denied = p.Turn.ID, t.now(), "", nil
	t.usage.turnStarted()
	return []Out{t.init()}
}

// apiError is Codex's error notification: a retry of the model request is
// shown as one; a final error comes back with the turn's end.
func (t *Translator) apiError(raw json.RawMessage) []Out {
	p := params[struct {
		Error     TurnError `json:"error"`
		WillRetry bool      `json:"willRetry"`
	}](raw)
	if !p.WillRetry {
		return nil
	}
	msg := p.Error.Message
	if p.Error.AdditionalDetails != "" {
		msg += " (" + p.Error.AdditionalDetails + ")"
	}
	o := t.system("api_retry", map[string]any{"error": msg})
	o.Retrying = true
	return []Out{o}
}

// warning is one of Codex's warnings, shown as a note.
func (t *Translator) warning(raw json.RawMessage) []Out {
	p := params[struct {
		Message string `json:"message"`
		Summary string `json:"summary"`
	}](raw)
	text := strings.TrimSpace(p.Message + " " + p.Summary)
	if text == "" {
		return nil
	}
	return []Out{t.system("warning", map[string]any{"text": text})}
}
