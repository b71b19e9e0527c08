package claude

import "sync"

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

// Pid is the CLI's process id, which is also its process group id.
func (p *Process) Pid() int { return p.pid }

// linesOf holds the channel Lines made for each process.
var linesOf sync.Map // *Process → chan Line

// Lines is Batches one line at a time, for tests that read a line at a
// time: the same channel on every call. Call it before Close; the
// goroutine that feeds it belongs to p, and Close waits for it.
func (p *Process) Lines() <-chan Line {
	ch := make(chan Line)
	if got, loaded := linesOf.LoadOrStore(p, ch); loaded {
		return got.(chan Line)
	}
	p.wg.Go(func() { p.oneByOne(ch) })
	return ch
}

// oneByOne passes the batches on to ch as single lines.
func (p *Process) oneByOne(ch chan<- Line) {
	defer close(ch)
	for batch := range p.Batches() {
		for _, l := range batch {
			select {
			case ch <- l:
			case <-p.quit:
				return
			}
		}
	}
}

// ReadSession returns the conversation entries of the session file at
// path, as ScanSession finds them; a missing file gives none.
func ReadSession(path string) ([]SessionEntry, error) {
	var out []SessionEntry
	_, err := ScanSession(path, func(e SessionEntry) error {
		out = append(out, e)
		return nil
	})
	return out, err
}
