package ptyagent_test

import "github.com/agentdesk/agentdesk/worker"

// reports is the fixture's worker.Reporter: each report changes info as
// the manager's does.
type reports struct{ f *fixture }

var _ worker.Reporter = reports{}

func (r reports) apply(fn func(*worker.Info)) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	fn(&r.f.info)
}

func (r reports) Running() {
	r.apply(func(i *worker.Info) { i.Status, i.Error, i.ExitCode = worker.StatusRunning, nil, nil })
}

func (r reports) Failed(err error) {
	msg := err.Error()
	r.apply(func(i *worker.Info) { i.Status, i.Error = worker.StatusError, &msg })
}

func (r reports) Exited(code int, sig, note string) {
	r.apply(func(i *worker.Info) {
		i.Status, i.ExitCode, i.Error = worker.StatusExited, &code, nil
		if sig != "" {
			i.ExitCode = nil
		}
		if note != "" {
			i.Error = &note
		}
	})
}

func (r reports) Size(cols, rows int) { r.apply(func(i *worker.Info) { i.Cols, i.Rows = cols, rows }) }

func (r reports) Problem(msg string) {
	r.apply(func(i *worker.Info) {
		i.Error = nil
		if msg != "" {
			i.Error = &msg
		}
	})
}

func (r reports) Activity(a worker.Activity) { r.apply(func(i *worker.Info) { i.Activity = &a }) }
func (r reports) Base(string)                {}
