package chat

import (
	"encoding/json"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

// RespondPermission answers a pending permission request. behavior is
// "allow" (with updatedInput, or the original input when it is empty) or
// "deny" (with message, or a default one). An unknown or already answered
// requestID, or a bad behavior or updatedInput, is an error wrapping
// worker.ErrInvalid.
func (r *Runtime) RespondPermission(requestID, behavior, message string, updatedInput json.RawMessage) error {
	return r.AnswerPermission(requestID, behavior, message, updatedInput, nil)
}

// AnswerPermission is RespondPermission with updatedPermissions (allow
// only): the agent's permission updates, usually one of the request's
// suggestions, checked by the driver (agent.Updater).
func (r *Runtime) AnswerPermission(requestID, behavior, message string, updatedInput, updatedPermissions json.RawMessage) error {
	if behavior != "allow" && behavior != "deny" {
		return fmt.Errorf("behavior must be \"allow\" or \"deny\", not %q: %w", behavior, worker.ErrInvalid)
	}
	if len(updatedInput) > 0 && string(updatedInput) != "null" && !isObject(updatedInput) {
		return fmt.Errorf("updatedInput must be a JSON object: %w", worker.ErrInvalid)
	}
	updates, err := r.checkUpdates(behavior == "allow", updatedPermissions)
	if err != nil {
		return err
	}
	p := r.journal.claim(requestID)
	if p == nil {
		return fmt.Errorf("no pending permission request %q: %w", requestID, worker.ErrInvalid)
	}
	input := p.input
	if len(updatedInput) > 0 && string(updatedInput) != "null" {
		input = updatedInput
	}
	if p.proc == nil {
		return r.answerRestored(p, behavior, message, input, updates)
	}
	a := agent.Answer{Allow: true, Input: input, Updates: updatedPermissions}
	if behavior == "deny" {
		a = agent.Answer{Message: message}
		if a.Message == "" {
			a.Message = defaultDeny
		}
	}
	// Queue the resolution first: what the agent says once answered then
	// follows it in every tab.
	r.reqs.resolved(p, behavior)
	if err := p.proc.Answer(p.id, a); err != nil {
		return fmt.Errorf("answer permission request: %w", err)
	}
	r.prefs.applied(updates)
	return nil
}

// checkUpdates checks an answer's permission updates with the driver.
func (r *Runtime) checkUpdates(allow bool, raw json.RawMessage) (agent.Updates, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return agent.Updates{}, nil
	}
	u, ok := r.slot.driver.(agent.Updater)
	if !ok {
		return agent.Updates{}, fmt.Errorf("updatedPermissions: this agent takes none: %w", worker.ErrInvalid)
	}
	return u.Updates(allow, raw)
}

// answerRestored answers a request stored before a restart: its agent is
// gone, so the answer becomes the next user message of a resumed one.
func (r *Runtime) answerRestored(p *permission, behavior, message string, input json.RawMessage, updates agent.Updates) error {
	if err := r.waitReady(r.ctx); err != nil {
		return fmt.Errorf("answer a permission request after a restart: %w", err)
	}
	// The sender's lock from the resolution to the stored answer: the
	// queue, which delivers once the chat is idle, comes after the
	// answer, not first.
	r.snd.lock()
	defer r.snd.unlock()
	r.q.release() // the person is back, as for SendUser
	r.reqs.resolved(p, behavior)
	if behavior == "allow" {
		r.prefs.applied(updates) // a plan's mode first: the agent starts with it
		if p.kind == agent.RequestTool {
			r.reqs.grant(p.tool, input)
		}
	}
	err := r.snd.sendLocked(restoredAnswer(p.kind, p.tool, behavior, message, input), nil, r.journal.produceCommitted)
	if err != nil {
		return fmt.Errorf("answer a permission request after a restart: %w", err)
	}
	return nil
}
