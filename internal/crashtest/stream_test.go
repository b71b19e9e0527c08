package crashtest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// streamSum follows a terminal socket, hashing the output (a running
// hash: frame boundaries do not matter) and checking that offsets are
// contiguous.
type streamSum struct {
	h          hash.Hash
	start, end int64
	gaps       int64  // bytes skipped at truncated frames (dropped by the cap)
	tail       []byte // the last bytes received
	odd        int    // bytes that are neither "x" nor part of the DONE line
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
		var f struct {
			Type   string
			Offset int64
		}
		if json.Unmarshal(data, &f) != nil {
			return
		}
		switch {
		case f.Type == "exit":
			s.exited = true
		case f.Type == "truncated" && s.started && f.Offset >= s.end:
			s.gaps += f.Offset - s.end
			s.end = f.Offset
		case f.Type == "truncated" && s.started && s.err == nil:
			s.err = fmt.Errorf("truncated at %d goes back before %d", f.Offset, s.end)
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
	s.tail = append(s.tail, data[8:]...)
	if len(s.tail) > 64 {
		s.tail = append(s.tail[:0], s.tail[len(s.tail)-64:]...)
	}
	for _, b := range data[8:] {
		if !strings.ContainsRune("x\r\nDONE", rune(b)) {
			s.odd++
		}
	}
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
