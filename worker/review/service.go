package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
)

// Sessions is what the review needs of the manager: the session (its
// folder, its workers, its active agent) and an agent's runtime.
type Sessions interface {
	Session(id string) (worker.Session, error)
	WaitRuntime(ctx context.Context, sid, wid string) (worker.Info, worker.Runtime, error)
}

// Service keeps the review comments of each session in the store's
// records and sends them to the session's agent (docs/api-extensions.md,
// "Review comments"). Safe for concurrent use.
type Service struct {
	m     Sessions
	rec   *persist.Records
	now   func() time.Time
	sends sync.Map // session id → *sync.Mutex: one send at a time (send.go)
}

// New returns the review comments of m's sessions, kept in store.
func New(m Sessions, store *persist.Store) *Service {
	return &Service{m: m, rec: store.Records(), now: func() time.Time { return time.Now().UTC() }}
}

// comments returns the comments stored with session sid, in the order
// they were made. Outdated is not set: it depends on the files now (Mark).
func (s *Service) comments(sid string) ([]Comment, error) {
	if _, err := s.m.Session(sid); err != nil {
		return nil, err
	}
	raw, err := s.rec.Comments(sid)
	if err != nil {
		return nil, err
	}
	return decode(raw)
}

// update replaces session sid's comments with what fn returns for the
// stored ones, in one transaction, and returns them once committed. An
// error from fn writes nothing and is returned as it is. fn runs on the
// store's writer: it must be quick (no git, no file reads).
func (s *Service) update(sid string, fn func([]Comment) ([]Comment, error)) ([]Comment, error) {
	if _, err := s.m.Session(sid); err != nil {
		return nil, err
	}
	var out []Comment
	var fnErr error
	err := s.rec.UpdateComments(sid, func(old []byte) ([]byte, error) {
		cs, err := decode(old)
		if err != nil {
			return nil, err
		}
		next, err := fn(cs)
		if err != nil {
			fnErr = err
			return nil, err
		}
		out = next
		if len(next) == 0 {
			return nil, nil
		}
		return json.Marshal(next)
	})
	switch {
	case fnErr != nil:
		return nil, fnErr
	case errors.Is(err, persist.ErrNotFound):
		return nil, fmt.Errorf("session %q: %w", sid, worker.ErrNotFound)
	case err != nil:
		return nil, err
	}
	return out, nil
}

func decode(raw []byte) ([]Comment, error) {
	if len(raw) == 0 {
		return []Comment{}, nil
	}
	var cs []Comment
	if err := json.Unmarshal(raw, &cs); err != nil {
		return nil, fmt.Errorf("decode comments: %w", err)
	}
	return cs, nil
}

// tree is where comments of session sid point: the top of its work tree
// and the commit its diff compares against (the git-diff worker's base
// when the session has one, else the default base).
func (s *Service) tree(ctx context.Context, sid string) (top, base string, err error) {
	sess, err := s.m.Session(sid)
	if err != nil {
		return "", "", err
	}
	top, err = gitrepo.Toplevel(ctx, sess.Cwd)
	if err != nil {
		return "", "", fmt.Errorf("The session's folder is not in a git work tree: %w", worker.ErrConflict)
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
