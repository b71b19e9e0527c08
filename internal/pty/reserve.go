package pty

import "fmt"

// Live frames go out before their bytes are stored (a commit per PTY read
// would cost more CPU than the read). So that a crash never makes a new Log
// reuse an offset a client already saw, the Log first records, committed,
// a reservation past the live end; after a crash a new Log starts past it.
//
// The reservation runs ahead of the output: a new one is requested when
// the end comes within half a step of the committed one, and is committed
// by the time the output gets there, so the reader goroutine does not wait
// for an fsync (it did, once per step, when reserving synchronously: a
// stall of a few milliseconds per MiB with the child blocked on a full
// PTY). It waits only when output outruns the disk.
//
// reserveStep is the distance reserved ahead. A crash leaves a hole of at
// most two steps; a hole takes no room and does not count against the
// output cap.
//
// A reservation the store refused (full disk) does not stop the output:
// the Log goes on publishing, and asks again on each write until the store
// takes it, so that appends past the stored end are accepted again once
// there is room (the store accepts a gap only within its reservation).
const reserveStep = 1 << 20

// reserveAheadLocked makes offsets up to need publishable, waiting for a
// reservation only when need is past the committed one, and requests the
// next reservation when need comes near its end.
func (l *Log) reserveAheadLocked(need int64) {
	l.settleReserveLocked(false)
	for need > l.reserved {
		if l.reserving == nil {
			l.requestReserveLocked(need + reserveStep)
		}
		l.settleReserveLocked(true)
	}
	switch {
	case l.reserving != nil:
	case need > l.reserved-reserveStep/2:
		l.requestReserveLocked(l.reserved + reserveStep)
	case l.reserveLost:
		l.requestReserveLocked(l.reserved)
	}
}

func (l *Log) requestReserveLocked(upTo int64) {
	l.reserving, l.reservingTo = l.store.ReserveOutput(l.id, upTo), upTo
}

// settleReserveLocked takes the pending reservation's result, waiting for
// it when wait is set. A failure is recorded like a failed append and
// output goes on: a full disk must not freeze the terminal.
func (l *Log) settleReserveLocked(wait bool) {
	if l.reserving == nil {
		return
	}
	var err error
	if wait {
		err = <-l.reserving
	} else {
		select {
		case err = <-l.reserving:
		default:
			return
		}
	}
	l.reserveLost = err != nil
	if err != nil {
		l.failLocked(fmt.Errorf("reserve output: %w", err))
	}
	l.reserved, l.reserving = max(l.reserved, l.reservingTo), nil
}

// releaseReserveLocked gives back the unused reservation when the Log
// closes cleanly, so the next Log continues at the end. After a refused
// reservation it records the end too: the store's may lie below it.
func (l *Log) releaseReserveLocked() {
	l.settleReserveLocked(true)
	if l.reserved > l.end || l.reserveLost {
		l.requestReserveLocked(l.end)
		l.settleReserveLocked(true)
		l.reserved = l.end
	}
}
