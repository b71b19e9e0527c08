package fakeopenai

import (
	"net"
	"sync/atomic"
)

// refusing is a listener that closes each connection it accepts while down
// is set: to the client, a server that cannot be reached.
type refusing struct {
	net.Listener
	down *atomic.Bool
}

func (l refusing) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil || !l.down.Load() {
			return c, err
		}
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetLinger(0) // a reset, not an orderly close
		}
		c.Close()
	}
}
