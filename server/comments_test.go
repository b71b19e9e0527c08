package server

import (
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker/review"
)

type commentList struct {
	Comments []review.Comment `json:"comments"`
}

func listComments(t *testing.T, e *env, sid string) []review.Comment {
	t.Helper()
	a := e.do("GET", "/api/sessions/"+sid+"/comments", nil)
	if a.status != http.StatusOK {
		t.Fatalf("list comments: %d %s", a.status, a.body)
	}
	var l commentList
	a.json(t, &l)
	return l.Comments
}

func addComment(t *testing.T, e *env, sid string, body map[string]any) review.Comment {
	t.Helper()
	a := e.do("POST", "/api/sessions/"+sid+"/comments", body)
	if a.status != http.StatusCreated {
		t.Fatalf("add comment %v: %d %s", body, a.status, a.body)
	}
	var c review.Comment
	a.json(t, &c)
	return c
}

func TestReviewCommentsREST(t *testing.T) {
	e := newEnv(t, gitKinds())
	repo := gitRepo(t)
	head := git(t, repo, "rev-parse", "HEAD")
	write(t, filepath.Join(repo, "a.txt"), "one\ntwo\nthree\n")
	s := e.createSession(repo)
	base := "/api/sessions/" + s.ID + "/comments"

	c1 := addComment(t, e, s.ID, map[string]any{"path": "a.txt", "side": "new", "startLine": 2, "endLine": 3, "body": "Say why."})
	if !slices.Equal(c1.Quote, []string{"two", "three"}) || c1.Status != "draft" || c1.Base != head || c1.SentAt != nil || c1.ID == "" {
		t.Fatalf("new-side comment: %+v", c1)
	}
	c2 := addComment(t, e, s.ID, map[string]any{"path": "a.txt", "side": "old", "startLine": 1, "endLine": 1, "body": "Keep this."})
	if !slices.Equal(c2.Quote, []string{"one"}) {
		t.Fatalf("old-side quote: %q", c2.Quote)
	}

	// Bad input: 400 invalid_field naming the field, nothing stored.
	for _, bad := range []struct {
		field string
		body  map[string]any
	}{
		{"body", map[string]any{"path": "a.txt", "side": "new", "startLine": 1, "endLine": 1}},
		{"body", map[string]any{"path": "a.txt", "side": "new", "startLine": 1, "endLine": 1, "body": "  \n"}},
		{"body", map[string]any{"path": "a.txt", "side": "new", "startLine": 1, "endLine": 1, "body": strings.Repeat("x", review.MaxBody+1)}},
		{"side", map[string]any{"path": "a.txt", "side": "both", "startLine": 1, "endLine": 1, "body": "x"}},
		{"endLine", map[string]any{"path": "a.txt", "side": "new", "startLine": 3, "endLine": 4, "body": "x"}},
		{"endLine", map[string]any{"path": "a.txt", "side": "old", "startLine": 1, "endLine": 2, "body": "x"}},
		{"startLine", map[string]any{"path": "a.txt", "side": "new", "startLine": 0, "endLine": 1, "body": "x"}},
		{"path", map[string]any{"path": "../a.txt", "side": "new", "startLine": 1, "endLine": 1, "body": "x"}},
		{"path", map[string]any{"path": "missing.txt", "side": "new", "startLine": 1, "endLine": 1, "body": "x"}},
	} {
		a := e.do("POST", base, bad.body)
		if a.status != http.StatusBadRequest || a.errCode(t) != "invalid_field" || !strings.Contains(string(a.body), bad.field) {
			t.Fatalf("%v: %d %s", bad.body, a.status, a.body)
		}
	}
	if got := listComments(t, e, s.ID); len(got) != 2 {
		t.Fatalf("refused comments were stored: %+v", got)
	}

	// Edit: the body, then the place (quoted anew); unknown ids are 404.
	var edited review.Comment
	a := e.do("PATCH", base+"/"+c2.ID, map[string]any{"body": "Keep this line."})
	if a.status != http.StatusOK {
		t.Fatalf("patch: %d %s", a.status, a.body)
	}
	a.json(t, &edited)
	if edited.Body != "Keep this line." || !slices.Equal(edited.Quote, []string{"one"}) {
		t.Fatalf("edited: %+v", edited)
	}
	if a := e.do("PATCH", base+"/"+c2.ID, map[string]any{"endLine": 9}); a.status != http.StatusBadRequest {
		t.Fatalf("patch past the end: %d %s", a.status, a.body)
	}
	for _, m := range []string{"PATCH", "DELETE"} {
		if a := e.do(m, base+"/nope", map[string]any{"body": "x"}); a.status != http.StatusNotFound || a.errCode(t) != "not_found" {
			t.Fatalf("%s unknown: %d %s", m, a.status, a.body)
		}
	}
	if a := e.do("GET", "/api/sessions/nope/comments", nil); a.status != http.StatusNotFound {
		t.Fatalf("unknown session: %d %s", a.status, a.body)
	}

	// Stored: they survive a restart.
	e.restart()
	got := listComments(t, e, s.ID)
	if len(got) != 2 || got[0].ID != c1.ID || got[1].Body != "Keep this line." || got[0].Outdated || got[1].Outdated {
		t.Fatalf("after restart: %+v", got)
	}

	// The agent edits line 3: the comment quoting it is outdated, the
	// old-side one is not.
	write(t, filepath.Join(repo, "a.txt"), "one\ntwo\nTHREE\n")
	got = listComments(t, e, s.ID)
	if !got[0].Outdated || got[1].Outdated {
		t.Fatalf("after the edit: outdated %v %v, want true false", got[0].Outdated, got[1].Outdated)
	}

	// No agent: the send fails and nothing is marked sent.
	if a := e.do("POST", base+"/send", nil); a.status != http.StatusConflict || a.errCode(t) != "conflict" {
		t.Fatalf("send without an agent: %d %s", a.status, a.body)
	}
	for _, c := range listComments(t, e, s.ID) {
		if c.Status != "draft" {
			t.Fatalf("marked sent after a failed send: %+v", c)
		}
	}
	if a := e.do("DELETE", base+"/"+c1.ID, nil); a.status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", a.status, a.body)
	}
	if got := listComments(t, e, s.ID); len(got) != 1 || got[0].ID != c2.ID {
		t.Fatalf("after delete: %+v", got)
	}
}

// A review too long for one message is refused (400 too_large) before
// anything is sent, and its comments stay drafts.
func TestSendReviewTooLong(t *testing.T) {
	e := newEnv(t, gitKinds())
	repo := gitRepo(t)
	write(t, filepath.Join(repo, "a.txt"), "one\n")
	s := e.createSession(repo)
	body := strings.Repeat("x", review.MaxBody)
	for range review.MaxMessage/review.MaxBody + 1 {
		addComment(t, e, s.ID, map[string]any{"path": "a.txt", "side": "new", "startLine": 1, "endLine": 1, "body": body})
	}
	if a := e.do("POST", "/api/sessions/"+s.ID+"/comments/send", nil); a.status != http.StatusBadRequest || a.errCode(t) != "too_large" {
		t.Fatalf("send: %d %s", a.status, a.body)
	}
	for _, c := range listComments(t, e, s.ID) {
		if c.Status != "draft" {
			t.Fatalf("marked sent after a refused send: %+v", c)
		}
	}
}
