package ptyagent

import (
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/worker"
)

// setActivity publishes a changed activity to the tabs (and as a tail
// frame for later ones) and to the manager, which broadcasts
// worker-activity. It is called by New and then only by the goroutine.
func (r *Runtime) setActivity(a worker.Activity) {
	if a == worker.ActivityActive && r.entered.Load() {
		// A turn runs after a prompt went in: the CLI has written the
		// conversation's session file.
		r.markStarted()
	}
	if r.publishActivity(a) {
		r.update(func(i *worker.Info) { i.Activity = &a })
	}
}

// publishActivity tells the tabs only, and reports whether a changed.
func (r *Runtime) publishActivity(a worker.Activity) bool {
	if r.Activity() == a {
		return false
	}
	r.activity.Store(a)
	r.publishTail(slotActivity, activityMsg{Type: "activity", State: a})
	return true
}

// publishTail sets a tail frame, then sends it live. In that order a tab
// attaching in between gets the new frame twice (once from its tail, once
// live), never the old one: the frames are states, so twice is harmless.
func (r *Runtime) publishTail(slot int, v any) {
	r.tailMu.Lock()
	defer r.tailMu.Unlock()
	if !r.setTailLocked(slot, v) {
		return
	}
	if err := r.log.PublishJSON(v); err != nil {
		r.slog.Error("publish pty-agent frame", "err", err)
	}
}

// setTail sets a tail frame without publishing it.
func (r *Runtime) setTail(slot int, v any) {
	r.tailMu.Lock()
	defer r.tailMu.Unlock()
	r.setTailLocked(slot, v)
}

func (r *Runtime) setTailLocked(slot int, v any) bool {
	f, err := pty.JSONFrame(v)
	if err != nil {
		r.slog.Error("encode pty-agent frame", "err", err)
		return false
	}
	r.tail[slot] = &f
	var frames []hub.Frame
	for _, f := range r.tail {
		if f != nil {
			frames = append(frames, *f)
		}
	}
	r.log.SetTail(frames...)
	return true
}

// activityMsg, exitMsg and errorMsg are the JSON frames of API.md.
type activityMsg struct {
	Type  string          `json:"type"`
	State worker.Activity `json:"state"`
}

// exitMsg is the exit frame: exitCode on a normal exit, signal when a
// signal ended the process, both null when the status is unknown.
type exitMsg struct {
	Type     string  `json:"type"`
	ExitCode *int    `json:"exitCode"`
	Signal   *string `json:"signal"`
}

type errorMsg struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
}
