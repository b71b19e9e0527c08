package worker

import (
	"context"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// killLeftovers ends what a run that did not shut down cleanly (a crash
// or SIGKILL) left behind, and nothing else. A recorded process group is
// killed only when its leader is still the process recorded (same start
// time, same marker in its environment): after a reboot or a pid reuse the
// number may name any of the user's processes. Then every process marked
// by a recorded run or process is killed, whatever session or group it
// moved to (setsid tools of the CLI, a shell's setsid jobs).
func (m *Manager) killLeftovers() {
	procs, err := m.store.Processes()
	if err != nil {
		m.log.Error("read process records", "err", err)
		return
	}
	runs, err := m.store.Runs()
	if err != nil {
		m.log.Error("read run records", "err", err)
	}
	markers := make([]string, 0, len(procs))
	for wid, p := range procs {
		id := childproc.Ident{Pid: p.Pid, Start: p.Start, Marker: p.Marker}
		switch {
		case !p.HasIdentity():
			m.log.Warn("process record without identity (older version): not signalled", "worker", wid, "pid", p.Pid)
		case childproc.Verify(id):
			m.killGroup(p.Pid)
			m.log.Info("ended leftover process group", "worker", wid, "pgid", p.Pid)
		default:
			m.log.Info("recorded process is gone or not ours: not signalled", "worker", wid, "pid", p.Pid)
		}
		markers = append(markers, p.Marker)
	}
	if len(markers) > 0 || len(runs) > 0 {
		n := childproc.Kill(childproc.Either(childproc.Exact(markers...), childproc.Runs(runs...)))
		if n > 0 {
			m.log.Info("ended leftover processes of a previous run", "count", n)
		}
	}
	for wid := range procs {
		if err := m.store.DeleteProcess(wid); err != nil {
			m.log.Error("forget process record", "worker", wid, "err", err)
		}
	}
	for _, r := range runs {
		if err := m.store.DeleteRun(r); err != nil {
			m.log.Error("forget run record", "run", r, "err", err)
		}
	}
}

// marker is the AGENTDESK_WORKER value of worker wid's children.
func (m *Manager) marker(wid string) string { return childproc.Marker(wid, m.run) }

// endWorker ends every process worker wid started and left, in whatever
// session or group: run after its runtime's Stop, which ends only its own
// process group and session.
func (m *Manager) endWorker(ctx context.Context, wid string) {
	m.endMarked(ctx, childproc.Exact(m.marker(wid)))
}

func (m *Manager) endMarked(ctx context.Context, match childproc.Match) {
	if n := childproc.End(ctx, match, childproc.DefaultGrace); n > 0 {
		m.log.Info("ended processes left by stopped workers", "count", n)
	}
}

// stopWorker stops a runtime, then ends what its processes left.
func (m *Manager) stopWorker(ctx context.Context, wid string, rt Runtime) error {
	err := rt.Stop(ctx)
	m.endWorker(ctx, wid)
	return err
}
