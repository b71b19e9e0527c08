package server

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestTwoInstancesKeepTheirLogins runs two servers on one host (two ports,
// two tokens) and signs one browser (one cookie jar: cookies ignore ports)
// into both: each keeps its login, where one cookie name made the second
// login log the first out.
func TestTwoInstancesKeepTheirLogins(t *testing.T) {
	a := newEnv(t, nil)
	const otherToken = "fedcba9876543210fedcba9876543210"
	srvB, err := New(Options{Manager: a.mgr, Token: otherToken, Loopback: true, Frontend: testFrontend})
	if err != nil {
		t.Fatal(err)
	}
	b := httptest.NewServer(srvB.Handler())
	defer func() {
		if err := srvB.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
		b.Close()
	}()

	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	browser := &http.Client{Jar: jar}
	get := func(base, path string) int {
		t.Helper()
		res, err := browser.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if st := get(a.ts.URL, "/?token="+testToken); st != 200 {
		t.Fatalf("sign in to A: %d", st)
	}
	if st := get(b.URL, "/?token="+otherToken); st != 200 {
		t.Fatalf("sign in to B: %d", st)
	}
	if st := get(a.ts.URL, "/api/sessions"); st != 200 {
		t.Fatalf("A after signing in to B: %d; want still signed in", st)
	}
	if st := get(b.URL, "/api/sessions"); st != 200 {
		t.Fatalf("B: %d", st)
	}
	if !strings.HasPrefix(cookieName(otherToken), "agentdesk_") || cookieName(otherToken) == cookieName(testToken) {
		t.Fatalf("cookie names %q and %q", cookieName(otherToken), cookieName(testToken))
	}
}
