package server

import (
	"net/http"
	"strings"
	"testing"
)

func TestAuthRefusals(t *testing.T) {
	e := newEnv(t, nil)
	cases := []struct {
		name   string
		hdr    []string
		status int
	}{
		{"no token", []string{"Authorization", ""}, 401},
		{"wrong token", []string{"Authorization", "Bearer " + strings.Repeat("f", 32)}, 401},
		{"partial token", []string{"Authorization", "Bearer " + testToken[:16]}, 401},
		{"token with suffix", []string{"Authorization", "Bearer " + testToken + "0"}, 401},
		{"not bearer", []string{"Authorization", "Basic " + testToken}, 401},
		{"bearer", nil, 200},
		{"cookie", []string{"Authorization", "", "Cookie", cookieName(testToken) + "=" + testToken}, 200},
		{"wrong cookie", []string{"Authorization", "", "Cookie", cookieName(testToken) + "=x"}, 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := e.do("GET", "/api/sessions", nil, c.hdr...)
			if a.status != c.status {
				t.Fatalf("status %d, want %d: %s", a.status, c.status, a.body)
			}
			if c.status == 401 && a.errCode(t) != "unauthorized" {
				t.Fatalf("code: %s", a.body)
			}
		})
	}
}

// TestEveryRouteNeedsAuth enumerates the routes, so a new route without
// authentication fails here.
func TestEveryRouteNeedsAuth(t *testing.T) {
	e := newEnv(t, nil)
	open := map[string]bool{"GET /api/health": true, "POST /api/login": true, "HEAD /api/health": true}
	n := 0
	for _, r := range e.srv.e.Routes() {
		if !strings.HasPrefix(r.Path, "/api") && !strings.HasPrefix(r.Path, "/ws") {
			continue
		}
		method := r.Method
		if method == "echo_route_any" || method == "*" {
			method = "POST"
		}
		if open[method+" "+r.Path] {
			continue
		}
		path := strings.NewReplacer(":sid", "s1", ":wid", "w1", "*", "x").Replace(r.Path)
		a := e.do(method, path, nil, "Authorization", "")
		if a.status != http.StatusUnauthorized {
			t.Errorf("%s %s without token: %d %s", method, path, a.status, a.body)
		}
		n++
	}
	if n < 15 {
		t.Fatalf("only %d protected routes found; the enumeration is broken", n)
	}
}

func TestHealthAndLogin(t *testing.T) {
	e := newEnv(t, nil)
	if a := e.do("GET", "/api/health", nil, "Authorization", ""); a.status != 200 || !strings.Contains(string(a.body), `"status":"ok"`) {
		t.Fatalf("health: %d %s", a.status, a.body)
	}
	a := e.do("POST", "/api/login", map[string]string{"token": "nope"}, "Authorization", "")
	if a.status != 401 || a.errCode(t) != "unauthorized" {
		t.Fatalf("wrong login: %d %s", a.status, a.body)
	}
	a = e.do("POST", "/api/login", map[string]string{"token": testToken}, "Authorization", "")
	if a.status != 204 {
		t.Fatalf("login: %d %s", a.status, a.body)
	}
	checkCookie(t, a.header)
	if a := e.do("POST", "/api/login", "{", "Authorization", ""); a.status != 400 || a.errCode(t) != "invalid_json" {
		t.Fatalf("bad json login: %d %s", a.status, a.body)
	}
}

func checkCookie(t *testing.T, h http.Header) {
	t.Helper()
	sc := h.Get("Set-Cookie")
	for _, want := range []string{cookieName(testToken) + "=" + testToken, "HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(sc, want) {
			t.Fatalf("cookie %q lacks %q", sc, want)
		}
	}
}

func TestTokenURLLogin(t *testing.T) {
	e := newEnv(t, nil)
	a := e.do("GET", "/?token="+testToken, nil, "Authorization", "")
	if a.status != http.StatusSeeOther || a.header.Get("Location") != "/" {
		t.Fatalf("valid token: %d %v", a.status, a.header)
	}
	checkCookie(t, a.header)
	a = e.do("GET", "/?token=wrong", nil, "Authorization", "")
	if a.status != http.StatusUnauthorized || a.header.Get("Set-Cookie") != "" {
		t.Fatalf("wrong token: %d %v", a.status, a.header)
	}
	if !strings.Contains(string(a.body), "wrong token") {
		t.Fatalf("login page has no error: %s", a.body)
	}
}

func TestOriginAndHostRefusals(t *testing.T) {
	e := newEnv(t, nil)
	cases := []struct {
		name   string
		hdr    []string
		status int
	}{
		{"foreign origin", []string{"Origin", "https://evil.example"}, 403},
		{"null origin", []string{"Origin", "null"}, 403},
		{"rebinding host", []string{"Host", "evil.example:7878"}, 403},
		{"rebinding host and origin", []string{"Host", "evil.example", "Origin", "http://evil.example"}, 403},
		{"localhost host", []string{"Host", "localhost:1234"}, 200},
		{"ipv6 loopback", []string{"Host", "[::1]:80"}, 200},
		{"same origin", nil, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, path := range []string{"/api/sessions", "/api/health", "/"} {
				a := e.do("GET", path, nil, c.hdr...)
				if c.status == 403 && (a.status != 403 || a.errCode(t) != "forbidden") {
					t.Fatalf("%s: %d %s", path, a.status, a.body)
				}
				if c.status == 200 && a.status != 200 {
					t.Fatalf("%s: %d %s", path, a.status, a.body)
				}
			}
		})
	}
	// A same-origin Origin is allowed; the server's own origin is its Host.
	host := strings.TrimPrefix(e.ts.URL, "http://")
	if a := e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "none"}, "Origin", "http://"+host); a.status != 201 {
		t.Fatalf("same-origin POST: %d %s", a.status, a.body)
	}
	// CSRF: a cross-site POST is refused and changes nothing.
	if a := e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "none"}, "Origin", "http://evil.example"); a.status != 403 {
		t.Fatalf("cross-site POST: %d", a.status)
	}
	if n := len(e.mgr.Sessions()); n != 1 {
		t.Fatalf("%d sessions after a refused POST, want 1", n)
	}
}

func TestSocketRefusals(t *testing.T) {
	e := newEnv(t, nil)
	cases := []struct {
		name string
		hdr  []string
	}{
		{"no token", []string{"Authorization", ""}},
		{"wrong token", []string{"Authorization", "Bearer nope"}},
		{"cross-site hijacking", []string{"Origin", "https://evil.example", "Authorization", "", "Cookie", cookieName(testToken) + "=" + testToken}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, p := range []string{"/ws/app", "/ws/sessions/x/workers/y"} {
				if conn, err := e.tryDial(p, c.hdr...); err == nil {
					conn.CloseNow()
					t.Fatalf("%s: upgrade accepted", p)
				}
			}
		})
	}
	// The Go client cannot forge Host on a dial, so the rebinding check of
	// the upgrade request is made with a plain request carrying the
	// upgrade headers.
	for _, p := range []string{"/ws/app", "/ws/sessions/x/workers/y"} {
		a := e.do("GET", p, nil, "Host", "evil.example", "Connection", "Upgrade", "Upgrade", "websocket",
			"Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
		if a.status != 403 {
			t.Fatalf("%s with a foreign Host: %d", p, a.status)
		}
	}
}
