//go:build !linux

package childproc

import (
	"context"
	"errors"
	"syscall"
	"time"
)

// Outside Linux there is no /proc to read: no identity can be checked, so
// nothing recorded is ever signalled, and marked processes are not found.

func startTime(int) (uint64, error) { return 0, errors.New("start time: not supported") }

// Verify never confirms an identity outside Linux.
func Verify(Ident) bool { return false }

// Kill finds nothing outside Linux.
func Kill(Match) int { return 0 }

// End finds nothing outside Linux.
func End(context.Context, Match, time.Duration) int { return 0 }

// Signal finds nothing outside Linux.
func Signal(Match, syscall.Signal) int { return 0 }

// CPUTicks reads nothing outside Linux: the watchdog then counts output only.
func CPUTicks(Match, int) uint64 { return 0 }
