package worker

import "errors"

// Reporter is how a kind tells the manager what happened to its worker:
// narrow reports, not field writes. The manager owns the worker's record:
// it applies a report only when the status transition it implies is in
// its table (lifecycle.go), drops every report from a worker it stopped or
// deleted, persists the result and broadcasts worker-updated. All methods
// are safe to call from any goroutine, at any time, also after Stop.
type Reporter interface {
	// Running says the worker's process runs: starting → running, or
	// error → running when a later attempt succeeded. It clears the error.
	Running()
	// Failed says the worker could not start or broke: → error, with
	// err's text kept as the worker's error.
	Failed(err error)
	// Exited says the process ended by itself, with code, or by signal
	// sig when sig is not "": → exited. note, when not "", is kept as the
	// worker's error text (why it ended).
	Exited(code int, sig string, note string)
	// Activity says an agent worker's activity changed.
	Activity(a Activity)
	// Size says the PTY was resized.
	Size(cols, rows int)
	// Problem sets (msg not "") or clears the worker's error text without
	// a change of status: output that could not be stored, say.
	Problem(msg string)
	// Base says the git-diff base changed.
	Base(base string)
	// Current says what an agent's CLI reports it runs with; a zero c
	// clears it.
	Current(c Current)
}

// errNoReason is the error of a Failed report that gave none.
var errNoReason = errors.New("failed, with no reason given")

// reporter is the manager's Reporter for one runtime of one worker: its
// reports count until the manager stops or replaces that runtime.
type reporter struct {
	m        *Manager
	sid, wid string
	from     origin
}

var _ Reporter = reporter{}

func (r reporter) change(fn func(*Info)) { r.m.changeWorker(r.sid, r.wid, r.from, fn) }

func (r reporter) Running() {
	r.change(func(i *Info) { i.Status, i.Error, i.ExitCode = StatusRunning, nil, nil })
}

func (r reporter) Failed(err error) {
	if err == nil {
		err = errNoReason
	}
	msg := err.Error()
	r.change(func(i *Info) { i.Status, i.Error = StatusError, &msg })
}

func (r reporter) Exited(code int, sig string, note string) {
	r.change(func(i *Info) {
		i.Status, i.ExitCode, i.Error = StatusExited, &code, nil
		if sig != "" {
			i.ExitCode = nil
		}
		if note != "" {
			i.Error = &note
		}
	})
}

func (r reporter) Activity(a Activity) {
	r.change(func(i *Info) { i.Activity = &a })
}

func (r reporter) Size(cols, rows int) {
	r.change(func(i *Info) { i.Cols, i.Rows = cols, rows })
}

func (r reporter) Problem(msg string) {
	r.change(func(i *Info) {
		i.Error = nil
		if msg != "" {
			i.Error = &msg
		}
	})
}

func (r reporter) Base(base string) {
	r.change(func(i *Info) { i.Base = base })
}

func (r reporter) Current(c Current) {
	r.change(func(i *Info) {
		i.Current = nil
		if c != (Current{}) {
			i.Current = &c
		}
	})
}
