//go:build unix

package ptytest

import (
	"os/signal"
	"syscall"
	"testing"
)

// LimitFileSize caps the size of files this process writes, as a full disk
// would: the kernel fails writes and truncates past size with EFBIG (what
// bbolt gets when it cannot grow its file). SIGXFSZ, which would kill the
// process, is ignored meanwhile. The returned lift restores the old limit;
// it also runs when the test ends. The limit is process-wide: tests using
// it must not run in parallel with others that write files.
func LimitFileSize(tb testing.TB, size int64) (lift func()) {
	tb.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		tb.Fatal(err)
	}
	signal.Ignore(syscall.SIGXFSZ)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: uint64(size), Max: old.Max}); err != nil {
		tb.Fatal(err)
	}
	done := false
	lift = func() {
		if done {
			return
		}
		done = true
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			tb.Fatal(err)
		}
		signal.Reset(syscall.SIGXFSZ)
	}
	tb.Cleanup(lift)
	return lift
}
