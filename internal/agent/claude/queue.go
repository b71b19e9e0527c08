package claude

// The lines the reader has read and the consumer has not yet taken. A
// channel bounds them in count only: 256 lines of tool output of 30 MB
// each would be 7.5 GB. forward holds them instead, bounded in count and
// in bytes, and the reader reads only on credit from it: it asks before it
// reads, so a slow consumer stops the reader before the next line is in
// memory, and the CLI waits on its full stdout, whatever the size of the
// lines. The consumer takes all the lines waiting at once (Batches): one
// channel operation for a burst, and one store call and queue send for it
// downstream.

const (
	// queuedLines bounds the lines waiting for the consumer.
	queuedLines = 256
	// queuedBytes bounds their bytes. Credit is given while the queue
	// holds less, and the last line read on it may overshoot: the queue
	// never holds more than this plus one line.
	queuedBytes = 4 << 20
)

// credit is what the reader may read before it asks again.
type credit struct{ bytes, lines int }

// forward queues lines from the reader (in) and hands all of them at once
// to the consumer (Batches) whenever it is ready, and gives the reader
// credit while the queue has room, until in closes and every line is
// taken, or until Close gives up on the consumer. It closes Batches when
// it returns.
func (p *Process) forward(in <-chan Line) {
	defer close(p.batches)
	var q []Line
	size := 0
	for in != nil || len(q) > 0 {
		var out chan<- []Line
		if len(q) > 0 {
			out = p.batches
		}
		var room chan<- credit
		if in != nil && size < queuedBytes && len(q) < queuedLines {
			room = p.room // the reader takes it only when it has none left
		}
		select {
		case room <- credit{bytes: queuedBytes - size, lines: queuedLines - len(q)}:
		case l, ok := <-in:
			if !ok {
				in = nil
				continue
			}
			q = append(q, l)
			size += len(l.Raw)
			p.queued.Store(int64(size))
		case out <- q:
			q, size = nil, 0 // the consumer owns them now
			p.queued.Store(0)
		case <-p.quit:
			return
		}
	}
}

// take waits for credit before the reader reads another line; false once
// Close has given up on the consumer.
func (p *Process) take(c *credit) bool {
	if c.bytes > 0 && c.lines > 0 {
		return true
	}
	select {
	case *c = <-p.room:
		return true
	case <-p.quit:
		return false
	}
}
