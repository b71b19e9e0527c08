package toolbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// CallRequest is a call the agent makes.
type CallRequest struct {
	Scope string          // the scope (session) the agent runs in
	Tool  string          // the tool's name as registered
	Input json.RawMessage // the arguments, a JSON object
	// ToolUseID is the agent's id of the tool use, passed to the provider
	// so that it can tie its UI to the agent's tool card; may be empty.
	ToolUseID string
	// Started, when set, is told the call's id and provider once the call
	// is routed, before the provider can answer.
	Started func(callID, provider string)
}

// call is one call in flight.
type call struct {
	id   string
	tool string
	p    *Provider
	done chan Result // buffered: whoever ends the call never waits
}

// Call routes req to the provider that serves its tool in its scope and
// waits for the answer. It always returns: the provider's result; at once
// an error result when no provider serves the tool; an error result when
// the provider goes away or does not answer within the Registry's
// timeout, or when ctx ends (the provider is then told to cancel).
func (r *Registry) Call(ctx context.Context, req CallRequest) Result {
	c, res, ok := r.route(req)
	if !ok {
		return res
	}
	if req.Started != nil {
		req.Started(c.id, c.p.Name())
	}
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	select {
	case res := <-c.done:
		return res
	case <-ctx.Done():
		return r.abandon(c, "cancelled", ErrorResult(fmt.Sprintf("The call of %s was cancelled.", req.Tool)))
	case <-timer.C:
		return r.abandon(c, "timeout", ErrorResult(fmt.Sprintf(
			"The tool %s did not answer within %s (its provider, %s, may be waiting for a person or stuck); agentdesk stopped waiting.",
			req.Tool, r.timeout, c.p.Name())))
	}
}

// route picks the provider and hands it the call, or says why not.
func (r *Registry) route(req CallRequest) (*call, Result, bool) {
	input := req.Input
	if len(input) == 0 || string(input) == "null" {
		input = json.RawMessage("{}")
	}
	if !json.Valid(input) {
		return nil, ErrorResult(fmt.Sprintf("The arguments of %s are not valid JSON.", req.Tool)), false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.pickLocked(req.Scope, req.Tool)
	if p == nil {
		return nil, ErrorResult(fmt.Sprintf(
			"No provider serves the tool %s now: the browser tab or program that offers it is not connected. Ask the person to open agentdesk or start that program, or go on without it.",
			req.Tool)), false
	}
	c := &call{id: uuid.NewString(), tool: req.Tool, p: p, done: make(chan Result, 1)}
	p.calls[c.id] = c
	// When the frame cannot be queued the provider is dropped, which
	// ends c with an error result: Call reads it from c.done.
	p.sendLocked(callFrame(c.id, req.Scope, req.Tool, input, req.ToolUseID))
	return c, Result{}, true
}

// abandon stops waiting for c: the provider is told to cancel it, and
// fallback is the result. A result that arrived meanwhile wins.
func (r *Registry) abandon(c *call, reason string, fallback Result) Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, waiting := c.p.calls[c.id]; waiting {
		delete(c.p.calls, c.id)
		c.p.sendLocked(cancelFrame(c.id, reason))
		return fallback
	}
	return <-c.done
}

// Answer ends a call routed to p with res.
func (p *Provider) Answer(callID string, res Result) error {
	if err := res.check(); err != nil {
		return err
	}
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	c, ok := p.calls[callID]
	if !ok {
		if p.closed {
			return ErrClosed
		}
		return ErrUnknownCall
	}
	delete(p.calls, callID)
	c.done <- res
	return nil
}
