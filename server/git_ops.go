package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker/gitops"
)

// gitAPI is "Git from the UI" (docs/api-extensions.md): the index of the
// session's work tree, and stage, unstage, discard, commit and push.
// Every mutating call answers the new status, so the page needs no second
// request.
type gitAPI struct{ git *gitops.Service }

func (a gitAPI) routes(api *echo.Group) {
	api.GET("/sessions/:sid/git/status", a.status)
	api.POST("/sessions/:sid/git/stage", a.fileOp(a.git.Stage))
	api.POST("/sessions/:sid/git/unstage", a.fileOp(a.git.Unstage))
	api.POST("/sessions/:sid/git/discard", a.fileOp(a.git.Discard))
	api.POST("/sessions/:sid/git/commit", a.commit)
	api.POST("/sessions/:sid/git/push", a.push)
}

func (a gitAPI) status(c echo.Context) error {
	return answerStage(c)(a.git.Status(c.Request().Context(), c.Param("sid")))
}

// answerStage answers an operation with the new index, or its failure.
func answerStage(c echo.Context) func(*gitops.Stage, error) error {
	return func(st *gitops.Stage, err error) error {
		if err != nil {
			return gitAnswer(err)
		}
		return c.JSON(http.StatusOK, st)
	}
}

func (a gitAPI) fileOp(op func(ctx context.Context, sid string, f gitops.File) (*gitops.Stage, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		var req gitops.File
		if err := bind(c, &req); err != nil {
			return err
		}
		return answerStage(c)(op(c.Request().Context(), c.Param("sid"), req))
	}
}

type commitRequest struct {
	Message string `json:"message"`
}

func (a gitAPI) commit(c echo.Context) error {
	var req commitRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	return answerStage(c)(a.git.Commit(c.Request().Context(), c.Param("sid"), req.Message))
}

func (a gitAPI) push(c echo.Context) error {
	if c.Request().ContentLength > 0 {
		var req struct{}
		if err := bind(c, &req); err != nil {
			return err
		}
	}
	return answerStage(c)(a.git.Push(c.Request().Context(), c.Param("sid")))
}

// gitAnswer maps an operation's failure to its answer: the person's input
// (400), a work tree that changed or that git refuses to act on (409, with
// git's own message), anything else ours (500).
func gitAnswer(err error) error {
	var ge *gitops.GitError
	switch {
	case errors.As(err, &ge):
		e := newError(http.StatusConflict, wire.CodeGitFailed, ge.Error())
		e.Internal = err
		return e
	case errors.Is(err, gitops.ErrInvalidPath):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "The path field must be a path inside the work tree, relative to its top")
	case errors.Is(err, gitops.ErrConfirm):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "The deleteUntracked field must be true to delete an untracked file: it cannot be restored")
	case errors.Is(err, gitops.ErrNoHunks):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "The hunk field is not accepted for this file: stage or unstage it whole")
	case errors.Is(err, gitops.ErrEmptyMessage):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "The message field must not be empty")
	case errors.Is(err, gitops.ErrStale):
		return newError(http.StatusConflict, wire.CodeConflict, err.Error()+": look at the new diff and try again")
	case errors.Is(err, gitops.ErrNoRemote):
		return newError(http.StatusConflict, wire.CodeConflict, err.Error())
	case errors.Is(err, gitops.ErrNotRepo):
		return newError(http.StatusConflict, wire.CodeConflict, "The session's folder is not in a git work tree")
	}
	return err
}
