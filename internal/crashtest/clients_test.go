package crashtest

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// sdkRecorder reads an sdk worker's socket in its own goroutine until the
// socket ends, keeping every stored message (stream events are skipped) in
// the order received.
type sdkRecorder struct {
	conn *websocket.Conn
	done chan struct{}

	mu      sync.Mutex
	msgs    []message
	results int
	errs    []string // error frames
	other   []string // types of the other frames, in order
	closeBy websocket.StatusCode
}

func recordSDK(conn *websocket.Conn) *sdkRecorder {
	r := &sdkRecorder{conn: conn, done: make(chan struct{})}
	go r.loop()
	return r
}

func (r *sdkRecorder) loop() {
	defer close(r.done)
	for {
		_, data, err := r.conn.Read(context.Background())
		if err != nil {
			r.mu.Lock()
			r.closeBy = websocket.CloseStatus(err)
			r.mu.Unlock()
			return
		}
		var f struct {
			Type    string
			Seq     uint64
			Code    string
			Message json.RawMessage
		}
		if json.Unmarshal(data, &f) != nil {
			continue
		}
		r.mu.Lock()
		switch f.Type {
		case "sdk-message":
			var m struct{ UUID, Type string }
			_ = json.Unmarshal(f.Message, &m)
			if m.Type != "stream_event" {
				r.msgs = append(r.msgs, message{Seq: f.Seq, UUID: m.UUID, Type: m.Type})
				if m.Type == "result" {
					r.results++
				}
			}
		case "error":
			r.errs = append(r.errs, f.Code+": "+string(f.Message))
		default:
			r.other = append(r.other, f.Type)
		}
		r.mu.Unlock()
	}
}

// snapshot returns what was received so far.
func (r *sdkRecorder) snapshot() (msgs []message, results int, errs []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]message(nil), r.msgs...), r.results, append([]string(nil), r.errs...)
}

// waitFor polls until cond holds for what was received, or the deadline.
func (r *sdkRecorder) waitFor(d time.Duration, cond func(msgs []message, results int, errs []string) bool) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond(r.snapshot()) {
			return true
		}
		select {
		case <-r.done:
			return cond(r.snapshot())
		case <-time.After(10 * time.Millisecond):
		}
	}
	return false
}

// saw reports whether a frame of type typ (not sdk-message or error)
// arrived.
func (r *sdkRecorder) saw(typ string) bool { return r.seen(typ) > 0 }

// seen counts the frames of type typ (not sdk-message or error).
func (r *sdkRecorder) seen(typ string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, o := range r.other {
		if o == typ {
			n++
		}
	}
	return n
}

// close ends the socket and waits for the reader.
func (r *sdkRecorder) close() {
	r.conn.CloseNow()
	<-r.done
}

// termRecorder reads a terminal socket, checking that output offsets are
// contiguous, and records the end of what it received.
type termRecorder struct {
	conn *websocket.Conn
	done chan struct{}

	mu         sync.Mutex
	historyEnd int64 // -1 until history-end
	first      int64 // offset of the first output frame, -1 before
	end        int64 // offset after the last byte received
	bytes      int64
	err        error // a broken offset invariant
	closeBy    websocket.StatusCode
}

func recordTerm(conn *websocket.Conn) *termRecorder {
	r := &termRecorder{conn: conn, done: make(chan struct{}), historyEnd: -1, first: -1, end: -1}
	go r.loop()
	return r
}

func (r *termRecorder) loop() {
	defer close(r.done)
	for {
		typ, data, err := r.conn.Read(context.Background())
		if err != nil {
			r.mu.Lock()
			r.closeBy = websocket.CloseStatus(err)
			r.mu.Unlock()
			return
		}
		r.mu.Lock()
		r.frame(typ, data)
		r.mu.Unlock()
	}
}

// frame must be called with r.mu held.
func (r *termRecorder) frame(typ websocket.MessageType, data []byte) {
	if typ == websocket.MessageText {
		var f struct {
			Type   string
			Offset int64
		}
		if json.Unmarshal(data, &f) != nil {
			return
		}
		switch {
		case f.Type == "history-end" && r.historyEnd < 0:
			r.historyEnd = f.Offset
		case f.Type == "truncated" && f.Offset >= r.end:
			// Output resumes later: bytes lost in a crash left a hole.
			if r.first < 0 {
				r.first = f.Offset
			}
			r.end = f.Offset
		case f.Type == "truncated":
			r.fail(fmt.Errorf("truncated at %d goes back before %d", f.Offset, r.end))
		}
		return
	}
	if len(data) < 8 {
		r.fail(fmt.Errorf("binary frame of %d bytes", len(data)))
		return
	}
	off := int64(binary.BigEndian.Uint64(data[:8]))
	if r.first < 0 {
		r.first, r.end = off, off
	}
	if off != r.end {
		r.fail(fmt.Errorf("frame at offset %d, expected %d", off, r.end))
	}
	r.end = off + int64(len(data)-8)
	r.bytes += int64(len(data) - 8)
}

func (r *termRecorder) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *termRecorder) close() {
	r.conn.CloseNow()
	<-r.done
}
