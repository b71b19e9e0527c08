package crashtest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

const (
	manyClients = 200
	slowClients = 5
	// floodBytes stays under the 8 MiB a terminal keeps, so a slow client
	// can catch up on all of it.
	floodBytes = 7_000_000
)

// TestManyAndSlowClients attaches 200 sockets to one terminal that prints
// 7 MB, 5 of them never reading. The producer completes, every fast client
// gets every byte in order, the slow ones are closed (1013, or the write
// timeout) and catch up exactly by reconnecting with their cursor, and the
// server's memory stays bounded.
func TestManyAndSlowClients(t *testing.T) {
	s := startServer(t, t.TempDir())
	var sess struct{ ID string }
	s.mustJSON("POST", "/api/sessions", `{"cwd":"`+t.TempDir()+`","agent":"none"}`, 201, &sess)
	// The command waits for its go-ahead, so every client is attached
	// before the first byte.
	gate := t.TempDir() + "/go"
	cmd := fmt.Sprintf(`["/bin/sh","-c","while [ ! -e %s ]; do sleep 0.02; done; head -c %d /dev/zero | tr '\\0' x; echo; echo DONE"]`, gate, floodBytes)
	var term struct{ ID string }
	s.mustJSON("POST", "/api/sessions/"+sess.ID+"/workers", `{"kind":"terminal","command":`+cmd+`}`, 201, &term)
	path := "/ws/sessions/" + sess.ID + "/workers/" + term.ID

	fast := make([]*streamSum, manyClients-slowClients)
	var wg sync.WaitGroup
	for i := range fast {
		fast[i] = &streamSum{}
		c := s.dial(path)
		wg.Go(func() {
			fast[i].read(c)
			fast[i].follow(s, path)
		})
	}
	slow := make([]*websocket.Conn, slowClients)
	for i := range slow {
		slow[i] = dialSmallBuffer(t, s, path)
	}
	rss := watchRSS(s.cmd.Process.Pid)
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	peak := rss.stop()
	want := fast[0]
	kicked := 0
	for i, f := range fast {
		if f.err != nil || !f.exited || f.sum() != want.sum() || f.end != want.end || f.start != 0 {
			t.Fatalf("fast client %d: err %v, exited %v, [%d, %d) sum %s; client 0: [0, %d) %s", i, f.err, f.exited, f.start, f.end, f.sum(), want.end, want.sum())
		}
		kicked += min(f.reconnects, 1)
	}
	if want.end < floodBytes {
		t.Fatalf("output ends at %d, want at least %d", want.end, floodBytes)
	}
	t.Logf("%d fast clients got %d bytes each (%d of them fell behind once and caught up); server peak RSS %d MiB",
		len(fast), want.end, kicked, peak>>20)
	if peak > 512<<20 {
		t.Errorf("server RSS reached %d MiB: memory is not bounded by the queues", peak>>20)
	}
	for i, c := range slow {
		catchUp(t, s, path, c, i, want)
	}
	s.stop()
}

// streamSum follows a terminal socket, hashing the output (a running
// hash: frame boundaries do not matter) and checking that offsets are
// contiguous.
type streamSum struct {
	h          hash.Hash
	start, end int64
	started    bool
	exited     bool
	closeBy    websocket.StatusCode
	reconnects int
	err        error
}

// follow reconnects with the cursor, as a tab does, until the output is
// complete. A reconnect that brings no new byte counts towards the limit;
// one that makes progress does not, however busy the machine.
func (s *streamSum) follow(srv *server, path string) {
	for idle := 0; !s.exited && s.err == nil; s.reconnects++ {
		if idle == 10 {
			s.err = fmt.Errorf("no progress in %d reconnects at offset %d", idle, s.end)
			return
		}
		before := s.end
		c, err := dialWith(srv, path+"?offset="+strconv.FormatInt(s.end, 10), http.DefaultClient)
		if err == nil {
			s.read(c)
		}
		if s.end == before {
			idle++ // a busy server or a dropped dial: a tab tries again, so do we
		} else {
			idle = 0
		}
	}
}

func (s *streamSum) sum() string {
	if s.h == nil {
		return ""
	}
	return fmt.Sprintf("%x", s.h.Sum(nil))
}

