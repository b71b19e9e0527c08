package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker/find"
)

// withSearch gives e's server a search index over e's store and manager,
// woken by the store's commits as main does it.
func withSearch(t *testing.T, e *env) {
	t.Helper()
	idx := find.New(filepath.Join(e.dir, "search"), e.store, e.mgr, nil)
	t.Cleanup(func() {
		if err := idx.Close(); err != nil {
			t.Errorf("close index: %v", err)
		}
	})
	o := e.options()
	o.Search = idx
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := e.srv.Shutdown(ctx); err != nil { // the server newEnv made
		t.Fatalf("shutdown: %v", err)
	}
	e.ts.Close()
	e.srv, e.ts = srv, httptest.NewServer(srv.Handler())
}

type searchHits struct {
	Hits []find.Hit `json:"hits"`
}

// waitSearch asks GET /api/search until it answers n hits.
func waitSearch(t *testing.T, e *env, query string, n int) []find.Hit {
	t.Helper()
	end := time.Now().Add(2 * time.Minute)
	for {
		a := e.do("GET", "/api/search?"+query, nil)
		if a.status != http.StatusOK {
			t.Fatalf("search %s: %d %s", query, a.status, a.body)
		}
		var v searchHits
		a.json(t, &v)
		if len(v.Hits) == n {
			return v.Hits
		}
		if time.Now().After(end) {
			t.Fatalf("search %s: %s, want %d hits", query, a.body, n)
		}
		time.Sleep(10 * time.Millisecond) // polls the indexer's progress; the deadline only guards
	}
}

// A renamed session is found by its new title and gone once deleted.
func TestSearchFindsTitlesOverREST(t *testing.T) {
	e := newEnv(t, nil)
	withSearch(t, e)
	s := e.createSession(t.TempDir())
	if a := e.do("PATCH", "/api/sessions/"+s.ID, map[string]string{"title": "Quarterly <zeppelin> report"}); a.status != http.StatusOK {
		t.Fatalf("rename: %d %s", a.status, a.body)
	}
	h := waitSearch(t, e, "q=zeppelin", 1)[0]
	if h.SessionID != s.ID || h.Role != "title" || h.Snippet != "Quarterly &lt;<mark>zeppelin</mark>&gt; report" {
		t.Errorf("hit = %+v", h)
	}
	waitSearch(t, e, "q=zepp&limit=100&sessionId="+s.ID, 1)
	if a := e.do("DELETE", "/api/sessions/"+s.ID, nil); a.status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", a.status, a.body)
	}
	waitSearch(t, e, "q=zeppelin", 0)
}

// Bad parameters get 400 invalid_field, an unknown session 404, and a
// server without an index 503.
func TestSearchValidation(t *testing.T) {
	e := newEnv(t, nil)
	if a := e.do("GET", "/api/search?q=x", nil); a.status != http.StatusServiceUnavailable {
		t.Errorf("without index: %d %s", a.status, a.body)
	}
	withSearch(t, e)
	bad := []string{"", "q=", "q=%20%20", "q=" + strings.Repeat("a", 257), "q=x&limit=0", "q=x&limit=101", "q=x&limit=ten", "q=%ff"}
	for _, query := range bad {
		a := e.do("GET", "/api/search?"+query, nil)
		if a.status != http.StatusBadRequest || a.errCode(t) != "invalid_field" {
			t.Errorf("%s: %d %s", query, a.status, a.body)
		}
	}
	if a := e.do("GET", "/api/search?q=x&sessionId=nope", nil); a.status != http.StatusNotFound || a.errCode(t) != "not_found" {
		t.Errorf("unknown session: %d %s", a.status, a.body)
	}
	a := e.do("GET", "/api/search?q="+url.QueryEscape(strings.Repeat("é", 256)), nil)
	if a.status != http.StatusOK || strings.TrimSpace(string(a.body)) != `{"hits":[]}` {
		t.Errorf("longest query: %d %s", a.status, a.body)
	}
}
