package server

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/gitops"
)

// worktreesAPI is the worktree lifecycle (docs/api-extensions.md,
// "Worktree lifecycle"): merge back, push with a pull-request link, the
// worktrees view and its cleanup, archiving a session, and the
// per-repository settings for new worktrees.
type worktreesAPI struct {
	mgr   *worker.Manager
	git   *gitops.Service
	repos *worker.Repos
}

func (a worktreesAPI) routes(api *echo.Group) {
	api.GET("/worktrees", a.listWorktrees)
	api.POST("/worktrees/cleanup", a.cleanupWorktrees)
	api.POST("/sessions/:sid/worktree/merge", a.mergeWorktree)
	api.POST("/sessions/:sid/worktree/push", a.pushWorktree)
	api.POST("/sessions/:sid/archive", a.archiveSession)
	api.GET("/repos/settings", a.getRepoSettings)
	api.PUT("/repos/settings", a.putRepoSettings)
}

func (a worktreesAPI) listWorktrees(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"worktrees": worker.NewWorktrees(a.mgr).List(c.Request().Context())})
}

type cleanupRequest struct {
	Paths []string `json:"paths"`
}

func (a worktreesAPI) cleanupWorktrees(c echo.Context) error {
	var req cleanupRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	res, err := worker.NewWorktrees(a.mgr).Cleanup(c.Request().Context(), req.Paths)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}

// mergeConflict is the 409 answer of a merge back that conflicted: the
// usual error body plus the files.
type mergeConflict struct {
	Message string    `json:"error"`
	Code    wire.Code `json:"code"`
	Files   []string  `json:"files"`
}

func (a worktreesAPI) mergeWorktree(c echo.Context) error {
	var req worker.MergeRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	res, err := a.git.Merge(c.Request().Context(), c.Param("sid"), req)
	var ce *gitops.ConflictError
	if errors.As(err, &ce) {
		return c.JSON(http.StatusConflict, mergeConflict{Message: sentence(ce.Error()), Code: wire.CodeConflict, Files: ce.Files})
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}

func (a worktreesAPI) pushWorktree(c echo.Context) error {
	res, err := a.git.PushWorktree(c.Request().Context(), c.Param("sid"))
	if err != nil {
		return gitAnswer(err)
	}
	return c.JSON(http.StatusOK, res)
}

func (a worktreesAPI) archiveSession(c echo.Context) error {
	force := c.QueryParam("force") == "true"
	sess, err := a.mgr.ArchiveSession(c.Request().Context(), c.Param("sid"), force)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sess)
}

func (a worktreesAPI) getRepoSettings(c echo.Context) error {
	rs, err := a.repos.Settings(c.Request().Context(), c.QueryParam("root"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rs)
}

// repoSettingsBody is the body of PUT /api/repos/settings?root=; it
// replaces the stored settings. copyFiles left out means the default.
type repoSettingsBody struct {
	SetupCommand string    `json:"setupCommand"`
	CopyFiles    *[]string `json:"copyFiles"`
}

func (a worktreesAPI) putRepoSettings(c echo.Context) error {
	var req repoSettingsBody
	if err := bind(c, &req); err != nil {
		return err
	}
	rs := worker.RepoSettings{Root: c.QueryParam("root"), SetupCommand: req.SetupCommand, CopyFiles: worker.DefaultCopyFiles}
	if req.CopyFiles != nil {
		rs.CopyFiles = *req.CopyFiles
	}
	rs, err := a.repos.Put(c.Request().Context(), rs)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rs)
}
