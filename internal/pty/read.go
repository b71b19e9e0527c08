package pty

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// readBuf is the most output one frame carries.
const readBuf = 32 << 10

// read copies the PTY into the Log until EOF (EIO on Linux once every
// slave descriptor is closed), a read deadline, or Close.
func (p *Proc) read() {
	defer close(p.readDone)
	buf := make([]byte, readBuf)
	rc, rcErr := p.pty.SyscallConn()
	for {
		n, err := p.pty.Read(buf)
		if rcErr == nil && err == nil {
			n += topUp(rc, buf[n:])
		}
		if n > 0 {
			_, _ = p.log.Write(buf[:n])
			if p.onOutput != nil {
				p.onOutput(buf[:n])
			}
		}
		if err != nil {
			return
		}
	}
}

// topUp adds to b whatever the PTY already holds, without ever waiting.
// The kernel hands out at most 4 KiB per read; under a flood of output this
// makes frames several times larger, and so fewer hub messages, socket
// writes and subscriber wake-ups, while a lone keystroke echo still goes
// out at once. Errors are left for the next blocking Read to report.
func topUp(rc syscall.RawConn, b []byte) int {
	total := 0
	for len(b) > 0 {
		var n int
		_ = rc.Read(func(fd uintptr) bool {
			n, _ = unix.Read(int(fd), b)
			return true // one attempt: never park on the poller
		})
		if n <= 0 {
			break
		}
		total += n
		b = b[n:]
	}
	return total
}
