package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// defaultDeny is the message the model reads when a person denies a tool.
const defaultDeny = "The user denied this tool use"

// permission is a request of the agent waiting for a person.
type permission struct {
	id       string
	tool     string
	kind     agent.RequestKind
	proc     agent.Conn // the agent that asked: only it can be answered; nil for one stored before a restart (pending.go)
	input    json.RawMessage
	frame    []byte // the permission-request frame
	answered bool   // guarded by the journal's pubMu: an answer is on its way
}

// newPermission is the pending request of q, asked by agent p.
func newPermission(p agent.Conn, q *agent.Request) (*permission, error) {
	if q == nil || q.ID == "" {
		return nil, fmt.Errorf("a request without an id")
	}
	input := q.Input
	if len(input) == 0 || string(input) == "null" {
		input = json.RawMessage(`{}`)
	}
	f := wire.Permission{
		RequestID: q.ID, ToolName: q.Tool,
		Input: input, Description: q.Description, ToolUseID: q.ToolUseID,
		BlockedPath: q.BlockedPath, RequiresUserInteraction: q.RequiresUserInteraction,
		PermissionSuggestions: q.Suggestions,
	}
	if q.Kind == agent.RequestPlan {
		f.PlanHTML = planHTML(q.Plan)
	}
	frame, err := wire.PermissionRequest(f)
	if err != nil {
		return nil, fmt.Errorf("encode permission request: %w", err)
	}
	return &permission{id: q.ID, tool: q.Tool, kind: q.Kind, proc: p, input: input, frame: frame}, nil
}

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
	a := agent.Answer{Allow: behavior == "allow", Message: message, Input: input, Updates: updatedPermissions}
	if !a.Allow {
		a.Input, a.Updates = nil, nil
		if a.Message == "" {
			a.Message = defaultDeny
		}
	}
	// Queue the resolution first: what the agent says once answered then
	// follows it in every tab.
	r.resolved(p, behavior)
	if err := p.proc.Answer(p.id, a); err != nil {
		return fmt.Errorf("answer permission request: %w", err)
	}
	r.applied(updates)
	return nil
}

// checkUpdates checks an answer's permission updates with the driver.
func (r *Runtime) checkUpdates(allow bool, raw json.RawMessage) (agent.Updates, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return agent.Updates{}, nil
	}
	u, ok := r.driver.(agent.Updater)
	if !ok {
		return agent.Updates{}, fmt.Errorf("updatedPermissions: this agent takes none: %w", worker.ErrInvalid)
	}
	return u.Updates(allow, raw)
}

func isObject(b json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(b, &m) == nil && m != nil
}

// resolved publishes that p was answered and drops it from pending.
func (r *Runtime) resolved(p *permission, behavior string) {
	e := entry{kind: kResolved, perm: p, frame: wire.PermissionResolved(p.id, behavior)}
	if err := r.journal.produce([]entry{e}); err != nil {
		r.journal.drop(p) // stopped: no tab is left to tell
	}
	r.forgetPending(p.id)
}

// cancelled handles the CLI withdrawing its own request (it may do so when
// a turn is interrupted): the tabs drop the prompt.
func (r *Runtime) cancelled(es []entry, id string) []entry {
	p := r.journal.claim(id)
	if p == nil {
		return es
	}
	r.forgetPending(p.id)
	return append(es, entry{kind: kResolved, perm: p, frame: wire.PermissionResolved(p.id, "deny")})
}

// denyAll answers every pending request with deny: on cancel and on stop a
// question nobody will answer must not hold the CLI.
func (r *Runtime) denyAll(message string) {
	for _, p := range r.journal.claimAll() {
		r.resolved(p, "deny")
		if p.proc == nil {
			continue // stored before a restart: no agent waits for it
		}
		if err := p.proc.Answer(p.id, agent.Answer{Message: message}); err != nil {
			r.log.Debug("deny permission request", "err", err)
		}
	}
}

// Cancel stops the running turn, first denying pending permission
// requests: it sends the interrupt and, when no result follows within
// InterruptWait, ends the CLI and every process it started (stop.go). A
// user message still on its way (its CLI starting) is not sent and the
// start is abandoned; a turn shown as running with neither a CLI nor a
// message on its way just ends. It reports false, and does nothing, when
// no turn runs. The conversation stays resumable: the next message starts
// a CLI with --resume.
func (r *Runtime) Cancel(ctx context.Context) (bool, error) { return r.cancelTurn(ctx, false) }

// ForceCancel is Cancel without the interrupt: it ends the CLI at once
// (SIGTERM, then SIGKILL after TermGrace). A Stop under way moves on to
// that stage.
func (r *Runtime) ForceCancel(ctx context.Context) (bool, error) { return r.cancelTurn(ctx, true) }

// cancelTurn returns once the CLI answered the interrupt, or after
// answerWait, or when ctx ends: the Stop goes on in the background.
func (r *Runtime) cancelTurn(ctx context.Context, force bool) (bool, error) {
	r.cancelMu.Lock()
	defer r.cancelMu.Unlock()
	sending := r.sending
	if sending {
		r.cancelSend = true
		r.mu.Lock()
		if r.abortInit != nil {
			r.abortInit() // SendUser then ends the turn
		}
		r.mu.Unlock()
	}
	busy := r.journal.busy()
	r.mu.Lock()
	p := r.proc
	r.mu.Unlock()
	switch {
	case busy && p != nil:
	case sending:
		return true, nil
	case busy:
		r.denyAll("The user cancelled this turn") // requests stored before a restart
		r.endTurn()
		return true, nil
	default:
		return false, nil
	}
	r.denyAll("The user cancelled this turn")
	answered := r.escalate(p, force)
	t := time.NewTimer(answerWait)
	defer t.Stop()
	select {
	case <-answered:
	case <-t.C:
	case <-ctx.Done():
	}
	return true, nil
}
