package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/coder/websocket"
)

const (
	floodLines  = 20_000
	fastSockets = 17
	slowSockets = 3
	// stallTimeout fails the test when no fast socket got a message for
	// that long: a producer blocked by the slow sockets makes no progress
	// at all, so a minute tells it from a machine that is merely busy.
	stallTimeout = time.Minute
	// floodGuard bounds the whole turn: a failure guard only (20,000
	// messages to 17 sockets under -race take minutes on a busy machine);
	// stallTimeout is what detects a blocked producer.
	floodGuard = 10 * time.Minute
)

// TestSlowSDKClientsAreKicked floods 20 sockets of one sdk worker with
// 20,000 small messages; 3 sockets never read. The producer finishes (the
// whole turn is stored and every fast socket has it) while the slow ones
// have not read a byte, so it never waited for them; the slow ones are then
// found closed and catch up exactly with ?after=.
func TestSlowSDKClientsAreKicked(t *testing.T) {
	e := sdkEnv(t)
	e.stop()
	e.cfg.ChildEnv = append(os.Environ(), fmt.Sprintf("FAKECLAUDE_FLOOD=%d", floodLines))
	e.start()
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	path := "/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID

	slow := make([]*websocket.Conn, slowSockets)
	for i := range slow {
		slow[i] = dialSmallBuffer(t, e, path)
		defer slow[i].CloseNow()
	}
	ctx, cancel := context.WithTimeout(context.Background(), floodGuard)
	defer cancel()
	fast := make([]*sdkFollower, fastSockets)
	var wg sync.WaitGroup
	for i := range fast {
		fast[i] = &sdkFollower{}
		c := e.dial(path)
		readJSON(t, c, "history-end") // attached before the turn starts
		wg.Go(func() { fast[i].follow(ctx, e, path, c) })
	}
	if a := e.do("POST", base+"/input", map[string]string{"content": "flood"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	start := time.Now()
	if n := waitProgress(&wg, fast, cancel); n >= 0 {
		t.Fatalf("no fast socket got a message for %v (%d messages in all) while %d sockets did not read: the producer is blocked by slow clients",
			stallTimeout, n, slowSockets)
	}
	t.Logf("turn streamed to the fast sockets in %v", time.Since(start))
	if ctx.Err() != nil {
		t.Fatalf("the turn did not finish: %v", ctx.Err())
	}
	history := restHistory(t, e, base)
	if len(history) < floodLines {
		t.Fatalf("REST history has %d messages, want over %d", len(history), floodLines)
	}
	reconnects := 0
	for i, f := range fast {
		if f.err != nil || !equal(f.ids, history) {
			t.Fatalf("fast socket %d: err %v, %d messages, REST has %d", i, f.err, len(f.ids), len(history))
		}
		reconnects += f.reconnects
	}
	t.Logf("%d fast sockets got all %d messages (%d reconnects)", fastSockets, len(history), reconnects)

	// Only now read the slow sockets: they were closed, and catch up.
	for i, c := range slow {
		f := &sdkFollower{}
		code := f.read(ctx, c)
		if f.done {
			t.Fatalf("slow socket %d was never closed: it got the whole turn", i)
		}
		if code != websocket.StatusTryAgainLater && code != -1 { // -1: closed after the write timeout
			t.Fatalf("slow socket %d closed with %v, want 1013 or a dropped connection", i, code)
		}
		t.Logf("slow socket %d: closed (%v) after %d messages", i, code, len(f.ids))
		f.follow(ctx, e, path, nil)
		if f.err != nil || !equal(f.ids, history) {
			t.Fatalf("slow socket %d after catch-up: err %v, %d messages, REST has %d", i, f.err, len(f.ids), len(history))
		}
	}
}

// sdkFollower reads an sdk socket as a tab does: stored messages in order,
// reconnecting with ?after= when the server closes the socket, until the
// turn's result.
type sdkFollower struct {
	got        atomic.Int64 // messages read, for waitProgress
	ids        []string
	done       bool
	reconnects int
	err        error
}

// follow reads c (when not nil), then reconnects until the result arrives.
func (f *sdkFollower) follow(ctx context.Context, e *env, path string, c *websocket.Conn) {
	if c != nil {
		f.read(ctx, c)
	}
	for ; !f.done && f.err == nil && ctx.Err() == nil; f.reconnects++ {
		if f.reconnects == 20 {
			f.err = fmt.Errorf("no result after %d reconnects", f.reconnects)
			return
		}
		q := ""
		if n := len(f.ids); n > 0 {
			q = "?after=" + f.ids[n-1]
		}
		c, err := e.tryDial(path + q)
		if err != nil {
			continue
		}
		c.SetReadLimit(16 << 20)
		f.read(ctx, c)
	}
}

// read handles frames until the result or the socket ends, and returns the
// close status.
func (f *sdkFollower) read(ctx context.Context, c *websocket.Conn) websocket.StatusCode {
	defer c.CloseNow()
	for !f.done {
		_, data, err := c.Read(ctx)
		if err != nil {
			return websocket.CloseStatus(err)
		}
		var fr struct {
			Type    string
			Message struct{ Type, UUID string }
		}
		if err := json.Unmarshal(data, &fr); err != nil {
			f.err = fmt.Errorf("frame is not JSON: %.100s", data)
			return -1
		}
		if fr.Type != "sdk-message" || fr.Message.Type == "stream_event" {
			continue
		}
		if n := len(f.ids); n > 0 && f.ids[n-1] == fr.Message.UUID {
			f.err = fmt.Errorf("message %s twice", fr.Message.UUID)
		}
		f.ids = append(f.ids, fr.Message.UUID)
		f.got.Add(1)
		f.done = fr.Message.Type == "result"
	}
	return websocket.StatusNormalClosure
}

// waitProgress waits for the followers; when none of them got a message
// for stallTimeout it cancels them and returns the number they got, else -1.
func waitProgress(wg *sync.WaitGroup, fs []*sdkFollower, cancel context.CancelFunc) int64 {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	last, since := int64(-1), time.Now()
	for {
		select {
		case <-done:
			return -1
		case <-tick.C:
		}
		var n int64
		for _, f := range fs {
			n += f.got.Load()
		}
		if n != last {
			last, since = n, time.Now()
		} else if time.Since(since) > stallTimeout {
			cancel()
			<-done
			return n
		}
	}
}

// restHistory pages through the worker's stored messages.
func restHistory(t *testing.T, e *env, base string) []string {
	t.Helper()
	var ids []string
	for range 100 {
		q := "?limit=5000"
		if len(ids) > 0 {
			q += "&after=" + ids[len(ids)-1]
		}
		var page struct {
			Messages []struct{ Message struct{ UUID string } }
			HasMore  bool
		}
		e.do("GET", base+"/messages"+q, nil).json(t, &page)
		for _, m := range page.Messages {
			ids = append(ids, m.Message.UUID)
		}
		if !page.HasMore {
			return ids
		}
	}
	t.Fatal("REST history never ends")
	return nil
}

// dialSmallBuffer connects with a 16 KiB receive buffer, so a socket that
// does not read pushes back on the server quickly.
func dialSmallBuffer(t *testing.T, e *env, path string) *websocket.Conn {
	t.Helper()
	d := &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		if err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 16<<10)
		}); err != nil {
			return err
		}
		return serr
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.ts.URL, "http")+path, &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: d.DialContext}},
		HTTPHeader: http.Header{"Authorization": {"Bearer " + testToken}},
	})
	if res != nil && res.Body != nil {
		res.Body.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(16 << 20)
	return c
}
