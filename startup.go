package main

import (
	"fmt"
	"log/slog"
	"os"
	"syscall"
)

// privateDataDir makes the data dir readable by its owner only: it holds
// the token and every conversation. MkdirAll leaves the mode of a dir that
// already exists as it is, so a loose one is tightened here, and said so.
func privateDataDir(dir string, log *slog.Logger) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("data dir %s is not a directory", dir)
	}
	perm := fi.Mode().Perm()
	if perm&0o077 == 0 {
		return nil
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		log.Warn("the data dir is open to other users and could not be made private; it holds the token", "dir", dir, "mode", fmt.Sprintf("%#o", perm), "err", err)
		return nil
	}
	log.Warn("made the data dir private (mode 0700): it holds the token", "dir", dir, "was", fmt.Sprintf("%#o", perm))
	return nil
}

// unauthConnCap is the cap on connections that have not shown the token: a
// quarter of the open-file limit, at most 512, so that a flood of them
// leaves descriptors for the token holder, the database and the workers'
// PTYs. The Go runtime has already raised the soft limit to the hard one
// (syscall's init, since Go 1.19) and lowers it again for the children;
// calling Setrlimit here would stop that.
func unauthConnCap() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0 // the server's default
	}
	return int(min(512, max(16, lim.Cur/4)))
}
