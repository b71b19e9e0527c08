// Package pty runs a child process in a pseudo-terminal and keeps its
// output as a log addressed by absolute byte offset: stored through persist,
// fanned out live through a hub, and replayed to a client from any offset
// with nothing lost or doubled at the seam between replay and live frames.
//
// It is shared by the PTY worker kinds (terminal, pty-agent): Log is the
// output and its WebSocket protocol (API.md, "pty-agent and terminal
// workers"), Proc is the process and its PTY, Term what the kinds share
// around them (tail frames, reports, client frames, restore).
package pty

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/agentdesk/agentdesk/internal/hub"
)

// Store is the part of *persist.Store a Log uses.
type Store interface {
	// AppendOutput queues data at off (the current end) and reports the
	// commit on the returned channel, which is buffered. It keeps data:
	// the caller must not modify it afterwards.
	AppendOutput(workerID string, off int64, data []byte) <-chan error
	// ReadOutput returns up to max contiguous committed bytes from the
	// first one stored at or after from, and the offset they start at; no
	// bytes when none is stored there before the end.
	ReadOutput(workerID string, from int64, max int) ([]byte, int64, error)
	// Barrier completes once everything queued before it is committed.
	Barrier() <-chan error
	// ReserveOutput queues a record that offsets up to upTo may be shown
	// before they are stored, and reports its commit on the returned
	// channel, which is buffered.
	ReserveOutput(workerID string, upTo int64) <-chan error
	// OutputNext is where new output starts: past the stored end and past
	// any reservation a crash left behind.
	OutputNext(workerID string) (int64, error)
}

// headerLen is the size of a binary frame's offset header.
const headerLen = 8

// ErrClosed is returned by Write on a closed Log.
var ErrClosed = errors.New("output log closed")

// Log is one worker's output by absolute offset. Offsets never go back: a
// Log opened again for the same worker continues at the stored end.
//
// All methods are safe for concurrent use. Writes, control frames and
// attaches are serialised by one mutex, so the hub's cursor is always the
// log's end and a subscriber's snapshot (end, tail) matches what it will
// receive live. A Log owns one goroutine, which hands output to the store;
// Close stops it.
type Log struct {
	store Store
	id    string
	hub   *hub.Hub
	kick  chan struct{} // buf went from empty to not: start the flush delay
	quit  chan struct{} // closed by Close
	wg    sync.WaitGroup

	failed chan struct{} // closed when err is first set

	mu          sync.Mutex
	end         int64
	reserved    int64        // offsets below it are safe to publish before storing
	reserving   <-chan error // the reservation being committed, nil when none
	reservingTo int64
	reserveLost bool // the last reservation failed: the store's lags behind reserved
	tail        []hub.Frame
	buf         []byte     // output not yet handed to the store, ending at end
	pending     []appended // handed to the store, not yet committed
	spare       []byte     // a committed buffer, reused for the next flush
	err         error      // first storage error seen
	closed      bool
}

// OpenLog opens workerID's output log in store. It waits for writes already
// queued (by an earlier Log of the same worker) so that it starts at the
// true end. The caller must Close the Log.
func OpenLog(store Store, workerID string) (*Log, error) {
	if err := <-store.Barrier(); err != nil {
		return nil, fmt.Errorf("open output log: %w", err)
	}
	end, err := store.OutputNext(workerID)
	if err != nil {
		return nil, fmt.Errorf("open output log: %w", err)
	}
	l := &Log{
		store: store, id: workerID, hub: hub.New(uint64(end)), end: end, reserved: end,
		kick: make(chan struct{}, 1), quit: make(chan struct{}), failed: make(chan struct{}),
	}
	l.mu.Lock()
	l.reserveAheadLocked(end) // ready before the first byte
	l.mu.Unlock()
	l.wg.Go(l.flush)
	return l, nil
}

// Write appends p at the end of the log and publishes it as one binary
// frame. It never waits for a commit (unless the disk is far behind, see
// maxPending): the output path must not stall on fsync. A storage failure
// (full disk) does not stop live output either: the tabs keep what they
// were shown, the bytes that could not be stored become a hole that later
// replays step over with `truncated`, Failed is closed and Err says why.
// Output is stored again once the disk takes it. p may be reused once
// Write returns. After Close it fails with ErrClosed.
func (l *Log) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	// One allocation serves every subscriber.
	frame := make([]byte, headerLen+len(p))
	copy(frame[headerLen:], p)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return 0, ErrClosed
	}
	binary.BigEndian.PutUint64(frame, uint64(l.end))
	l.end += int64(len(p))
	l.reserveAheadLocked(l.end)
	l.hub.Publish(uint64(l.end), hub.Frame{Binary: true, Data: frame})
	first := len(l.buf) == 0
	l.buf = append(l.buf, p...)
	switch {
	case len(l.buf) >= flushSize:
		l.submitLocked(true)
	case first:
		select {
		case l.kick <- struct{}{}:
		default: // a kick is already pending
		}
	}
	return len(p), nil
}

// End returns the offset just past the last byte written.
func (l *Log) End() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.end
}

// PublishTail sends f live and makes tail (which normally holds f) the
// frames every later Attach replays after history-end. Both happen under
// one lock, so each client sees f exactly once: live when it attached
// before, in its replay when after.
func (l *Log) PublishTail(f hub.Frame, tail ...hub.Frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hub.Publish(uint64(l.end), f)
	l.tail = slices.Clone(tail)
}

// SetTail replaces the tail frames without publishing them (for a worker
// restored without a process).
func (l *Log) SetTail(frames ...hub.Frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tail = slices.Clone(frames)
}
