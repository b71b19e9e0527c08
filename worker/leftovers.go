package worker

import (
	"context"
	"syscall"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/persist"
)

// killLeftovers ends what a run that did not shut down cleanly (a crash
// or SIGKILL) left behind, and nothing else. A recorded process is ended
// only while it still is the process recorded (same pid, start time and
// boot; not carrying another worker's marker): after a reboot or a pid
// reuse the number may name any of the user's processes. Its descendants
// are found by the parent chain while it lives, and those whose parent is
// gone by the record of its tree, each checked the same way; all are
// pinned before anything is signalled. The recorded process group is
// killed too, and every process marked by a recorded run or process,
// whatever session or group it moved to (setsid tools of the CLI, a
// shell's setsid jobs).
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
	trees, err := m.store.Trees()
	if err != nil {
		m.log.Error("read process trees", "err", err)
	}
	fam, groups, markers := m.leftovers(procs, trees)
	defer fam.Close()
	for _, pgid := range groups {
		m.killGroup(pgid)
	}
	if n := fam.Signal(syscall.SIGKILL); n > 0 {
		m.log.Info("ended leftover processes and their descendants", "count", n)
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

// leftovers pins the recorded processes that are still the ones recorded,
// with their recorded and live descendants, and returns them with the
// process groups to kill and the markers to look for.
func (m *Manager) leftovers(procs map[string]persist.Process, trees map[string][]persist.Member) (*childproc.Family, []int, []string) {
	var ids []childproc.Ident
	var groups []int
	markers := make([]string, 0, len(procs))
	for wid, p := range procs {
		id := childproc.Ident{Pid: p.Pid, Start: p.Start, Marker: p.Marker, Boot: p.Boot}
		switch {
		case !p.HasIdentity():
			m.log.Warn("process record without identity (older version): not signalled", "worker", wid, "pid", p.Pid)
		case childproc.Verify(id):
			groups = append(groups, p.Pid)
			m.log.Info("ending leftover process group", "worker", wid, "pgid", p.Pid)
		default:
			m.log.Info("recorded process is gone or not ours: not signalled", "worker", wid, "pid", p.Pid)
		}
		if p.HasIdentity() {
			ids = append(ids, id)
		}
		if p.Boot != "" { // a tree's members carry no marker: the boot must vouch
			for _, mb := range trees[wid] {
				ids = append(ids, childproc.Ident{Pid: mb.Pid, Start: mb.Start, Boot: p.Boot})
			}
		}
		markers = append(markers, p.Marker)
	}
	return childproc.Pin(ids...), groups, markers
}

// marker is the AGENTDESK_WORKER value of worker wid's children.
func (m *Manager) marker(wid string) string { return childproc.Marker(wid, m.run) }

// endWorker ends every process worker wid started and left, in whatever
// session or group: run after its runtime's Stop, which ends only its own
// process group and session. fams are the families pinned before the
// Stop (trees.family).
func (m *Manager) endWorker(ctx context.Context, wid string, fams ...*childproc.Family) {
	m.endMarked(ctx, childproc.Exact(m.marker(wid)), fams...)
}

func (m *Manager) endMarked(ctx context.Context, match childproc.Match, fams ...*childproc.Family) {
	if n := childproc.End(ctx, match, childproc.DefaultGrace, fams...); n > 0 {
		m.log.Info("ended processes left by stopped workers", "count", n)
	}
}

// stopWorker stops a runtime, then ends what its processes left. Their
// family is pinned first, while the parents live: a tool in a session of
// its own that lost the marker is found by its parent chain only.
func (m *Manager) stopWorker(ctx context.Context, wid string, rt Runtime) error {
	fam := m.trees.family(wid)
	defer fam.Close()
	err := rt.Stop(ctx)
	m.endWorker(ctx, wid, fam)
	return err
}
