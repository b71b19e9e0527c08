package claude

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
)

// maxLineSize is MaxLineSize, lowered by tests (export_test.go).
var maxLineSize = MaxLineSize

// readStdout turns stdout into Lines until EOF (or until Close unblocks it).
func (p *Process) readStdout() {
	defer close(p.read)
	// Pending Control calls see readDone: no reply can come anymore.
	defer close(p.readDone)
	r := bufio.NewReaderSize(p.stdout, 64<<10)
	var c credit
	for p.take(&c) {
		buf, off, err := readLineRoom(r, p.maxLine)
		raw := buf[off:]
		c.bytes -= len(raw)
		c.lines--
		if err == nil || len(raw) > 0 || errors.Is(err, ErrLineTooLong) {
			p.dispatch(buf, off, err)
		}
		if err != nil && !errors.Is(err, ErrLineTooLong) {
			return
		}
	}
}

// dispatch hands a reply to its Control call, or the line (buf[off:]) to
// Lines.
func (p *Process) dispatch(buf []byte, off int, readErr error) {
	raw := buf[off:]
	var l Line
	if readErr != nil && !errors.Is(readErr, io.EOF) {
		l = Line{Raw: raw, Err: readErr}
	} else {
		if len(bytes.TrimSpace(raw)) == 0 {
			return // a blank line carries nothing
		}
		var err error
		l, err = ParseLine(raw)
		l.Err = err
		if err == nil && off > 0 {
			l.buf, l.off = buf, off
		}
	}
	if l.Type == "control_response" && p.deliverReply(l) {
		return
	}
	// forward takes every line read on its credit, unless Close has given
	// up on the consumer.
	select {
	case p.read <- l:
	case <-p.quit:
	}
}

// deliverReply passes a control_response to the Control call waiting for
// it. It reports whether the id was ours.
func (p *Process) deliverReply(l Line) bool {
	p.mu.Lock()
	ch, ok := p.pending[l.RequestID]
	delete(p.pending, l.RequestID)
	p.mu.Unlock()
	if ok {
		ch <- l // buffered 1, one send per id
	}
	return ok || isOurID(l.RequestID)
}

// drainStderr keeps the tail of stderr. It must always run: a CLI blocked
// on a full stderr pipe would stall.
func (p *Process) drainStderr() {
	defer close(p.stderrDone)
	buf := make([]byte, 8<<10)
	for {
		n, err := p.stderr.Read(buf)
		p.stderrBuf.Write(buf[:n])
		if err != nil {
			return
		}
	}
}

// lastLines returns the last n non-empty lines of s, joined by " | ".
func lastLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return strings.Join(out, " | ")
}
