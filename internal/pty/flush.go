package pty

import (
	"context"
	"fmt"
	"time"
)

// Output reaches the store in large appends. A PTY read is a few KiB, and a
// bbolt commit costs the writer about a millisecond of CPU whatever its
// size: committing each read would spend more CPU than the PTY delivers
// (measured: 100 MB as 80 KiB appends cost 1.1 s of CPU, as 1 MiB appends
// 0.26 s). Half a MiB keeps most of that saving and, with the buffers a
// streaming Log holds (its own, a spare, two in flight), keeps a 100 MB
// run 3-4 MiB smaller than 1 MiB did (peak RSS 39.4-40.3 MiB against
// 42.9-44.6 MiB, same CPU within noise). Output collects in buf and goes
// to the store when it reaches
// flushSize, when flushDelay has passed since its first byte, or at once
// when an Attach or Sync needs it. Live subscribers never wait for this:
// the hub has every byte as soon as it is read.
const (
	flushSize  = 512 << 10
	flushDelay = 20 * time.Millisecond
	// maxPending bounds the appends in flight per Log, and so the memory a
	// slow disk can pin: past it, Write waits for the oldest commit, which
	// slows the child down like a slow terminal would.
	maxPending = 2
	// streamingSize is the flush that means output is streaming.
	streamingSize = 64 << 10
)

// appended is an append handed to the store: its buffer is the store's
// until done reports the commit, then it may be reused.
type appended struct {
	done <-chan error
	buf  []byte
}

// submitLocked hands buf to the store and starts a new one. While output
// streams (streaming set, or a large buffer handed over) the new buffer is
// a full-size one at once, the last committed buffer when there is one,
// so output does not allocate by the MiB nor regrow by doubling; after a
// trickle it starts empty, so an idle worker pins nothing.
func (l *Log) submitLocked(streaming bool) {
	if len(l.buf) == 0 {
		return
	}
	for len(l.pending) >= maxPending {
		l.recordLocked(<-l.pending[0].done)
	}
	n := len(l.buf)
	done := l.store.AppendOutput(l.id, l.end-int64(n), l.buf)
	l.pending = append(l.pending, appended{done: done, buf: l.buf})
	l.buf = nil
	if streaming || n >= streamingSize {
		l.buf, l.spare = l.spare, nil
		if l.buf == nil {
			l.buf = make([]byte, 0, flushSize)
		}
	}
	l.reapLocked()
}

// recordLocked pops the oldest pending append with its result and keeps
// its buffer for reuse.
func (l *Log) recordLocked(err error) {
	if b := l.pending[0].buf; cap(b) == flushSize && l.buf != nil { // still streaming
		l.spare = b[:0]
	}
	l.pending[0] = appended{}
	l.pending = l.pending[1:]
	if err != nil {
		l.failLocked(fmt.Errorf("store output: %w", err))
	}
}

// failLocked records the first storage error and closes failed, which the
// runtime watches to tell the tabs and the worker list.
func (l *Log) failLocked(err error) {
	if l.err == nil {
		l.err = err
		close(l.failed)
	}
}

// reapLocked collects the commit results already in. Commits complete in
// queue order, so it stops at the first one still pending.
func (l *Log) reapLocked() {
	for len(l.pending) > 0 {
		select {
		case err := <-l.pending[0].done:
			l.recordLocked(err)
		default:
			return
		}
	}
}

// flush is the Log's goroutine: it hands over output that has waited
// flushDelay, and collects the results of commits in flight, so that a
// failed one is reported (Failed) even when no more output follows. After
// Close it hands over the rest, waits for every commit and returns.
func (l *Log) flush() {
	t := time.NewTimer(flushDelay)
	t.Stop()
	for {
		select {
		case <-l.kick:
			t.Reset(flushDelay)
		case <-t.C:
			l.mu.Lock()
			streaming := l.idleLocked()
			l.reapLocked()
			l.settleReserveLocked(false)
			if streaming || len(l.pending) > 0 || l.reserving != nil {
				t.Reset(flushDelay) // look again for the end, or for the results
			}
			l.mu.Unlock()
		case <-l.quit:
			t.Stop()
			l.drain()
			return
		}
	}
}

// idleLocked hands buf to the store after flushDelay. It reports whether
// output is still streaming; once a delay passes with nothing written, it
// drops the buffers streaming kept, so a quiet worker pins no memory.
func (l *Log) idleLocked() bool {
	if len(l.buf) == 0 {
		l.buf, l.spare = nil, nil
		return false
	}
	l.submitLocked(false)
	return l.buf != nil
}

// drain stores what is left, waits for every commit, and gives back the
// unused reservation: after a clean close the next Log continues at the end.
func (l *Log) drain() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.submitLocked(false)
	l.buf = nil // closed: nothing more to buffer
	for len(l.pending) > 0 {
		l.recordLocked(<-l.pending[0].done)
	}
	l.spare = nil
	l.releaseReserveLocked()
}

// Sync returns once every byte written before it is committed, or when
// ctx ends.
func (l *Log) Sync(ctx context.Context) error {
	l.mu.Lock()
	l.submitLocked(false)
	l.mu.Unlock()
	return l.barrier(ctx)
}

// Err returns the first error the store reported for appended output or a
// reservation, or nil. Commits are asynchronous, so an error shows up some
// time later; after Sync it covers every byte written before.
func (l *Log) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reapLocked()
	return l.err
}

// Failed is closed once the store has refused output or a reservation
// (Err says why), whether a write, Sync, Err or the Log's goroutine
// collected the result: a runtime selects on it to report the failure.
func (l *Log) Failed() <-chan struct{} { return l.failed }

// Close stores what is left, waits for its commit, and ends every live
// subscription; later attaches get a replay and an already finished Sub.
// Write fails after Close. Safe to call more than once.
func (l *Log) Close() {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.quit)
	}
	l.mu.Unlock()
	l.wg.Wait()
	l.hub.Close()
}
