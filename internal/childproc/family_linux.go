package childproc

import (
	"context"
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// MaxFamily bounds how many processes a Family or a Descendants answer
// holds: a fork bomb must not grow a record or a scan without end.
const MaxFamily = 1024

// Family is a set of processes found by their parent chain (a process and
// its descendants, in whatever process group or session they moved to,
// marker or not), each pinned by a pidfd opened before its start time was
// read again: a signal sent through it reaches that very process even if
// it exits and its pid is reused. A Family is taken while the parents
// live: a process whose parent died is re-parented and found by the chain
// no more, but a member stays one.
//
// A Family is for one goroutine at a time; Close releases the pidfds.
type Family struct {
	members []member
	pinned  map[int]bool
}

type member struct {
	target
	start uint64
}

// Pin returns a Family holding each of ids that still is the process
// recorded (Verify), and the live descendants of those. Take it before
// signalling anything: a process that dies re-parents its children.
func Pin(ids ...Ident) *Family {
	f := &Family{pinned: make(map[int]bool)}
	skip := protected()
	for _, id := range ids {
		if id.Pid > 1 && !skip[id.Pid] && !f.pinned[id.Pid] && Verify(id) {
			f.pin(id.Pid, id.Start)
		}
	}
	f.Grow()
	return f
}

// Grow adds every live process whose parent is a live member, and their
// descendants, from one read of /proc.
func (f *Family) Grow() {
	if len(f.members) == 0 {
		return
	}
	tb := readTable()
	skip := protected()
	queue := make([]int, 0, len(f.members))
	for _, m := range f.members {
		if m.alive() {
			queue = append(queue, m.pid)
		}
	}
	for len(queue) > 0 && len(f.members) < MaxFamily {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range tb.kids[pid] {
			st := tb.procs[c]
			if f.pinned[c] || skip[c] || st.state == 'Z' || !ours(c) {
				continue
			}
			if f.pin(c, st.start) {
				queue = append(queue, c)
			}
		}
	}
}

// pin adds pid when it still started at start, and reports whether it did.
func (f *Family) pin(pid int, start uint64) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return false
	}
	if err != nil {
		fd = -1 // no pidfd_open (before Linux 5.3): kill(2), checked again before
	}
	if st, ok := readStat(pid); !ok || st.start != start {
		if fd >= 0 {
			_ = unix.Close(fd)
		}
		return false
	}
	f.members = append(f.members, member{target: target{pid: pid, fd: fd}, start: start})
	f.pinned[pid] = true
	return true
}

// alive reports whether the member has not exited (a zombie has).
func (m member) alive() bool {
	if m.fd >= 0 {
		fds := []unix.PollFd{{Fd: int32(m.fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		return err == nil && n == 0
	}
	st, ok := readStat(m.pid)
	return ok && st.state != 'Z' && st.start == m.start
}

// Signal sends sig to every live member and returns how many there were.
// Signal 0 only counts them.
func (f *Family) Signal(sig syscall.Signal) int {
	n := 0
	for _, m := range f.members {
		if !m.alive() {
			continue
		}
		n++
		if sig != 0 {
			m.signal(sig)
		}
	}
	return n
}

// Idents lists the live members' identities (pid, start time, this boot).
func (f *Family) Idents() []Ident {
	var out []Ident
	for _, m := range f.members {
		if m.alive() {
			out = append(out, Ident{Pid: m.pid, Start: m.start, Boot: BootID()})
		}
	}
	return out
}

// wait waits up to d, or until ctx ends, for every member to exit.
func (f *Family) wait(ctx context.Context, d time.Duration) {
	var ts []target
	for _, m := range f.members {
		ts = append(ts, m.target)
	}
	waitGone(ctx, ts, d)
}

// Close releases the pidfds. A nil Family is fine.
func (f *Family) Close() {
	if f == nil {
		return
	}
	for _, m := range f.members {
		if m.fd >= 0 {
			_ = unix.Close(m.fd)
		}
	}
	f.members = nil
}

// Snapshot is one read of /proc: each process's parent and start time,
// to find the families of many processes at the cost of one scan.
type Snapshot struct {
	tb   table
	boot string
}

// Snap reads /proc.
func Snap() *Snapshot { return &Snapshot{tb: readTable(), boot: BootID()} }

// Alive reports whether id named a live process at the snapshot.
func (s *Snapshot) Alive(id Ident) bool {
	st, ok := s.tb.procs[id.Pid]
	return ok && st.state != 'Z' && st.start == id.Start && (id.Boot == "" || id.Boot == s.boot)
}

// Descendants returns the live processes of root's family that a record
// keeps: root's live descendants when root still is the process recorded,
// and each of known still running as recorded (a tool whose parent is
// gone), with its own descendants, at most MaxFamily. root itself is not
// in the list. Nothing is pinned: this is a snapshot to store, not to
// signal.
func (s *Snapshot) Descendants(root Ident, known []Ident) []Ident {
	seen := map[int]bool{root.Pid: true}
	var out []Ident
	var queue []int
	if s.Alive(root) && same(root) {
		queue = append(queue, root.Pid)
	}
	for _, k := range known {
		if !seen[k.Pid] && k.Boot == s.boot && s.Alive(k) {
			seen[k.Pid] = true
			out = append(out, Ident{Pid: k.Pid, Start: k.Start, Boot: s.boot})
			queue = append(queue, k.Pid)
		}
	}
	for len(queue) > 0 && len(out) < MaxFamily {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range s.tb.kids[pid] {
			if st := s.tb.procs[c]; !seen[c] && st.state != 'Z' {
				seen[c] = true
				out = append(out, Ident{Pid: c, Start: st.start, Boot: s.boot})
				queue = append(queue, c)
			}
		}
	}
	return out[:min(len(out), MaxFamily)]
}

// table is one read of /proc: each process's stat and its children.
type table struct {
	procs map[int]procStat
	kids  map[int][]int
}

func readTable() table {
	tb := table{procs: make(map[int]procStat), kids: make(map[int][]int)}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return tb
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 1 {
			continue
		}
		if st, ok := readStat(pid); ok {
			tb.procs[pid] = st
			tb.kids[st.ppid] = append(tb.kids[st.ppid], pid)
		}
	}
	return tb
}