// read handles frames until the exit frame or the socket ends. Only a
// stuck server ends it otherwise: the guard is the test binary's own
// deadline, so a slow, loaded machine is never mistaken for a failure.
func (s *streamSum) read(c *websocket.Conn) {
	defer c.CloseNow()
	ctx, cancel := guardContext()
	defer cancel()
	for !s.exited {
		typ, data, err := c.Read(ctx)
		if err != nil {
			s.closeBy = websocket.CloseStatus(err)
			if s.closeBy == -1 && ctx.Err() != nil {
				s.err = err
			}
			return
		}
		s.frame(typ, data)
	}
}

func (s *streamSum) frame(typ websocket.MessageType, data []byte) {
	if typ == websocket.MessageText {
		var f struct{ Type string }
		if json.Unmarshal(data, &f) == nil && f.Type == "exit" {
			s.exited = true
		}
		return
	}
	off := int64(binary.BigEndian.Uint64(data[:8]))
	if !s.started {
		s.start, s.end, s.started = off, off, true
		if s.h == nil {
			s.h = sha256.New()
		}
	}
	if off != s.end && s.err == nil {
		s.err = fmt.Errorf("frame at offset %d, expected %d", off, s.end)
	}
	s.h.Write(data[8:])
	s.end = off + int64(len(data)-8)
}

// dialSmallBuffer connects with a small receive buffer, so a client that
// does not read pushes back on the server quickly.
func dialSmallBuffer(t *testing.T, s *server, path string) *websocket.Conn {
	t.Helper()
	d := &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 16<<10)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	c, err := dialWith(s, path, &http.Client{Transport: &http.Transport{DialContext: d.DialContext}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// dialWith opens a worker socket; safe to call from any goroutine.
func dialWith(s *server, path string, client *http.Client) (*websocket.Conn, error) {
	ctx, cancel := guardContext()
	defer cancel()
	c, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+path, &websocket.DialOptions{
		HTTPClient: client, HTTPHeader: http.Header{"Authorization": {"Bearer " + s.token}},
	})
	if res != nil && res.Body != nil {
		res.Body.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", path, err)
	}
	c.SetReadLimit(16 << 20)
	return c, nil
}

// catchUp reads what a slow client's socket still holds until the server
// closed it, then reconnects with its cursor until the output is complete,
// and compares with a fast client.
func catchUp(t *testing.T, s *server, path string, c *websocket.Conn, i int, want *streamSum) {
	t.Helper()
	ss := &streamSum{}
	ss.read(c)
	if ss.exited {
		t.Fatalf("slow client %d was never closed: it got the whole output", i)
	}
	if ss.closeBy != websocket.StatusTryAgainLater {
		t.Logf("slow client %d: closed with %v after %d bytes (write timeout)", i, ss.closeBy, ss.end)
	} else {
		t.Logf("slow client %d: closed with 1013 after %d bytes", i, ss.end)
	}
	ss.follow(s, path)
	if ss.err != nil || ss.start != 0 || ss.end != want.end || ss.sum() != want.sum() {
		t.Fatalf("slow client %d after catch-up: err %v, [%d, %d) %s; want [0, %d) %s", i, ss.err, ss.start, ss.end, ss.sum(), want.end, want.sum())
	}
}

// rssWatch samples a process's resident memory until stopped.
type rssWatch struct {
	quit chan struct{}
	done chan int64
}

func watchRSS(pid int) *rssWatch {
	w := &rssWatch{quit: make(chan struct{}), done: make(chan int64, 1)}
	go func() {
		var peak int64
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, vmRSS(pid))
			select {
			case <-w.quit:
				w.done <- max(peak, vmHWM(pid))
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *rssWatch) stop() int64 {
	close(w.quit)
	return <-w.done
}

func vmRSS(pid int) int64 { return statusKB(pid, "VmRSS:") }
func vmHWM(pid int) int64 { return statusKB(pid, "VmHWM:") }

// statusKB reads a "<key> <n> kB" line of /proc/<pid>/status, in bytes.
func statusKB(pid int, key string) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == key {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n << 10
		}
	}
	return 0
}
