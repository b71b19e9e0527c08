package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
	"github.com/agentdesk/agentdesk/persist"
)

// RepoSettings are what agentdesk does in each new worktree of one
// repository: copy the untracked files that match CopyFiles from the
// repository, then run SetupCommand in a terminal worker of the session.
type RepoSettings struct {
	Root         string   `json:"root"`         // the repository's work tree top
	SetupCommand string   `json:"setupCommand"` // "" for none; run with the user's shell
	CopyFiles    []string `json:"copyFiles"`    // patterns relative to Root
}

// DefaultCopyFiles is CopyFiles for a repository with no stored settings.
var DefaultCopyFiles = []string{".env*"}

const (
	maxSetupCommand = 4096
	maxCopyPatterns = 50
)

// repoRoot resolves the root a repository's settings are keyed by.
func repoRoot(ctx context.Context, dir string) (string, error) {
	if dir == "" || !filepath.IsAbs(dir) {
		return "", fieldErr("root", "must be the absolute path of a git repository, got %q", dir)
	}
	top, err := gitrepo.Toplevel(ctx, filepath.Clean(dir))
	if errors.Is(err, gitrepo.ErrNotRepo) {
		return "", fieldErr("root", "%q does not exist or is not a git repository", dir)
	}
	if err != nil {
		return "", fmt.Errorf("repository of %s: %w", dir, err)
	}
	return top, nil
}

// Repos keeps the per-repository settings for new worktrees, in the
// store's records. Safe for concurrent use.
type Repos struct{ rec *persist.Records }

// NewRepos returns the repository settings kept in store.
func NewRepos(store *persist.Store) *Repos { return &Repos{rec: store.Records()} }

// Settings returns the settings of the repository containing dir, the
// defaults when none are stored.
func (r *Repos) Settings(ctx context.Context, dir string) (RepoSettings, error) {
	root, err := repoRoot(ctx, dir)
	if err != nil {
		return RepoSettings{}, err
	}
	rs := RepoSettings{Root: root, CopyFiles: DefaultCopyFiles}
	b, err := r.rec.RepoSettings(root)
	if err != nil || b == nil {
		return rs, err
	}
	if err := json.Unmarshal(b, &rs); err != nil {
		return RepoSettings{}, fmt.Errorf("read settings of %s: %w", root, err)
	}
	rs.Root = root
	if rs.CopyFiles == nil {
		rs.CopyFiles = []string{}
	}
	return rs, nil
}

// Put validates and stores the settings of the repository
// containing rs.Root; bad input changes nothing.
func (r *Repos) Put(ctx context.Context, rs RepoSettings) (RepoSettings, error) {
	root, err := repoRoot(ctx, rs.Root)
	if err != nil {
		return RepoSettings{}, err
	}
	rs.Root = root
	if err := validateSettings(&rs); err != nil {
		return RepoSettings{}, err
	}
	b, err := json.Marshal(rs)
	if err != nil {
		return RepoSettings{}, fmt.Errorf("encode settings: %w", err)
	}
	if err := r.rec.PutRepoSettings(root, b); err != nil {
		return RepoSettings{}, err
	}
	return rs, nil
}

func validateSettings(rs *RepoSettings) error {
	rs.SetupCommand = strings.TrimSpace(rs.SetupCommand)
	if !utf8.ValidString(rs.SetupCommand) || strings.ContainsRune(rs.SetupCommand, 0) {
		return fieldErr("setupCommand", "must be valid UTF-8 text without NUL")
	}
	if len(rs.SetupCommand) > maxSetupCommand {
		return fieldErr("setupCommand", "must be at most %d bytes", maxSetupCommand)
	}
	if rs.CopyFiles == nil {
		rs.CopyFiles = []string{}
	}
	if len(rs.CopyFiles) > maxCopyPatterns {
		return fieldErr("copyFiles", "must list at most %d patterns", maxCopyPatterns)
	}
	for _, p := range rs.CopyFiles {
		if err := gitrepo.ValidCopyPattern(p); err != nil {
			return fieldErr("copyFiles", "%q %v", p, err)
		}
	}
	return nil
}

// prepareWorktree copies the repository's files into a new worktree and
// returns the setup command to run there ("" for none). A failure is
// logged, not fatal: the session is usable without them.
func prepareWorktree(ctx context.Context, r *Repos, log *slog.Logger, wt *Worktree) string {
	rs, err := r.Settings(ctx, wt.Repo)
	if err != nil {
		log.Error("read repository settings", "repo", wt.Repo, "err", err)
		return ""
	}
	if _, err := gitrepo.CopyUntracked(ctx, rs.Root, wt.Path, rs.CopyFiles); err != nil {
		log.Error("copy files into worktree", "worktree", wt.Path, "err", err)
	}
	return rs.SetupCommand
}

// startSetup runs the repository's setup command in a terminal worker of
// the new session, where its output shows; the session is usable
// meanwhile.
func (m *Manager) startSetup(ctx context.Context, sid, command string) {
	if command == "" || !m.Supports(KindTerminal) {
		return
	}
	sh := "/bin/sh"
	for _, kv := range m.cfg.ChildEnv {
		if v, ok := strings.CutPrefix(kv, "SHELL="); ok && v != "" {
			sh = v
		}
	}
	req := WorkerRequest{Kind: KindTerminal, Name: "setup", Command: []string{sh, "-c", command}}
	if _, err := m.CreateWorker(ctx, sid, req); err != nil {
		m.log.Error("start setup command", "session", sid, "err", err)
	}
}
