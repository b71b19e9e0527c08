package server

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
	"github.com/agentdesk/agentdesk/worker/review"
)

// commentRoutes are the review comments of a session's diff
// (docs/api-extensions.md, "Review comments"), and sending them to the
// session's agent as one message (comments_send.go).
func (s *Server) commentRoutes(api *echo.Group) {
	api.GET("/sessions/:sid/comments", s.listComments)
	api.POST("/sessions/:sid/comments", s.addComment)
	api.POST("/sessions/:sid/comments/send", s.sendReview)
	api.PATCH("/sessions/:sid/comments/:id", s.editComment)
	api.DELETE("/sessions/:sid/comments/:id", s.deleteComment)
}

// commentRequest is POST's body (every field required) and PATCH's (every
// field optional; a change of place quotes the lines anew).
type commentRequest struct {
	Path      *string `json:"path"`
	Side      *string `json:"side"`
	StartLine *int    `json:"startLine"`
	EndLine   *int    `json:"endLine"`
	Body      *string `json:"body"`
}

func (r commentRequest) placed() bool {
	return r.Path != nil || r.Side != nil || r.StartLine != nil || r.EndLine != nil
}

// apply sets the request's fields on c.
func (r commentRequest) apply(c *review.Comment) {
	set(&c.Path, r.Path)
	set(&c.Side, r.Side)
	set(&c.StartLine, r.StartLine)
	set(&c.EndLine, r.EndLine)
	set(&c.Body, r.Body)
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func checkBody(body string) error {
	switch {
	case strings.TrimSpace(body) == "":
		return wire.FieldErrorf("body", "must not be empty")
	case len(body) > review.MaxBody:
		return wire.FieldErrorf("body", "must be at most %d bytes", review.MaxBody)
	case !utf8.ValidString(body):
		return wire.FieldErrorf("body", "must be UTF-8 text")
	}
	return nil
}

// reviewTree is where comments of session sid point: the top of its work
// tree and the commit its diff compares against (the git-diff worker's
// base when the session has one, else the default base).
func (s *Server) reviewTree(ctx context.Context, sid string) (top, base string, err error) {
	sess, err := s.mgr.Session(sid)
	if err != nil {
		return "", "", err
	}
	top, err = gitrepo.Toplevel(ctx, sess.Cwd)
	if err != nil {
		return "", "", newError(http.StatusConflict, wire.CodeConflict, "The session's folder is not in a git work tree")
	}
	want := ""
	for _, w := range sess.Workers {
		if w.Kind == worker.KindGitDiff {
			want = w.Base
		}
	}
	if want != "" {
		base, err = gitdiff.ResolveBase(ctx, top, want)
	} else {
		base, err = gitdiff.DefaultBase(ctx, top)
	}
	return top, base, err
}

func (s *Server) listComments(c echo.Context) error {
	sid := c.Param("sid")
	cs, err := s.mgr.Comments(sid)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	// Without a work tree or a base there is nothing to compare with:
	// the comments are listed as they were.
	if top, base, err := s.reviewTree(ctx, sid); err == nil {
		review.Mark(ctx, top, base, cs)
	}
	return c.JSON(http.StatusOK, map[string][]review.Comment{"comments": cs})
}

func (s *Server) addComment(c echo.Context) error {
	var req commentRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	for _, f := range []struct {
		name    string
		missing bool
	}{{"path", req.Path == nil}, {"side", req.Side == nil}, {"startLine", req.StartLine == nil}, {"endLine", req.EndLine == nil}, {"body", req.Body == nil}} {
		if f.missing {
			return wire.FieldErrorf(f.name, "is required")
		}
	}
	var nc review.Comment
	req.apply(&nc)
	if err := checkBody(nc.Body); err != nil {
		return err
	}
	if err := s.quote(c.Request().Context(), c.Param("sid"), &nc); err != nil {
		return err
	}
	now := time.Now().UTC()
	nc.ID, nc.Status, nc.CreatedAt, nc.UpdatedAt = uuid.Must(uuid.NewV7()).String(), review.StatusDraft, now, now
	_, err := s.mgr.UpdateComments(c.Param("sid"), func(cs []review.Comment) ([]review.Comment, error) {
		if len(cs) >= review.MaxComments {
			return nil, newError(http.StatusConflict, wire.CodeConflict, "This session has the most comments it can keep: delete sent ones first")
		}
		return append(cs, nc), nil
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, nc)
}

// quote checks c's place against the files and stores the quoted lines
// and the base in it.
func (s *Server) quote(ctx context.Context, sid string, c *review.Comment) error {
	r := review.Range{Path: c.Path, Side: c.Side, StartLine: c.StartLine, EndLine: c.EndLine}
	if err := r.Check(); err != nil {
		return err
	}
	top, base, err := s.reviewTree(ctx, sid)
	if err != nil {
		return err
	}
	q, err := review.Capture(ctx, top, base, r)
	if err != nil {
		return err
	}
	c.Quote, c.Base = q, base
	return nil
}

func (s *Server) editComment(c echo.Context) error {
	var req commentRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	sid, id := c.Param("sid"), c.Param("id")
	cur, err := s.findComment(sid, id)
	if err != nil {
		return err
	}
	next := cur
	req.apply(&next)
	if err := checkBody(next.Body); err != nil {
		return err
	}
	if req.placed() {
		if err := s.quote(c.Request().Context(), sid, &next); err != nil {
			return err
		}
	}
	next.UpdatedAt = time.Now().UTC()
	_, err = s.mgr.UpdateComments(sid, func(cs []review.Comment) ([]review.Comment, error) {
		i := slices.IndexFunc(cs, func(x review.Comment) bool { return x.ID == id })
		switch {
		case i < 0:
			return nil, commentNotFound(id)
		case cs[i].Status == review.StatusSent:
			return nil, newError(http.StatusConflict, wire.CodeConflict, "This comment was sent to the agent already and cannot be changed: write a new one")
		case !cs[i].UpdatedAt.Equal(cur.UpdatedAt):
			return nil, newError(http.StatusConflict, wire.CodeConflict, "This comment changed meanwhile: reload and try again")
		}
		cs[i] = next
		return cs, nil
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, next)
}

func (s *Server) deleteComment(c echo.Context) error {
	id := c.Param("id")
	_, err := s.mgr.UpdateComments(c.Param("sid"), func(cs []review.Comment) ([]review.Comment, error) {
		i := slices.IndexFunc(cs, func(x review.Comment) bool { return x.ID == id })
		if i < 0 {
			return nil, commentNotFound(id)
		}
		return slices.Delete(cs, i, i+1), nil
	})
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) findComment(sid, id string) (review.Comment, error) {
	cs, err := s.mgr.Comments(sid)
	if err != nil {
		return review.Comment{}, err
	}
	for _, x := range cs {
		if x.ID == id {
			return x, nil
		}
	}
	return review.Comment{}, commentNotFound(id)
}

func commentNotFound(id string) error {
	return newError(http.StatusNotFound, wire.CodeNotFound, "No comment "+id+" in this session")
}
