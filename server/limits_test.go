package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// serveLimited serves a fresh server with the given limits on a real
// loopback listener through Serve (so the connection cap applies) and
// returns its host:port.
func serveLimited(t *testing.T, lim Limits) (*env, string) {
	t.Helper()
	e := newEnv(t, nil)
	o := e.options()
	o.Limits = lim
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	t.Cleanup(func() { // runs before newEnv's clean-up: LIFO
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return e, l.Addr().String()
}

// dialAddr opens a WebSocket with the token on the server at addr.
func dialAddr(t *testing.T, addr, path string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h := http.Header{"Authorization": {"Bearer " + testToken}}
	c, _, err := websocket.Dial(ctx, "ws://"+addr+path, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatalf("dial %s: %v", path, err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// rawConn opens a connection and writes req (which may be a partial
// request) on it.
func rawConn(t *testing.T, addr, req string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if req != "" {
		if _, err := io.WriteString(c, req); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// waitClosed reads c until the server closes it and returns what it sent.
// The deadline only guards against a server that never closes.
func waitClosed(t *testing.T, c net.Conn, what string) string {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Minute))
	b, err := io.ReadAll(c)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("%s: the server kept the connection open", what)
	}
	return string(b)
}

// roundTrip sends one request on an open connection and returns the status.
func roundTrip(t *testing.T, c net.Conn, br *bufio.Reader, req string) int {
	t.Helper()
	_ = c.SetDeadline(time.Now().Add(2 * time.Minute))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatalf("write: %v", err)
	}
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("read answer: %v", err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

const (
	authGet     = "GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + testToken + "\r\n\r\n"
	healthGet   = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
	slowHeaders = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
)

func slowBody(path string, auth bool) string {
	h := "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n"
	if auth {
		h += "Authorization: Bearer " + testToken + "\r\n"
	}
	return h + "\r\n{"
}

// TestSlowAndIdleConnectionsAreClosed: slow bodies (with and without the
// token) and idle keep-alive connections are all closed by the server; a
// slow body is answered 408 and creates nothing. Meanwhile a WebSocket,
// whose connection outlives every timeout, keeps working. Every request
// here sends its headers whole, so the long header timeout never matters.
func TestSlowAndIdleConnectionsAreClosed(t *testing.T) {
	short := 200 * time.Millisecond
	e, addr := serveLimited(t, Limits{HeaderTimeout: time.Hour, BodyTimeout: short, IdleTimeout: short, MaxUnauthConns: 10_000})
	ws := dialAddr(t, addr, "/ws/app")
	readJSON(t, ws, "sessions-sync")

	kinds := []struct{ name, req string }{
		{"slow body", slowBody("/api/login", false)},
		{"slow body with the token", slowBody("/api/sessions", true)},
		{"idle keep-alive", healthGet},
		{"idle keep-alive with the token", authGet},
	}
	const perKind = 40
	conns := make([][]net.Conn, len(kinds))
	for i, k := range kinds {
		for range perKind {
			conns[i] = append(conns[i], rawConn(t, addr, k.req))
		}
	}
	for i, k := range kinds {
		for _, c := range conns[i] {
			got := waitClosed(t, c, k.name)
			if strings.HasPrefix(k.name, "slow body") && !strings.HasPrefix(got, "HTTP/1.1 408") {
				t.Fatalf("%s answered %.40q, want 408", k.name, got)
			}
		}
	}
	if n := len(e.mgr.Sessions()); n != 0 {
		t.Fatalf("slow bodies created %d sessions", n)
	}
	// Every timeout has fired by now; the socket is still served.
	body := `{"cwd":"` + t.TempDir() + `","agent":"none"}`
	c := rawConn(t, addr, "")
	req := "POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + testToken +
		"\r\nContent-Type: application/json\r\nContent-Length: " + fmt.Sprint(len(body)) + "\r\n\r\n" + body
	if code := roundTrip(t, c, bufio.NewReader(c), req); code != http.StatusCreated {
		t.Fatalf("create session: %d", code)
	}
	readJSON(t, ws, "session-created")
}

// TestSlowHeadersAreClosed: connections that never finish their headers
// are closed.
func TestSlowHeadersAreClosed(t *testing.T) {
	_, addr := serveLimited(t, Limits{HeaderTimeout: 200 * time.Millisecond, MaxUnauthConns: 10_000})
	var conns []net.Conn
	for range 40 {
		conns = append(conns, rawConn(t, addr, slowHeaders))
	}
	for i, c := range conns {
		waitClosed(t, c, fmt.Sprint("slow headers ", i))
	}
}

// TestTokenHolderGetsInPastTheCap: connections without the token beyond
// the cap close the oldest ones, so the token holder still gets in; a
// connection that carried the token is never closed for the cap.
func TestTokenHolderGetsInPastTheCap(t *testing.T) {
	const limit = 8
	// Only the cap may close the idle connections here, not a timeout.
	_, addr := serveLimited(t, Limits{MaxUnauthConns: limit, HeaderTimeout: time.Hour})
	trusted := rawConn(t, addr, "")
	tbr := bufio.NewReader(trusted)
	if code := roundTrip(t, trusted, tbr, authGet); code != 200 {
		t.Fatalf("trusted connection: %d", code)
	}
	var idle []net.Conn
	for range 5 * limit {
		idle = append(idle, rawConn(t, addr, ""))
	}
	for i, c := range idle[:len(idle)-limit] {
		waitClosed(t, c, fmt.Sprint("unauthenticated connection ", i))
	}
	// The token holder on a new connection, and on the one it had.
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/sessions", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	client := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("token holder locked out: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("token holder: %d", res.StatusCode)
	}
	if code := roundTrip(t, trusted, tbr, authGet); code != 200 {
		t.Fatalf("trusted connection after the flood: %d", code)
	}
	// The newest unauthenticated connection was kept, and is served.
	last := idle[len(idle)-1]
	if code := roundTrip(t, last, bufio.NewReader(last), authGet); code != 200 {
		t.Fatalf("newest connection: %d", code)
	}
}
