package pty

import (
	"context"
	"errors"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// SignalUnknown is the signal a Term reports for a process that died with
// the server: how it ended is not known, and like a signal it leaves the
// worker's exit code null.
const SignalUnknown = "unknown"

// Fail reports a start that failed, with msg (which the kind has logged,
// and maybe written into the output): the worker's status becomes error
// and the tabs get an error frame with code, now and on every later
// attach. why, when not nil, is what input fails with from then on
// (ErrNotRunning otherwise). It is for the kind's start, before its
// constructor returns.
func (t *Term) Fail(code wire.Code, msg string, why error) {
	t.unusable = why
	t.o.Report.Failed(errors.New(msg))
	t.publishTail(slotError, wire.Error(code, msg))
}

// StoreFailed tells the tabs, now and on every later attach, that output
// could not be stored, and sets the worker's error. The status stays: the
// process still runs and takes input, and output is saved again once the
// disk has room. It runs on the kind's goroutine, when Failed is closed;
// later calls do nothing.
func (t *Term) StoreFailed() {
	if t.storeMsg != "" {
		return
	}
	err := t.log.Err()
	code, msg := storeFailure(err)
	t.slog.Error(t.o.Name+" output not stored", "err", err)
	t.storeMsg = msg
	t.publishTail(slotError, wire.Error(code, msg))
	if !t.stopping.Load() { // manager drops reports after stop (issue 12): guard removable
		t.o.Report.Problem(msg)
	}
}

// Exit reports the end of p, which is Done, once all its output is
// logged: OnExit runs, tabs get the exit frame, and (unless Stop ended
// it) the worker becomes exited. It runs on the kind's goroutine.
func (t *Term) Exit(p *Proc) {
	code, sig := p.ExitStatus()
	if t.o.Forget != nil {
		if err := t.o.Forget(); err != nil {
			t.slog.Warn("forget "+t.o.Name+" process group", "err", err)
		}
	}
	// The last output is stored (or refused) before the exit is reported,
	// so that a failure to store it is reported too.
	_ = t.log.Sync(context.Background())
	if t.log.Err() != nil {
		t.StoreFailed()
	}
	// A stop comes from the manager (worker deleted, switched away, server
	// shutting down), which owns the worker's state then: recording
	// "killed by SIGHUP" at shutdown would hide from the restored worker
	// that the server, not the user, ended the process.
	stopping := t.stopping.Load()
	if t.o.OnExit != nil {
		t.o.OnExit(stopping)
	}
	t.publishTail(slotExit, wire.ExitStatus(code, sig))
	t.slog.Info(t.o.Name+" process exited", "code", code, "signal", sig)
	if stopping { // manager drops reports after stop (issue 12): guard removable
		return
	}
	note := ""
	switch {
	case sig != "":
		note = "killed by signal " + sig
	case code != 0 && t.o.ExitNote != nil:
		note = t.o.ExitNote(code)
	}
	t.o.Report.Exited(code, sig, joinNotes(note, t.storeMsg))
}

func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// Restore serves a worker from storage, without a process: every attach
// gets the exit frame, with code (nil: unknown). live says the stored
// status was starting or running: the process died with the server, so
// the worker becomes exited with msg as its error and no exit code.
func (t *Term) Restore(live bool, code *int, msg string) {
	if live {
		code = nil
		t.o.Report.Exited(-1, SignalUnknown, msg)
	}
	t.setTail(slotExit, wire.Exit(code, nil))
}

// PublishActivity sends an activity frame, which every later attach also
// gets. The kind reports the change to the manager.
func (t *Term) PublishActivity(state string) {
	t.publishTail(slotActivity, wire.Activity(state))
}
