package agentproc

import (
	"context"
	"fmt"
	"os"
	"time"
)

// OpenPipes creates stdin, stdout and stderr pipes and returns the child's
// ends and ours, each in that order. os.Pipe files are pollable, so a
// stuck write or read can be unblocked with a deadline.
func OpenPipes() (child, ours [3]*os.File, err error) {
	for i := range child {
		r, w, err := os.Pipe()
		if err != nil {
			CloseAll(append(child[:i], ours[:i]...)...)
			return [3]*os.File{}, [3]*os.File{}, fmt.Errorf("create pipe: %w", err)
		}
		if i == 0 {
			child[i], ours[i] = r, w
		} else {
			child[i], ours[i] = w, r
		}
	}
	return child, ours, nil
}

// CloseAll closes every file that is not nil.
func CloseAll(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

// WaitExit reports whether done closed within d; ctx ending counts as
// "no" (unless done closed meanwhile).
func WaitExit(ctx context.Context, done <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// Reader is a pipe and the channel its reader closes at EOF.
type Reader struct {
	Done <-chan struct{}
	Pipe *os.File
}

// UnblockReaders gives the readers the grace to reach EOF, then forces
// them out with a read deadline: a grandchild that left the agent's group
// (setsid, a PTY session of its own) may hold the pipes open for ever.
func UnblockReaders(grace time.Duration, readers ...Reader) {
	t := time.NewTimer(grace)
	defer t.Stop()
	for _, r := range readers {
		select {
		case <-r.Done:
			continue
		case <-t.C:
		}
		r.Pipe.SetReadDeadline(time.Now())
		t.Reset(0) // the grace is spent: force the others too
	}
}
