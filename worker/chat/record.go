package chat

import (
	"context"
	"log/slog"
	"sync"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/worker"
)

// records keeps the worker's process record: the identity of its running
// agent, so that a start after a crash can end it and nothing else. Safe
// for concurrent use.
type records struct {
	env *worker.Env // the Runtime's: RecordProcess, Store, Info.ID
	log *slog.Logger

	mu       sync.Mutex // serializes the record's writes
	recorded childproc.Ident
}

// record stores id as the worker's process record.
func (rs *records) record(id childproc.Ident) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.recorded = id
	if err := rs.env.RecordProcess(id); err != nil {
		rs.log.Warn("record agent process", "err", err)
	}
}

// forget deletes the record of id, a process that is gone, unless a newer
// process's record replaced it: a dead agent's reader may finish after the
// next agent started (a send starts one as soon as a write fails).
func (rs *records) forget(id childproc.Ident) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.recorded != id || id == (childproc.Ident{}) {
		return
	}
	rs.recorded = childproc.Ident{}
	if err := rs.env.Store.DeleteProcess(rs.env.Info.ID); err != nil {
		rs.log.Warn("forget agent process", "err", err)
	}
}

// recorder is the launcher of one start: every process it starts is
// recorded at once, before the agent's handshake (which can take seconds)
// and before the reader runs (its exit deletes the record), so that the
// next start of the server ends the agent and its tools if the server
// dies meanwhile.
type recorder struct {
	inner launch.Launcher
	rs    *records

	mu      sync.Mutex
	started []childproc.Ident
}

func (l *recorder) Start(ctx context.Context, s launch.Spec) (*launch.Process, error) {
	inner := l.inner
	if inner == nil {
		inner = launch.Local{}
	}
	p, err := inner.Start(ctx, s)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.started = append(l.started, p.Ident())
	l.mu.Unlock()
	l.rs.record(p.Ident())
	return p, nil
}

// forgetAll deletes the records of a start that failed.
func (l *recorder) forgetAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range l.started {
		l.rs.forget(id)
	}
}
