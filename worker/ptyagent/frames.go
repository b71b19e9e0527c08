package ptyagent

import (
	"bytes"

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
		r.env.Report.Activity(a)
	}
}

// publishActivity tells the tabs only, and reports whether a changed.
func (r *Runtime) publishActivity(a worker.Activity) bool {
	if r.Activity() == a {
		return false
	}
	r.activity.Store(a)
	r.term.PublishActivity(string(a))
	return true
}

// onInput sees the keystrokes a tab typed into the CLI.
func (r *Runtime) onInput(data []byte) {
	if bytes.IndexByte(data, '\r') >= 0 {
		r.entered.Store(true) // maybe a prompt: see setActivity
	}
}

// onExit sets the activity idle once the CLI ended for good. A stop comes
// from the manager (worker deleted, switched away, server shutting down),
// which owns the worker's state then: the tabs learn that the CLI ended,
// the manager is not told what it already knows.
func (r *Runtime) onExit(stopping bool) {
	if stopping { // manager drops reports after stop (issue 12): guard removable
		r.publishActivity(worker.ActivityIdle)
		return
	}
	r.setActivity(worker.ActivityIdle)
}
