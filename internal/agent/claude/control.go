package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// idPrefix marks the request ids this driver makes, so a late reply to a
// Control call that gave up is still recognised as ours and not delivered.
const idPrefix = "agentdesk-"

func isOurID(id string) bool { return strings.HasPrefix(id, idPrefix) }

// ControlError is a control_response with subtype "error".
type ControlError struct {
	Message string // the CLI's "error", e.g. "Unsupported control request subtype: x"
	Code    string // its "error_code", e.g. "unsupported_request"; may be ""
}

func (e *ControlError) Error() string {
	if e.Code != "" {
		return fmt.Sprintf("claude control request failed: %s (%s)", e.Message, e.Code)
	}
	return "claude control request failed: " + e.Message
}

// SendUser writes a user message; a turn starts (or is queued behind the
// running one).
func (p *Process) SendUser(content string) error {
	return p.writeJSON(map[string]any{
		"type":    "user",
		"message": map[string]any{"role": "user", "content": content},
	})
}

// Control sends a control_request with a fresh request_id and waits for the
// matching control_response. It returns the reply's "response" object, a
// *ControlError for an "error" reply, ErrExited (wrapped, with the exit
// status and the stderr tail) if stdout ends first, or ctx's error.
func (p *Process) Control(ctx context.Context, request any) (json.RawMessage, error) {
	id, ch := p.register()
	defer p.unregister(id)
	err := p.writeJSON(map[string]any{"type": "control_request", "request_id": id, "request": request})
	if errors.Is(err, ErrExited) {
		return nil, p.awaitExitErr(ctx)
	}
	if err != nil {
		return nil, err
	}
	select {
	case l := <-ch:
		return decodeReply(l)
	case <-p.readDone:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for control response: %w", ctx.Err())
	}
	// A reply read just before EOF is already in ch.
	select {
	case l := <-ch:
		return decodeReply(l)
	default:
	}
	return nil, p.awaitExitErr(ctx)
}

// awaitExitErr waits briefly for an exit that is under way (stdout ended or
// stdin broke), and for the rest of stderr, so the error can say how the
// process ended and why.
func (p *Process) awaitExitErr(ctx context.Context) error {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	for _, ch := range []<-chan struct{}{p.done, p.stderrDone} {
		select {
		case <-ch:
		case <-t.C:
			return p.exitErr()
		case <-ctx.Done():
			return p.exitErr()
		}
	}
	return p.exitErr()
}

func (p *Process) register() (string, chan Line) {
	ch := make(chan Line, 1)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nextID++
	id := idPrefix + strconv.FormatUint(p.nextID, 10)
	p.pending[id] = ch
	return id, ch
}

func (p *Process) unregister(id string) {
	p.mu.Lock()
	delete(p.pending, id)
	p.mu.Unlock()
}

func decodeReply(l Line) (json.RawMessage, error) {
	var r rawResponse
	if err := json.Unmarshal(l.Raw, &r); err != nil {
		return nil, fmt.Errorf("decode control response: %w", err)
	}
	if r.Response.Subtype == "error" {
		return nil, &ControlError{Message: r.Response.Error, Code: r.Response.ErrorCode}
	}
	return r.Response.Response, nil
}

// Initialize sends the optional initialize request; the reply lists
// commands, agents, models, the account and the CLI's pid and version.
func (p *Process) Initialize(ctx context.Context) (json.RawMessage, error) {
	return p.Control(ctx, map[string]string{"subtype": "initialize"})
}

// Interrupt cancels the running turn; the process stays alive. The turn
// then ends with a result of subtype error_during_execution. When idle it
// does nothing.
func (p *Process) Interrupt(ctx context.Context) error {
	_, err := p.Control(ctx, map[string]string{"subtype": "interrupt"})
	return err
}

// SetPermissionMode changes the permission mode for later tool calls.
func (p *Process) SetPermissionMode(ctx context.Context, mode string) error {
	_, err := p.Control(ctx, map[string]string{"subtype": "set_permission_mode", "mode": mode})
	return err
}

// SetModel switches the model for later turns.
func (p *Process) SetModel(ctx context.Context, model string) error {
	_, err := p.Control(ctx, map[string]string{"subtype": "set_model", "model": model})
	return err
}

// Respond answers a CLI-initiated control_request (can_use_tool) with a
// success carrying response, e.g. {"behavior":"allow","updatedInput":…}
// or {"behavior":"deny","message":…}.
func (p *Process) Respond(requestID string, response any) error {
	return p.writeJSON(map[string]any{
		"type": "control_response",
		"response": map[string]any{
			"subtype": "success", "request_id": requestID, "response": response,
		},
	})
}

// writeJSON writes v as one line to stdin. HTML escaping is off so user text
// reaches the CLI byte for byte.
func (p *Process) writeJSON(v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // Encode adds the newline
		return fmt.Errorf("encode stdin line: %w", err)
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	p.mu.Lock()
	closed := p.stdinClosed
	p.mu.Unlock()
	if closed {
		return fmt.Errorf("write stdin: %w", ErrExited)
	}
	if _, err := p.stdin.Write(b.Bytes()); err != nil {
		if errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
			return fmt.Errorf("write stdin: %w", p.exitErr())
		}
		return fmt.Errorf("write stdin: %w", err)
	}
	return nil
}
