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
func End(context.Context, Match, time.Duration, ...*Family) int { return 0 }

// Signal finds nothing outside Linux.
func Signal(Match, syscall.Signal) int { return 0 }

// CPUTicks reads nothing outside Linux: the watchdog then counts output only.
func CPUTicks(Match, int) uint64 { return 0 }

// FamilyCPUTicks reads nothing outside Linux.
func FamilyCPUTicks(Ident, Match, int) uint64 { return 0 }

// BootID is unknown outside Linux.
var BootID = func() string { return "" }

// Family is empty outside Linux.
type Family struct{}

// MaxFamily bounds a Family.
const MaxFamily = 1024

// Pin finds nothing outside Linux.
func Pin(...Ident) *Family { return &Family{} }

// Grow finds nothing outside Linux.
func (*Family) Grow() {}

// Signal signals nothing outside Linux.
func (*Family) Signal(syscall.Signal) int { return 0 }

// Idents is empty outside Linux.
func (*Family) Idents() []Ident { return nil }

// Close does nothing outside Linux.
func (*Family) Close() {}

// Snapshot is empty outside Linux.
type Snapshot struct{}

// Snap reads nothing outside Linux.
func Snap() *Snapshot { return &Snapshot{} }

// Alive knows no process outside Linux.
func (*Snapshot) Alive(Ident) bool { return false }

// Descendants finds nothing outside Linux.
func (*Snapshot) Descendants(Ident, []Ident) []Ident { return nil }

// Descendants finds nothing outside Linux.
func Descendants(Ident, []Ident) []Ident { return nil }

// Alive knows no process outside Linux.
func Alive(Ident) bool { return false }
