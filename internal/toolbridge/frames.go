package toolbridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// The provider protocol (docs/api-extensions.md, "Tools from the
// browser"): JSON text frames, one object each.
//
// provider → agentdesk: register {provider?, sessionId, tools}, tool-result
// {callId, content, isError}.
// agentdesk → provider: registered {sessionId, tools}, call {callId,
// sessionId, tool, input, toolUseId?}, cancel {callId, reason}, error
// {code, message, callId?, sessionId?}.

// Frame types of the provider protocol.
const (
	TypeRegister   = "register"
	TypeRegistered = "registered"
	TypeCall       = "call"
	TypeToolResult = "tool-result"
	TypeCancel     = "cancel"
	TypeError      = "error"
)

// CodeUnknownCall answers a tool-result for a call that no longer waits.
const CodeUnknownCall wire.Code = "unknown_call"

// clientFrame is any frame a provider sends.
type clientFrame struct {
	Type      string    `json:"type"`
	Provider  string    `json:"provider"`
	SessionID string    `json:"sessionId"`
	Tools     []Tool    `json:"tools"`
	CallID    string    `json:"callId"`
	Content   []Content `json:"content"`
	IsError   bool      `json:"isError"`
}

// Handle acts on one frame the provider sent. What it answers (registered,
// errors) is queued on Frames; a provider that broke the protocol keeps
// its connection.
func (p *Provider) Handle(data []byte) {
	f, err := decodeFrame(data)
	if err != nil {
		p.reply(errorFrame(wire.CodeInvalidMessage, err.Error(), "", ""))
		return
	}
	switch f.Type {
	case TypeRegister:
		p.SetName(f.Provider)
		tools, err := p.Register(f.SessionID, f.Tools)
		if err != nil {
			p.reply(errorFrame(wire.CodeInvalidField, "register refused: "+err.Error(), "", f.SessionID))
			return
		}
		p.reply(registeredFrame(f.SessionID, tools))
	case TypeToolResult:
		err := p.Answer(f.CallID, Result{Content: f.Content, IsError: f.IsError})
		switch {
		case errors.Is(err, ErrUnknownCall):
			p.reply(errorFrame(CodeUnknownCall, "call "+f.CallID+" is not waiting for a result: it was answered, cancelled or timed out", f.CallID, ""))
		case err != nil:
			p.reply(errorFrame(wire.CodeInvalidField, "tool-result refused: "+err.Error(), f.CallID, ""))
		}
	default:
		p.reply(errorFrame(wire.CodeInvalidMessage, fmt.Sprintf("unknown frame type %q: send register or tool-result", f.Type), "", ""))
	}
}

// frameKeys are the fields a client frame may have, exactly so spelt:
// encoding/json matches keys without regard to case, so a misspelt
// "sessionID" would otherwise pass for sessionId.
var frameKeys = map[string]bool{
	"type": true, "provider": true, "sessionId": true, "tools": true,
	"callId": true, "content": true, "isError": true,
}

var toolKeys = map[string]bool{"name": true, "description": true, "inputSchema": true}

// decodeFrame reads a client frame strictly: a field that is not the
// protocol's is refused, so that a misspelt one is not silently ignored.
func decodeFrame(data []byte) (clientFrame, error) {
	var f clientFrame
	if data == nil {
		return f, errors.New("binary frames are not accepted; send JSON text frames")
	}
	var keys struct {
		top   map[string]json.RawMessage
		tools []map[string]json.RawMessage
	}
	d := json.NewDecoder(bytes.NewReader(data))
	if err := d.Decode(&keys.top); err != nil || keys.top == nil {
		return f, errors.New("a frame must be one JSON object with a type")
	}
	if d.More() {
		return f, errors.New("a frame must hold exactly one JSON object")
	}
	if err := onlyKeys(keys.top, frameKeys, ""); err != nil {
		return f, err
	}
	if raw, ok := keys.top["tools"]; ok && json.Unmarshal(raw, &keys.tools) == nil {
		for _, t := range keys.tools {
			if err := onlyKeys(t, toolKeys, "tools[]."); err != nil {
				return f, err
			}
		}
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("a field has the wrong type: %s", jsonProblem(err))
	}
	return f, nil
}

func onlyKeys(m map[string]json.RawMessage, allowed map[string]bool, prefix string) error {
	for k := range m {
		if !allowed[k] {
			return fmt.Errorf("unknown field %q", prefix+k)
		}
	}
	return nil
}

// jsonProblem names the field of a type error, without Go's words.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return te.Field + " must be a JSON " + te.Type.Kind().String()
	}
	return "the frame does not match the protocol"
}

// reply queues an answer to the provider.
func (p *Provider) reply(frame []byte) {
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	p.sendLocked(frame)
}

func registeredFrame(scope string, tools []Tool) []byte {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return mustJSON(struct {
		Type      string   `json:"type"`
		SessionID string   `json:"sessionId"`
		Tools     []string `json:"tools"`
	}{TypeRegistered, scope, names})
}

func callFrame(id, scope, tool string, input json.RawMessage, toolUseID string) []byte {
	return mustJSON(struct {
		Type      string          `json:"type"`
		CallID    string          `json:"callId"`
		SessionID string          `json:"sessionId"`
		Tool      string          `json:"tool"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"toolUseId,omitempty"`
	}{TypeCall, id, scope, tool, input, toolUseID})
}

func cancelFrame(id, reason string) []byte {
	return mustJSON(struct {
		Type   string `json:"type"`
		CallID string `json:"callId"`
		Reason string `json:"reason"`
	}{TypeCancel, id, reason})
}

func errorFrame(code wire.Code, msg, callID, scope string) []byte {
	return mustJSON(struct {
		Type      string    `json:"type"`
		Code      wire.Code `json:"code"`
		Message   string    `json:"message"`
		CallID    string    `json:"callId,omitempty"`
		SessionID string    `json:"sessionId,omitempty"`
	}{TypeError, code, msg, callID, scope})
}

// mustJSON marshals a value that always marshals (plain structs; raw
// input already checked to be JSON).
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("toolbridge: marshal %T: %v", v, err))
	}
	return b
}
