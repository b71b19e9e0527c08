package worker

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// SettingsRequest is the body of PATCH /api/sessions/:sid/workers/:wid:
// the fields to change; an absent one keeps its value.
type SettingsRequest struct {
	Model          *string `json:"model"`
	PermissionMode *string `json:"permissionMode"`
	LimitsRequest
}

// Settings are what a person chose for an sdk worker's CLI; "" means not
// chosen: the CLI then starts without the flag and its own settings.json
// applies.
type Settings struct {
	Model          string
	PermissionMode string
}

// SettingsApplier is an agent runtime whose agent takes a new model and
// permission mode while it runs (through its driver), and starts with
// them later. An error wrapping ErrConflict says the CLI
// refused the change; nothing then changed.
type SettingsApplier interface {
	ApplySettings(ctx context.Context, next Settings) error
}

// maxModelLen bounds a model name (the CLI's are under 40 bytes).
const maxModelLen = 200

func (r SettingsRequest) validate() error {
	if r.Model == nil && r.PermissionMode == nil && r.LimitsRequest.empty() {
		return fieldErr("model", "send at least one of model, permissionMode, appendSystemPrompt, maxTurns, maxBudgetUsd, allowedTools, disallowedTools, addDirs")
	}
	if r.PermissionMode != nil && *r.PermissionMode == "" {
		return fieldErr("permissionMode", "must not be empty")
	}
	if m := r.Model; m != nil {
		bad := strings.IndexFunc(*m, func(c rune) bool { return unicode.IsSpace(c) || !unicode.IsPrint(c) })
		if *m == "" || len(*m) > maxModelLen || bad >= 0 {
			return fieldErr("model", "must be a model name such as sonnet or claude-sonnet-4-5, without spaces")
		}
	}
	return nil
}

// AgentSettings changes what the agents of a session run with: a chat
// worker's model and permission mode (settings.go), the session's "Always
// allow" rules (rules.go). Changes are serialised with switches.
type AgentSettings struct{ m *Manager }

// NewAgentSettings returns the settings of m's agent workers.
func NewAgentSettings(m *Manager) *AgentSettings { return &AgentSettings{m: m} }

// Update changes an sdk worker's model and permission mode, limits and
// allowed tools: a running CLI gets the model and mode first (a refusal
// changes nothing), then everything is stored with the worker and
// broadcast as worker-updated; the runtime gets changed limits
// (LimitsSetter), which hold from its agent's next start. Settings
// changes are serialised with switches.
func (a *AgentSettings) Update(ctx context.Context, sid, wid string, req SettingsRequest) (Info, error) {
	if err := req.validate(); err != nil {
		return Info{}, err
	}
	lock, err := a.m.switchLock(sid)
	if err != nil {
		return Info{}, err
	}
	lock.Lock()
	defer lock.Unlock()
	info, rt, err := a.m.WaitRuntime(ctx, sid, wid)
	if err != nil {
		return Info{}, err
	}
	if info.Kind != KindSDK {
		return Info{}, fieldErr("model", "only chat (sdk) workers take settings and limits changes")
	}
	if info.Status == StatusStopped {
		return Info{}, fmt.Errorf("this worker no longer drives the conversation: %w", ErrConflict)
	}
	if req.PermissionMode != nil {
		if err := checkMode(info.Agent, *req.PermissionMode); err != nil {
			return Info{}, err
		}
	}
	limits, allowed, err := req.LimitsRequest.apply(info.Limits, info.AllowedTools)
	if err != nil {
		return Info{}, err
	}
	if info.Agent == AgentCodex && info.ConversationStarted && limits.AppendSystemPrompt != info.Limits.AppendSystemPrompt {
		return Info{}, fieldErr("appendSystemPrompt", "a Codex conversation keeps the instructions it started with (Codex records them in its thread): open a new Codex chat for other instructions")
	}
	if info.Agent == AgentCodex && (req.AllowedTools != nil || req.DisallowedTools != nil) {
		if err := checkCodexRules(allowed, limits); err != nil {
			return Info{}, err
		}
	}
	sess, err := a.m.Session(sid)
	if err != nil {
		return Info{}, err
	}
	if err := sess.boxedLimits(limits); err != nil {
		return Info{}, err
	}
	cur := Settings{Model: info.Model, PermissionMode: info.PermissionMode}
	next := cur
	if req.Model != nil {
		next.Model = *req.Model
	}
	if req.PermissionMode != nil {
		next.PermissionMode = *req.PermissionMode
	}
	limitsChanged := req.LimitsRequest.changes(info.Limits, info.AllowedTools, limits, allowed)
	if next == cur && !limitsChanged {
		return info, nil
	}
	return a.commitSettings(ctx, info, rt, cur, next, limits, allowed, limitsChanged)
}

// commitSettings applies a settings change to the running CLI, stores it
// with the limits, and gives the runtime changed limits.
func (a *AgentSettings) commitSettings(ctx context.Context, info Info, rt Runtime, cur, next Settings, limits Limits, allowed []string, limitsChanged bool) (Info, error) {
	sa, ok := rt.(SettingsApplier)
	if next != cur && !ok {
		return Info{}, fmt.Errorf("the worker is still starting; try again: %w", ErrConflict)
	}
	if next != cur {
		if err := sa.ApplySettings(ctx, next); err != nil {
			return Info{}, err
		}
	}
	saved, err := a.m.commitWorker(info.SessionID, info.ID, origin{by: byManager}, func(i *Info) {
		i.Model, i.PermissionMode = next.Model, next.PermissionMode
		i.Limits, i.AllowedTools = limits.clone(), slices.Clone(allowed)
	})
	if err != nil {
		if next != cur {
			// Not stored: put the CLI back, so that the answer tells the truth.
			if rerr := sa.ApplySettings(context.WithoutCancel(ctx), cur); rerr != nil {
				a.m.log.Error("restore settings after a failed store", "worker", info.ID, "err", rerr)
			}
		}
		return Info{}, err
	}
	if ls, ok := rt.(LimitsSetter); ok && limitsChanged {
		ls.SetLimits(limits.clone(), slices.Clone(allowed))
	}
	return saved, nil
}

// commitWorker is changeWorker for a caller that must know whether the
// change is on disk: it returns the record as stored, or the store's
// error (and then nothing changed).
func (t *table) commitWorker(sid, wid string, o origin, fn func(*Info)) (Info, error) {
	t.commitMu.Lock()
	defer t.commitMu.Unlock()
	t.mu.RLock()
	ws, next, ok := t.nextInfoLocked(sid, wid, o, fn)
	t.mu.RUnlock()
	if !ok {
		return t.Worker(sid, wid)
	}
	if err := t.putWorker(next); err != nil {
		return Info{}, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	ws.info = next
	t.publish(workerUpdated(next.clone()))
	return next.clone(), nil
}
