package crashtest

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/hub"
)

const slowClients = 5

// TestSlowClientsAreKicked attaches 3 reading and 5 never-reading sockets
// to a terminal that prints more than a socket can hold (the hub's queue
// bound plus the kernel's socket buffers, twice over). The producer never
// waits for the slow ones: they are closed (1013, or the write timeout),
// the fast ones get every byte, and each slow one reconnects with its
// cursor and ends exactly where the fast ones do, skipping only what the
// terminal no longer keeps, announced by a truncated frame.
func TestSlowClientsAreKicked(t *testing.T) {
	flood := 2*(hub.MaxQueueBytes+kernelSendBuffer()) + 1<<20
	s := startServer(t, t.TempDir())
	path, gate := floodTerminal(t, s, flood)
	fast := make([]*streamSum, 3)
	var wg sync.WaitGroup
	for i := range fast {
		fast[i] = &streamSum{}
		c := s.dial(path)
		wg.Go(func() { fast[i].read(c); fast[i].follow(s, path) })
	}
	slow := make([]*websocket.Conn, slowClients)
	for i := range slow {
		slow[i] = dialSmallBuffer(t, s, path)
	}
	rss := watchRSS(s.cmd.Process.Pid)
	openGate(t, gate)
	wg.Wait()
	peak := rss.stop()
	// A reading client may fall behind too on a loaded machine and then
	// skip what the terminal no longer keeps, like a slow one: each must
	// end where the others do, with only the expected bytes.
	want := fast[0]
	for i, f := range fast {
		if f.err != nil || !f.exited || f.end != want.end || f.start != 0 || f.odd != 0 || !bytes.Equal(f.tail, want.tail) {
			t.Fatalf("fast client %d: err %v, exited %v, [%d, %d), %d unexpected bytes, tail %q; client 0: [0, %d) ending %q",
				i, f.err, f.exited, f.start, f.end, f.odd, f.tail, want.end, want.tail)
		}
	}
	if want.end < flood || want.odd != 0 {
		t.Fatalf("output ends at %d with %d unexpected bytes, want at least %d bytes of x", want.end, want.odd, flood)
	}
	t.Logf("terminal printed %d bytes; server peak RSS %d MiB", want.end, peak>>20)
	if peak > 512<<20 {
		t.Errorf("server RSS reached %d MiB: memory is not bounded by the queues", peak>>20)
	}
	for i, c := range slow {
		catchUp(t, s, path, c, i, want)
	}
	s.stop()
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
	t.Logf("slow client %d: closed with %v after %d bytes", i, ss.closeBy, ss.end)
	ss.follow(s, path)
	if ss.err != nil || ss.start != 0 || ss.end != want.end || ss.odd != 0 || !bytes.Equal(ss.tail, want.tail) {
		t.Fatalf("slow client %d after catch-up: err %v, [%d, %d), %d unexpected bytes, tail %q; want [0, %d) ending %q",
			i, ss.err, ss.start, ss.end, ss.odd, ss.tail, want.end, want.tail)
	}
}

// kernelSendBuffer is the most a TCP socket's send buffer grows to
// (net.ipv4.tcp_wmem's maximum), 4 MiB when it cannot be read.
func kernelSendBuffer() int64 {
	b, err := os.ReadFile("/proc/sys/net/ipv4/tcp_wmem")
	if f := strings.Fields(string(b)); err == nil && len(f) == 3 {
		if n, err := strconv.ParseInt(f[2], 10, 64); err == nil {
			return n
		}
	}
	return 4 << 20
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
