package server

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// rawUpgrade opens a WebSocket on path by hand, so that the test can send
// frames no client library would.
func rawUpgrade(t *testing.T, base, path string) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(2 * time.Minute)) // failure guard
	req := "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer " + testToken + "\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %s", res.Status)
	}
	return conn, br
}

// readClose reads server frames until a close frame and returns its status.
func readClose(t *testing.T, br *bufio.Reader) websocket.StatusCode {
	t.Helper()
	for range 1000 {
		var h [2]byte
		if _, err := io.ReadFull(br, h[:]); err != nil {
			t.Fatalf("connection ended without a close frame: %v", err)
		}
		n := int(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			_, _ = io.ReadFull(br, b[:])
			n = int(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			_, _ = io.ReadFull(br, b[:])
			n = int(binary.BigEndian.Uint64(b[:]))
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(br, payload); err != nil {
			t.Fatal(err)
		}
		if h[0]&0x0f == 0x8 {
			if n < 2 {
				t.Fatalf("close frame without a status")
			}
			return websocket.StatusCode(binary.BigEndian.Uint16(payload))
		}
	}
	t.Fatal("no close frame in 1000 frames")
	return 0
}

// TestUnmaskedClientFrameCloses1002: a client frame without a mask breaks
// RFC 6455 (5.1); the server closes with 1002 (protocol error), not 1001
// (going away).
func TestUnmaskedClientFrameCloses1002(t *testing.T) {
	e := newEnv(t, nil)
	conn, br := rawUpgrade(t, e.ts.URL, "/ws/app")
	unmasked := append([]byte{0x81, 2}, "{}"...) // FIN, text, no mask bit
	if _, err := conn.Write(unmasked); err != nil {
		t.Fatal(err)
	}
	if got := readClose(t, br); got != websocket.StatusProtocolError {
		t.Fatalf("unmasked frame closed with %d, want 1002", got)
	}
}
