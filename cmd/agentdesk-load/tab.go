package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/coder/websocket"
)

// sdkTab is one simulated browser tab on an sdk worker. It records when
// each live assistant message arrived, by seq. Owned by one goroutine.
type sdkTab struct {
	c        *client
	sid, wid string
	conn     *websocket.Conn
	unwatch  func() bool // stops closing conn at the end of the run
	in       frames
	lastSeq  uint64
	lastUUID string
	arrivals []arrival
	kicks    int
	done     bool // a result message arrived (live or in a replay)
}

type arrival struct {
	seq uint64
	at  time.Time
	// lat is the time since the fake CLI wrote the message, from the stamp
	// a paced flood puts in its text (0 without one).
	lat time.Duration
}

var (
	seqPrefix  = []byte(`{"type":"sdk-message","seq":`)
	assistantM = []byte(`"message":{"type":"assistant"`)
	resultT    = []byte(`"type":"result"`) // the fake CLI writes result keys sorted
	historyEnd = []byte(`{"type":"history-end"`)
	uuidKey    = []byte(`"uuid":"`)
	stampKey   = []byte(`"text":"flood line `)
)

// connect dials (after the last message seen, on a reconnect) and reads up
// to history-end.
func (t *sdkTab) connect(ctx context.Context) error {
	q := ""
	if t.lastUUID != "" {
		q = "?after=" + t.lastUUID
	}
	conn, err := t.c.dial(ctx, t.sid, t.wid, q)
	if err != nil {
		return err
	}
	if t.unwatch != nil {
		t.unwatch()
	}
	t.conn, t.in.conn, t.unwatch = conn, conn, watch(ctx, conn)
	for {
		_, b, err := t.in.read()
		if err != nil {
			return fmt.Errorf("read history: %w", err)
		}
		if bytes.HasPrefix(b, historyEnd) {
			return nil
		}
		if t.note(b, time.Now()) {
			t.done = true
		}
	}
}

// readTurn reads until a result message, reconnecting when the server
// closes the tab for falling behind (1013).
func (t *sdkTab) readTurn(ctx context.Context) error {
	defer func() {
		t.unwatch()
		t.conn.CloseNow()
	}()
	for !t.done {
		_, b, err := t.in.read()
		if websocket.CloseStatus(err) == websocket.StatusTryAgainLater {
			t.kicks++
			if err := t.connect(ctx); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("read live: %w", err)
		}
		t.done = t.note(b, time.Now())
	}
	return nil
}

// note records frame b; it reports whether b is a result message.
func (t *sdkTab) note(b []byte, at time.Time) bool {
	if !bytes.HasPrefix(b, seqPrefix) {
		return false
	}
	rest := b[len(seqPrefix):]
	end := bytes.IndexByte(rest, ',')
	if end < 0 {
		return false
	}
	seq, err := strconv.ParseUint(string(rest[:end]), 10, 64)
	if err != nil || seq <= t.lastSeq {
		return false // a stream_event carries the last stored seq
	}
	t.lastSeq = seq
	if i := bytes.LastIndex(b, uuidKey); i >= 0 {
		if j := bytes.IndexByte(b[i+len(uuidKey):], '"'); j > 0 {
			t.lastUUID = string(b[i+len(uuidKey) : i+len(uuidKey)+j])
		}
	}
	if bytes.Contains(rest[:min(len(rest), 64)], assistantM) {
		t.arrivals = append(t.arrivals, arrival{seq: seq, at: at, lat: sinceStamp(b, at)})
		return false
	}
	return bytes.Contains(b, resultT)
}

// errNoFrames means a tab got no assistant message in a turn.
var errNoFrames = errors.New("no assistant messages received")

// sinceStamp returns at minus the write time a paced fake CLI stamped in
// the frame's text, or 0 when there is none. The CLI and this tool run on
// the same machine, so they share the wall clock.
func sinceStamp(b []byte, at time.Time) time.Duration {
	i := bytes.Index(b, stampKey)
	if i < 0 {
		return 0
	}
	rest := b[i+len(stampKey):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return 0
	}
	ns, err := strconv.ParseInt(string(rest[:end]), 10, 64)
	if err != nil {
		return 0
	}
	return at.Sub(time.Unix(0, ns))
}
