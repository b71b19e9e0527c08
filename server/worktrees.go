package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
)

// worktreeRoutes is the worktree lifecycle (docs/api-extensions.md,
// "Worktree lifecycle"): merge back, push with a pull-request link, the
// worktrees view and its cleanup, archiving a session, and the
// per-repository settings for new worktrees.
func (s *Server) worktreeRoutes(api *echo.Group) {
	api.GET("/worktrees", s.listWorktrees)
	api.POST("/worktrees/cleanup", s.cleanupWorktrees)
	api.POST("/sessions/:sid/worktree/merge", s.mergeWorktree)
	api.POST("/sessions/:sid/worktree/push", s.pushWorktree)
	api.POST("/sessions/:sid/archive", s.archiveSession)
	api.GET("/repos/settings", s.getRepoSettings)
	api.PUT("/repos/settings", s.putRepoSettings)
}

func (s *Server) listWorktrees(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"worktrees": s.mgr.Worktrees(c.Request().Context())})
}

type cleanupRequest struct {
	Paths []string `json:"paths"`
}

func (s *Server) cleanupWorktrees(c echo.Context) error {
	var req cleanupRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	res, err := s.mgr.CleanupWorktrees(c.Request().Context(), req.Paths)
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

func (s *Server) mergeWorktree(c echo.Context) error {
	var req worker.MergeRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	unlock := s.lockSession(c.Param("sid"))
	defer unlock()
	res, err := s.mgr.MergeWorktree(c.Request().Context(), c.Param("sid"), req)
	var ce *gitrepo.ConflictError
	if errors.As(err, &ce) {
		return c.JSON(http.StatusConflict, mergeConflict{Message: sentence(ce.Error()), Code: wire.CodeConflict, Files: ce.Files})
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}

// pushResult answers a push: the remote and, when it is on GitHub or
// GitLab, the page that opens a pull (merge) request.
type pushResult struct {
	Remote string  `json:"remote"`
	Branch string  `json:"branch"`
	Base   string  `json:"base"`
	URL    *string `json:"url"`
}

func (s *Server) pushWorktree(c echo.Context) error {
	sess, err := s.mgr.Session(c.Param("sid"))
	if err != nil {
		return err
	}
	if sess.Worktree == nil || sess.Archived {
		return newError(http.StatusConflict, wire.CodeConflict, "The session has no worktree to push")
	}
	wt := *sess.Worktree
	ctx := c.Request().Context()
	unlock := s.lockSession(sess.ID)
	err = gitdiff.Push(ctx, wt.Path)
	unlock()
	if err != nil {
		return gitAnswer(err)
	}
	res := pushResult{Branch: wt.Branch, Base: wt.Base}
	if res.Base == "" {
		res.Base, _ = gitrepo.CurrentBranch(ctx, wt.Repo)
	}
	// push -u recorded the remote it pushed to as the branch's upstream.
	remote, _ := gitrepo.Git(ctx, wt.Path, "config", "--get", "branch."+wt.Branch+".remote")
	res.Remote = strings.TrimSpace(string(remote))
	if res.Remote != "" && res.Base != "" {
		if u, err := gitrepo.Git(ctx, wt.Path, "remote", "get-url", "--", res.Remote); err == nil {
			if link, err := gitrepo.CompareURL(string(u), wt.Branch, res.Base); err == nil {
				res.URL = &link
			}
		}
	}
	return c.JSON(http.StatusOK, res)
}

func (s *Server) archiveSession(c echo.Context) error {
	force := c.QueryParam("force") == "true"
	sess, err := s.mgr.ArchiveSession(c.Request().Context(), c.Param("sid"), force)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sess)
}

func (s *Server) getRepoSettings(c echo.Context) error {
	rs, err := s.repos.Settings(c.Request().Context(), c.QueryParam("root"))
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

func (s *Server) putRepoSettings(c echo.Context) error {
	var req repoSettingsBody
	if err := bind(c, &req); err != nil {
		return err
	}
	rs := worker.RepoSettings{Root: c.QueryParam("root"), SetupCommand: req.SetupCommand, CopyFiles: worker.DefaultCopyFiles}
	if req.CopyFiles != nil {
		rs.CopyFiles = *req.CopyFiles
	}
	rs, err := s.repos.Put(c.Request().Context(), rs)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rs)
}
