package review

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/worker"
)

// Request is the body of POST …/comments (every field required) and of
// PATCH …/comments/:id (every field optional; a change of place quotes
// the lines anew).
type Request struct {
	Path      *string `json:"path"`
	Side      *string `json:"side"`
	StartLine *int    `json:"startLine"`
	EndLine   *int    `json:"endLine"`
	Body      *string `json:"body"`
}

func (r Request) placed() bool {
	return r.Path != nil || r.Side != nil || r.StartLine != nil || r.EndLine != nil
}

// apply sets the request's fields on c.
func (r Request) apply(c *Comment) {
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
		return fieldErr("body", "must not be empty")
	case len(body) > MaxBody:
		return fieldErr("body", "must be at most %d bytes", MaxBody)
	case !utf8.ValidString(body):
		return fieldErr("body", "must be UTF-8 text")
	}
	return nil
}

// List returns session sid's comments, each marked outdated when its
// quoted lines are no longer what the files have. Without a work tree or a
// base there is nothing to compare with: they are listed as they were.
func (s *Service) List(ctx context.Context, sid string) ([]Comment, error) {
	cs, err := s.comments(sid)
	if err != nil {
		return nil, err
	}
	if top, base, err := s.tree(ctx, sid); err == nil {
		Mark(ctx, top, base, cs)
	}
	return cs, nil
}

// Add makes a draft comment from req, whose every field is required,
// with the lines it quotes.
func (s *Service) Add(ctx context.Context, sid string, req Request) (Comment, error) {
	for _, f := range []struct {
		name    string
		missing bool
	}{{"path", req.Path == nil}, {"side", req.Side == nil}, {"startLine", req.StartLine == nil}, {"endLine", req.EndLine == nil}, {"body", req.Body == nil}} {
		if f.missing {
			return Comment{}, fieldErr(f.name, "is required")
		}
	}
	var nc Comment
	req.apply(&nc)
	if err := checkBody(nc.Body); err != nil {
		return Comment{}, err
	}
	if err := s.quote(ctx, sid, &nc); err != nil {
		return Comment{}, err
	}
	now := s.now()
	nc.ID, nc.Status, nc.CreatedAt, nc.UpdatedAt = uuid.Must(uuid.NewV7()).String(), StatusDraft, now, now
	_, err := s.update(sid, func(cs []Comment) ([]Comment, error) {
		if len(cs) >= MaxComments {
			return nil, fmt.Errorf("This session has the most comments it can keep: delete sent ones first: %w", worker.ErrConflict)
		}
		return append(cs, nc), nil
	})
	if err != nil {
		return Comment{}, err
	}
	return nc, nil
}

// quote checks c's place against the files and stores the quoted lines
// and the base in it.
func (s *Service) quote(ctx context.Context, sid string, c *Comment) error {
	r := Range{Path: c.Path, Side: c.Side, StartLine: c.StartLine, EndLine: c.EndLine}
	if err := r.Check(); err != nil {
		return err
	}
	top, base, err := s.tree(ctx, sid)
	if err != nil {
		return err
	}
	q, err := Capture(ctx, top, base, r)
	if err != nil {
		return err
	}
	c.Quote, c.Base = q, base
	return nil
}

// Edit changes a draft comment's fields that req sets; a comment sent
// already, or changed since it was read, is refused.
func (s *Service) Edit(ctx context.Context, sid, id string, req Request) (Comment, error) {
	cur, err := s.find(sid, id)
	if err != nil {
		return Comment{}, err
	}
	next := cur
	req.apply(&next)
	if err := checkBody(next.Body); err != nil {
		return Comment{}, err
	}
	if req.placed() {
		if err := s.quote(ctx, sid, &next); err != nil {
			return Comment{}, err
		}
	}
	next.UpdatedAt = s.now()
	_, err = s.update(sid, func(cs []Comment) ([]Comment, error) {
		i := slices.IndexFunc(cs, func(x Comment) bool { return x.ID == id })
		switch {
		case i < 0:
			return nil, notFound(id)
		case cs[i].Status == StatusSent:
			return nil, fmt.Errorf("This comment was sent to the agent already and cannot be changed: write a new one: %w", worker.ErrConflict)
		case !cs[i].UpdatedAt.Equal(cur.UpdatedAt):
			return nil, fmt.Errorf("This comment changed meanwhile: reload and try again: %w", worker.ErrConflict)
		}
		cs[i] = next
		return cs, nil
	})
	if err != nil {
		return Comment{}, err
	}
	return next, nil
}

// Delete removes a comment, sent or not.
func (s *Service) Delete(sid, id string) error {
	_, err := s.update(sid, func(cs []Comment) ([]Comment, error) {
		i := slices.IndexFunc(cs, func(x Comment) bool { return x.ID == id })
		if i < 0 {
			return nil, notFound(id)
		}
		return slices.Delete(cs, i, i+1), nil
	})
	return err
}

func (s *Service) find(sid, id string) (Comment, error) {
	cs, err := s.comments(sid)
	if err != nil {
		return Comment{}, err
	}
	for _, x := range cs {
		if x.ID == id {
			return x, nil
		}
	}
	return Comment{}, notFound(id)
}

func notFound(id string) error {
	return fmt.Errorf("No comment %s in this session: %w", id, worker.ErrNotFound)
}
