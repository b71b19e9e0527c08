package gitops

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
)

// Merge merges the session's worktree branch back into its base branch
// (worker.Manager.MergeWorktree), under the session's lock. A conflict is
// a *ConflictError, the merge aborted.
func (s *Service) Merge(ctx context.Context, sid string, req worker.MergeRequest) (worker.MergeResult, error) {
	unlock := s.lock(sid)
	defer unlock()
	return s.m.MergeWorktree(ctx, sid, req)
}

// PushResult answers a push of a worktree: the remote and, when it is on
// GitHub or GitLab, the page that opens a pull (merge) request.
type PushResult struct {
	Remote string  `json:"remote"`
	Branch string  `json:"branch"`
	Base   string  `json:"base"`
	URL    *string `json:"url"`
}

// PushWorktree pushes the branch of the session's worktree (setting its
// upstream) and says where it went.
func (s *Service) PushWorktree(ctx context.Context, sid string) (PushResult, error) {
	sess, err := s.m.Session(sid)
	if err != nil {
		return PushResult{}, err
	}
	if sess.Worktree == nil || sess.Archived {
		return PushResult{}, fmt.Errorf("The session has no worktree to push: %w", worker.ErrConflict)
	}
	wt := *sess.Worktree
	unlock := s.lock(sess.ID)
	err = gitdiff.Push(ctx, wt.Path)
	unlock()
	if err != nil {
		return PushResult{}, err
	}
	res := PushResult{Branch: wt.Branch, Base: wt.Base}
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
	return res, nil
}
