package worker

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// SettingsRequest is the body of PATCH /api/sessions/:sid/workers/:wid:
// the fields to change; an absent one keeps its value.
type SettingsRequest struct {
	Model          *string `json:"model"`
	PermissionMode *string `json:"permissionMode"`
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
	if r.Model == nil && r.PermissionMode == nil {
		return fieldErr("model", "send model, permissionMode or both")
	}
	if r.PermissionMode != nil && (*r.PermissionMode == "" || !permissionModes[*r.PermissionMode]) {
		return fieldErr("permissionMode", "must be one of default, acceptEdits, plan, bypassPermissions, got %q", *r.PermissionMode)
	}
	if m := r.Model; m != nil {
		bad := strings.IndexFunc(*m, func(c rune) bool { return unicode.IsSpace(c) || !unicode.IsPrint(c) })
		if *m == "" || len(*m) > maxModelLen || bad >= 0 {
			return fieldErr("model", "must be a model name such as sonnet or claude-sonnet-4-5, without spaces")
		}
	}
	return nil
}

// UpdateSettings changes an sdk worker's model and permission mode: a
// running CLI gets them first (a refusal changes nothing), then they are
// stored with the worker and broadcast as worker-updated; a CLI started
// later gets them as flags. Settings changes are serialised with switches.
func (m *Manager) UpdateSettings(ctx context.Context, sid, wid string, req SettingsRequest) (Info, error) {
	if err := req.validate(); err != nil {
		return Info{}, err
	}
	lock, err := m.switchLock(sid)
	if err != nil {
		return Info{}, err
	}
	lock.Lock()
	defer lock.Unlock()
	info, rt, err := m.WaitRuntime(ctx, sid, wid)
	if err != nil {
		return Info{}, err
	}
	if info.Kind != KindSDK {
		return Info{}, fieldErr("model", "only chat (sdk) workers take model and permissionMode changes")
	}
	if info.Status == StatusStopped {
		return Info{}, fmt.Errorf("this worker no longer drives the conversation: %w", ErrConflict)
	}
	sa, ok := rt.(SettingsApplier)
	if !ok {
		return Info{}, fmt.Errorf("the worker is still starting; try again: %w", ErrConflict)
	}
	cur := Settings{Model: info.Model, PermissionMode: info.PermissionMode}
	next := cur
	if req.Model != nil {
		next.Model = *req.Model
	}
	if req.PermissionMode != nil {
		next.PermissionMode = *req.PermissionMode
	}
	if next == cur {
		return info, nil
	}
	if err := sa.ApplySettings(ctx, next); err != nil {
		return Info{}, err
	}
	saved, err := m.commitWorker(sid, wid, origin{by: byManager}, func(i *Info) {
		i.Model, i.PermissionMode = next.Model, next.PermissionMode
	})
	if err != nil {
		// Not stored: put the CLI back, so that the answer tells the truth.
		if rerr := sa.ApplySettings(context.WithoutCancel(ctx), cur); rerr != nil {
			m.log.Error("restore settings after a failed store", "worker", wid, "err", rerr)
		}
		return Info{}, err
	}
	return saved, nil
}

// commitWorker is changeWorker for a caller that must know whether the
// change is on disk: it returns the record as stored, or the store's
// error (and then nothing changed).
func (m *Manager) commitWorker(sid, wid string, o origin, fn func(*Info)) (Info, error) {
	m.commitMu.Lock()
	defer m.commitMu.Unlock()
	m.mu.RLock()
	ws, next, ok := m.nextInfoLocked(sid, wid, o, fn)
	m.mu.RUnlock()
	if !ok {
		return m.Worker(sid, wid)
	}
	if err := m.putWorker(next); err != nil {
		return Info{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ws.info = next
	m.publish(workerUpdated(next.clone()))
	return next.clone(), nil
}
