package claude

// SetMaxLineSize lowers the line cap for processes started afterwards and
// returns a function restoring it. Not for parallel tests.
func SetMaxLineSize(n int) (restore func()) {
	old := maxLineSize
	maxLineSize = n
	return func() { maxLineSize = old }
}

// QueuedBytes returns the bytes of the lines read and not yet taken.
func (p *Process) QueuedBytes() int64 { return p.queued.Load() }

// QueueLimit is the byte bound of the lines read and not yet taken.
const QueueLimit = queuedBytes
