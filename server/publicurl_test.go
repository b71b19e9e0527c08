package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// withOptions returns a copy of e whose requests go to a second server on
// the same manager, built with the options o (Manager and Token are e's).
func withOptions(t *testing.T, e *env, o Options) *env {
	t.Helper()
	o.Manager, o.Token, o.Frontend = e.mgr, testToken, testFrontend
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { // before e's own clean-up: LIFO
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		_ = srv.Shutdown(ctx)
		ts.Close()
	})
	c := *e
	c.srv, c.ts, c.stopped = srv, ts, true
	return &c
}

// TestPublicURL: behind a TLS proxy (--public-url https://…) the login
// cookie is Secure, and the public origin and host are allowed on a
// loopback bind; without it they are refused and the cookie is not Secure.
func TestPublicURL(t *testing.T) {
	e := newEnv(t, nil)
	pub := withOptions(t, e, Options{Loopback: true, PublicURL: "https://desk.example.com/"})
	proxied := []string{"Authorization", "", "Host", "desk.example.com", "Origin", "https://desk.example.com"}
	a := pub.do("POST", "/api/login", `{"token":"`+testToken+`"}`, proxied...)
	if a.status != http.StatusNoContent {
		t.Fatalf("login through the proxy: %d %s", a.status, a.body)
	}
	checkCookie(t, a.header)
	if !strings.Contains(a.header.Get("Set-Cookie"), "Secure") {
		t.Fatalf("cookie without Secure behind an https public URL: %s", a.header.Get("Set-Cookie"))
	}
	if a := pub.do("GET", "/?token="+testToken, nil, proxied...); !strings.Contains(a.header.Get("Set-Cookie"), "Secure") {
		t.Fatalf("URL login: cookie without Secure: %d %s", a.status, a.header.Get("Set-Cookie"))
	}

	a = e.do("POST", "/api/login", `{"token":"`+testToken+`"}`, proxied...)
	if a.status != http.StatusForbidden {
		t.Fatalf("without --public-url the proxied host was accepted: %d", a.status)
	}
	a = e.do("POST", "/api/login", `{"token":"`+testToken+`"}`, "Authorization", "")
	if a.status != http.StatusNoContent || strings.Contains(a.header.Get("Set-Cookie"), "Secure") {
		t.Fatalf("plain local login: %d %s", a.status, a.header.Get("Set-Cookie"))
	}
}

func TestPublicURLMustBeAnOrigin(t *testing.T) {
	for _, bad := range []string{"desk.example.com", "ftp://desk.example.com", "https://desk.example.com/app", "https://", "https://u:p@desk.example.com"} {
		if _, err := New(Options{PublicURL: bad}); err == nil {
			t.Errorf("public URL %q accepted", bad)
		}
	}
	for _, good := range []string{"https://desk.example.com", "http://10.0.0.5:7878/"} {
		s, err := New(Options{PublicURL: good})
		if err != nil {
			t.Errorf("public URL %q: %v", good, err)
			continue
		}
		_ = s.Shutdown(context.Background())
	}
}
