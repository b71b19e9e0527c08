package pty

import (
	"errors"
	"strings"
	"syscall"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// storeFailure is what a PTY worker tells its tabs (an error frame) and the
// worker list (its error) when output could not be stored: the frame's
// code, storage_unavailable for a read-only data directory and
// storage_full otherwise (as REST answers 507 and 503), and a message.
//
// What a tab sees: the output it was shown live stays on its screen (it
// went out before the commit, and is not taken back). A tab that resumes by
// its cursor loses nothing it had; a reload or a new tab replays what is
// stored, with a `truncated` frame in place of the bytes that were not.
func storeFailure(err error) (code wire.Code, msg string) {
	code, why := wire.CodeStorageFull, "the disk is full"
	switch {
	case isErrno(err, syscall.EROFS):
		code, why = wire.CodeStorageUnavailable, "the data directory is read-only"
	case !isErrno(err, syscall.ENOSPC) && !isErrno(err, syscall.EFBIG) && !isErrno(err, syscall.EDQUOT):
		why = "the disk refused the write"
	}
	return code, "output could not be saved: " + why +
		"; it was shown live, but a reload or a new tab will miss the part that was not saved"
}

// isErrno matches the text too: bbolt formats a failed file resize with
// %s, dropping the errno from the chain.
func isErrno(err error, errno syscall.Errno) bool {
	return err != nil && (errors.Is(err, errno) || strings.Contains(err.Error(), errno.Error()))
}
