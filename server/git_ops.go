package server

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
)

// gitRoutes is "Git from the UI" (docs/api-extensions.md): the index of
// the session's work tree, and stage, unstage, discard, commit and push.
// Every mutating call answers the new status, so the page needs no second
// request.
func (s *Server) gitRoutes(api *echo.Group) {
	api.GET("/sessions/:sid/git/status", s.gitStatus)
	api.POST("/sessions/:sid/git/stage", s.gitFileOp(stageOp))
	api.POST("/sessions/:sid/git/unstage", s.gitFileOp(unstageOp))
	api.POST("/sessions/:sid/git/discard", s.gitFileOp(discardOp))
	api.POST("/sessions/:sid/git/commit", s.gitCommit)
	api.POST("/sessions/:sid/git/push", s.gitPush)
}

// lockSession serialises the git operations of one session (Server.gitLocks),
// so two clicks do not race for the index lock; a push holds it while it
// runs.
func (s *Server) lockSession(sid string) func() {
	m, _ := s.gitLocks.LoadOrStore(sid, new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// gitFile is the body of stage, unstage and discard.
type gitFile struct {
	Path            string `json:"path"`
	Hash            string `json:"hash"`            // the file's hash as shown
	Hunk            string `json:"hunk"`            // a hunk id: that hunk only
	DeleteUntracked bool   `json:"deleteUntracked"` // discard: the second confirmation
}

type fileOp func(ctx context.Context, dir string, req gitFile) error

func stageOp(ctx context.Context, dir string, req gitFile) error {
	if req.Hunk != "" {
		return gitdiff.StageHunk(ctx, dir, req.Path, req.Hunk)
	}
	return gitdiff.StageFile(ctx, dir, req.Path, req.Hash)
}

func unstageOp(ctx context.Context, dir string, req gitFile) error {
	if req.Hunk != "" {
		return gitdiff.UnstageHunk(ctx, dir, req.Path, req.Hunk)
	}
	return gitdiff.UnstageFile(ctx, dir, req.Path, req.Hash)
}

func discardOp(ctx context.Context, dir string, req gitFile) error {
	if req.Hunk != "" {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "The hunk field is not accepted by discard: discard takes a whole file")
	}
	if req.Hash == "" {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "The hash field is required: discard only what was shown")
	}
	return gitdiff.DiscardFile(ctx, dir, req.Path, req.Hash, req.DeleteUntracked)
}

// sessionDir is the work tree a git request acts on: the session's cwd.
func (s *Server) sessionDir(c echo.Context) (string, error) {
	sess, err := s.mgr.Session(c.Param("sid"))
	if err != nil {
		return "", err
	}
	return sess.Cwd, nil
}

func (s *Server) gitStatus(c echo.Context) error {
	dir, err := s.sessionDir(c)
	if err != nil {
		return err
	}
	return s.answerStatus(c, dir)
}

func (s *Server) answerStatus(c echo.Context, dir string) error {
	st, err := gitdiff.ComputeStage(c.Request().Context(), dir)
	if err != nil {
		return gitAnswer(err)
	}
	return c.JSON(http.StatusOK, st)
}

func (s *Server) gitFileOp(op fileOp) echo.HandlerFunc {
	return func(c echo.Context) error {
		var req gitFile
		if err := bind(c, &req); err != nil {
			return err
		}
		if req.Path == "" {
			return newError(http.StatusBadRequest, wire.CodeInvalidField, "The path field is required")
		}
		return s.gitDo(c, func(ctx context.Context, dir string) error { return op(ctx, dir, req) })
	}
}

// gitDo runs one operation under the session's lock and answers the new
// status.
func (s *Server) gitDo(c echo.Context, op func(ctx context.Context, dir string) error) error {
	dir, err := s.sessionDir(c)
	if err != nil {
		return err
	}
	unlock := s.lockSession(c.Param("sid"))
	err = op(c.Request().Context(), dir)
	unlock()
	if err != nil {
		return gitAnswer(err)
	}
	return s.answerStatus(c, dir)
}

type commitRequest struct {
	Message string `json:"message"`
}

func (s *Server) gitCommit(c echo.Context) error {
	var req commitRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	return s.gitDo(c, func(ctx context.Context, dir string) error {
		_, err := gitdiff.Commit(ctx, dir, req.Message)
		return err
	})
}

func (s *Server) gitPush(c echo.Context) error {
	if c.Request().ContentLength > 0 {
		var req struct{}
		if err := bind(c, &req); err != nil {
			return err
		}
	}
	return s.gitDo(c, func(ctx context.Context, dir string) error { return gitdiff.Push(ctx, dir) })
}

// gitAnswer maps an operation's failure to its answer: the person's input
// (400), a work tree that changed or that git refuses to act on (409, with
// git's own message), anything else ours (500).
func gitAnswer(err error) error {
	var ae *apiError
	var ge *gitdiff.GitError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &ge):
		e := newError(http.StatusConflict, wire.CodeGitFailed, ge.Error())
		e.Internal = err
		return e
	case errors.Is(err, gitdiff.ErrInvalidPath):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "The path field must be a path inside the work tree, relative to its top")
	case errors.Is(err, gitdiff.ErrConfirm):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "The deleteUntracked field must be true to delete an untracked file: it cannot be restored")
	case errors.Is(err, gitdiff.ErrNoHunks):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "The hunk field is not accepted for this file: stage or unstage it whole")
	case errors.Is(err, gitdiff.ErrEmptyMessage):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "The message field must not be empty")
	case errors.Is(err, gitdiff.ErrStale):
		return newError(http.StatusConflict, wire.CodeConflict, err.Error()+": look at the new diff and try again")
	case errors.Is(err, gitdiff.ErrNoRemote):
		return newError(http.StatusConflict, wire.CodeConflict, err.Error())
	case errors.Is(err, gitdiff.ErrNotRepo):
		return newError(http.StatusConflict, wire.CodeConflict, "The session's folder is not in a git work tree")
	}
	return err
}
