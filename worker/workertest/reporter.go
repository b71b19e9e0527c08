// Package workertest holds test doubles for the kinds' tests: a
// worker.Reporter that applies each report to an Info the test reads.
package workertest

import (
	"sync"

	"github.com/agentdesk/agentdesk/worker"
)

// Reporter applies each report to *Info under *Mu, as the manager changes
// a worker's record (without the transition table's checks).
type Reporter struct {
	Mu   *sync.Mutex
	Info *worker.Info
}

var _ worker.Reporter = Reporter{}

func (r Reporter) apply(fn func(*worker.Info)) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	fn(r.Info)
}

func (r Reporter) Running() {
	r.apply(func(i *worker.Info) { i.Status, i.Error, i.ExitCode = worker.StatusRunning, nil, nil })
}

func (r Reporter) Failed(err error) {
	msg := err.Error()
	r.apply(func(i *worker.Info) { i.Status, i.Error = worker.StatusError, &msg })
}

func (r Reporter) Exited(code int, sig, note string) {
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

func (r Reporter) Size(cols, rows int) { r.apply(func(i *worker.Info) { i.Cols, i.Rows = cols, rows }) }

func (r Reporter) Problem(msg string) {
	r.apply(func(i *worker.Info) {
		i.Error = nil
		if msg != "" {
			i.Error = &msg
		}
	})
}

func (r Reporter) Activity(a worker.Activity) { r.apply(func(i *worker.Info) { i.Activity = &a }) }
func (r Reporter) Base(string)                {}

func (r Reporter) Current(c worker.Current) {
	r.apply(func(i *worker.Info) {
		i.Current = nil
		if c != (worker.Current{}) {
			i.Current = &c
		}
	})
}
