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

// Bounds of the scans: a marked process that keeps forking is found again
// by the next scan, at most maxRounds times; each round waits at most
// killWait for what it killed to exit.
const (
	maxRounds = 8
	killWait  = 2 * time.Second
	pollSlice = 100 * time.Millisecond
)

// target is a marked process found by a scan. fd is a pidfd opened before
// its environment was read, so a signal sent through it reaches that very
// process even if it exits and its pid is reused meanwhile; -1 on kernels
// without pidfd_open (before 5.3), which get kill(2) instead.
type target struct {
	pid int
	fd  int
}

func (t target) signal(sig syscall.Signal) {
	if t.fd >= 0 {
		_ = unix.PidfdSendSignal(t.fd, sig, nil, 0) // ESRCH: already gone
		return
	}
	_ = syscall.Kill(t.pid, sig)
}

func closeTargets(ts []target) {
	for _, t := range ts {
		if t.fd >= 0 {
			_ = unix.Close(t.fd)
		}
	}
}

// find lists the processes whose marker m matches, except protected ones.
// The caller closes the targets.
func find(m Match, skip map[int]bool) []target {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []target
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 1 || skip[pid] {
			continue
		}
		if !marked(pid, m) {
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if errors.Is(err, unix.ESRCH) {
			continue
		}
		if err != nil {
			fd = -1
		}
		// Read again now that the pidfd pins the process: the pid may have
		// been reused between the first read and the open.
		if marked(pid, m) {
			out = append(out, target{pid: pid, fd: fd})
		} else if fd >= 0 {
			_ = unix.Close(fd)
		}
	}
	return out
}

func marked(pid int, m Match) bool {
	mk, ok := markerOf(pid)
	return ok && m(mk)
}

// waitGone waits until every target has exited, for at most d or until ctx
// ends, and returns those still running. It closes nothing: the targets'
// owner does.
func waitGone(ctx context.Context, ts []target, d time.Duration) []target {
	deadline := time.Now().Add(d)
	for len(ts) > 0 && ctx.Err() == nil {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		ts = pollOnce(ts, min(left, pollSlice))
	}
	return ts
}

// pollOnce waits up to d for a pidfd to report an exit and returns the
// targets still running. Targets without a pidfd are checked in /proc.
func pollOnce(ts []target, d time.Duration) []target {
	fds := make([]unix.PollFd, 0, len(ts))
	for _, t := range ts {
		if t.fd >= 0 {
			fds = append(fds, unix.PollFd{Fd: int32(t.fd), Events: unix.POLLIN})
		}
	}
	if len(fds) == 0 {
		time.Sleep(d)
	} else if _, err := unix.Poll(fds, int(d/time.Millisecond)); err != nil && !errors.Is(err, unix.EINTR) {
		return ts
	}
	var left []target
	i := 0
	for _, t := range ts {
		gone := false
		if t.fd >= 0 {
			gone = fds[i].Revents != 0
			i++
		} else {
			st, ok := readStat(t.pid)
			gone = !ok || st.state == 'Z'
		}
		if !gone {
			left = append(left, t)
		}
	}
	return left
}

// Kill sends SIGKILL to every process (own user's only, protected ones
// excepted) whose marker m matches, and scans again until a scan finds
// nothing new, at most maxRounds times. It returns how many processes it
// signalled. A nil m matches nothing.
func Kill(m Match) int {
	if m == nil {
		return 0
	}
	skip := protected()
	signalled := make(map[int]bool)
	for range maxRounds {
		ts := find(m, skip)
		fresh := 0
		for _, t := range ts {
			t.signal(syscall.SIGKILL)
			if !signalled[t.pid] {
				signalled[t.pid] = true
				fresh++
			}
		}
		waitGone(context.Background(), ts, killWait)
		closeTargets(ts)
		if fresh == 0 {
			break // nothing new: what is left cannot die (stuck in the kernel)
		}
	}
	return len(signalled)
}

// End asks every process whose marker m matches (nil: none), and every
// member of fams with what they started since, to exit (SIGTERM), waits
// up to grace or until ctx ends, then kills what is left (Kill, and
// SIGKILL to the families). It returns how many processes it found.
func End(ctx context.Context, m Match, grace time.Duration, fams ...*Family) int {
	var ts []target
	if m != nil {
		ts = find(m, protected())
	}
	defer closeTargets(ts)
	for _, t := range ts {
		t.signal(syscall.SIGTERM)
	}
	all := ts
	found := 0
	for _, f := range fams {
		f.Grow()
		found += f.Signal(syscall.SIGTERM)
		for _, mb := range f.members {
			all = append(all, mb.target)
		}
	}
	waitGone(ctx, all, grace)
	for _, f := range fams {
		f.Grow()
		f.Signal(syscall.SIGKILL)
		f.wait(context.Background(), killWait)
	}
	return found + max(len(ts), Kill(m))
}
