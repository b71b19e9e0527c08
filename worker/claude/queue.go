package claude

// The lines the reader has read and the consumer has not yet taken. A
// channel bounds them in count only: 256 lines of tool output of 30 MB
// each would be 7.5 GB. forward holds them instead, bounded in count and
// in bytes, so a slow consumer pauses the reader, and the reader pauses
// the CLI (its stdout pipe fills), whatever the size of the lines.

const (
	// queuedLines bounds the lines waiting for the consumer.
	queuedLines = 256
	// queuedBytes bounds their bytes: the queue takes another line only
	// while it holds less, so it never holds more than this plus one line.
	queuedBytes = 16 << 20
)

// forward moves lines from the reader (in) to Lines, in order, until in
// closes and every line is taken, or until Close gives up on the consumer.
// It closes Lines when it returns.
func (p *Process) forward(in <-chan Line) {
	defer close(p.lines)
	var q []Line
	size := 0
	for in != nil || len(q) > 0 {
		var out chan<- Line
		var head Line
		if len(q) > 0 {
			out, head = p.lines, q[0]
		}
		recv := in
		if len(q) >= queuedLines || size >= queuedBytes {
			recv = nil // full: the reader waits
		}
		select {
		case l, ok := <-recv:
			if !ok {
				in = nil
				continue
			}
			q = append(q, l)
			size += len(l.Raw)
			p.queued.Store(int64(size))
		case out <- head:
			q[0] = Line{} // let the consumer own the only reference
			q = q[1:]
			size -= len(head.Raw)
			p.queued.Store(int64(size))
			if len(q) == 0 {
				q = q[:0:0] // drop the old array, which append would otherwise keep growing
			}
		case <-p.quit:
			return
		}
	}
}
