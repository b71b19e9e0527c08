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
	rc, err := p.pty.SyscallConn()
	if err != nil {
		return
	}
	readLoop(rc, make([]byte, readBuf), func(b []byte) {
		_, _ = p.log.Write(b)
		if p.onOutput != nil {
			p.onOutput(b)
		}
	})
}

// readLoop reads rc into buf and hands each batch to deliver until the
// descriptor ends or fails. A batch is everything the descriptor held,
// read without waiting (the kernel hands out at most 4 KiB of a PTY per
// read; under a flood this makes frames several times larger, and so
// fewer hub messages, socket writes and wake-ups), while a lone keystroke
// echo still goes out at once.
//
// The read that finds the descriptor empty is the only one that returns
// nothing, and it is also the one that sends the loop to the poller: the
// batch is delivered and the loop waits without reading again. Delivering
// between the reads and the wait, inside one RawConn.Read, loses no
// wake-up: the poller remembers readiness that came in the meantime. (A
// loop around File.Read makes two such reads per batch: one to end the
// batch, one at the start of the next Read, which resets the poller.)
func readLoop(rc syscall.RawConn, buf []byte, deliver func([]byte)) {
	end := false
	for !end {
		err := rc.Read(func(fd uintptr) bool {
			n := 0
			for {
				k, err := unix.Read(int(fd), buf[n:])
				switch {
				case err == unix.EINTR:
					continue
				case err == unix.EAGAIN:
					if n > 0 {
						deliver(buf[:n])
					}
					return false // empty: wait for the poller
				case err != nil || k == 0:
					if n > 0 {
						deliver(buf[:n])
					}
					end = true // EIO (or EOF): the slave side is closed
					return true
				}
				if n += k; n == len(buf) {
					deliver(buf)
					n = 0
				}
			}
		})
		if err != nil {
			return // deadline or Close
		}
	}
}
