package server

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
	"github.com/agentdesk/agentdesk/worker/terminal"
)

func lifecycleKinds() map[worker.Kind]worker.Factory {
	return map[worker.Kind]worker.Factory{worker.KindGitDiff: gitdiff.New, worker.KindTerminal: terminal.New}
}

// lifecycleRepo is gitRepo with a local identity: the server's git makes
// the merge commits.
func lifecycleRepo(t *testing.T) string {
	repo := gitRepo(t)
	git(t, repo, "config", "user.name", "t")
	git(t, repo, "config", "user.email", "t@example.com")
	git(t, repo, "config", "commit.gpgsign", "false")
	return repo
}

func (e *env) worktreeSession(repo, branch string) worker.Session {
	e.t.Helper()
	a := e.do("POST", "/api/sessions", map[string]any{"repo": repo, "branch": branch, "worktree": true, "agent": "none"})
	if a.status != 201 {
		e.t.Fatalf("worktree session: %d %s", a.status, a.body)
	}
	var s worker.Session
	a.json(e.t, &s)
	return s
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func commitIn(t *testing.T, dir, name, content string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, name), content)
	git(t, dir, "add", "--", name)
	git(t, dir, "commit", "-q", "-m", "change "+name)
}

func (e *env) worktrees() map[string]worker.WorktreeEntry {
	e.t.Helper()
	a := e.do("GET", "/api/worktrees", nil)
	if a.status != 200 {
		e.t.Fatalf("worktrees: %d %s", a.status, a.body)
	}
	var v struct{ Worktrees []worker.WorktreeEntry }
	a.json(e.t, &v)
	out := map[string]worker.WorktreeEntry{}
	for _, w := range v.Worktrees {
		out[w.SessionID] = w
	}
	return out
}

func gone(path string) bool {
	_, err := os.Lstat(path)
	return errors.Is(err, os.ErrNotExist)
}

func TestMergeBackSquashThenCleanup(t *testing.T) {
	e := newEnv(t, lifecycleKinds())
	repo := lifecycleRepo(t)
	s := e.worktreeSession(repo, "feat")
	if s.Worktree.Base != "main" {
		t.Fatalf("base = %q, want main", s.Worktree.Base)
	}
	commitIn(t, s.Cwd, "b.txt", "b\n")
	w := e.worktrees()[s.ID]
	if w.Path != s.Cwd || w.Base != "main" || w.Ahead != 1 || w.Merged || w.Dirty || w.DiskBytes == 0 {
		t.Fatalf("before merge: %+v", w)
	}
	a := e.do("POST", "/api/sessions/"+s.ID+"/worktree/merge", map[string]string{"mode": "squash", "message": "Add b"})
	if a.status != 200 {
		t.Fatalf("merge: %d %s", a.status, a.body)
	}
	if got := git(t, repo, "log", "-1", "--format=%s"); got != "Add b" {
		t.Fatalf("main's last commit = %q", got)
	}
	if st := git(t, repo, "status", "--porcelain"); st != "" {
		t.Fatalf("main work tree after merge:\n%s", st)
	}
	if w := e.worktrees()[s.ID]; !w.Merged {
		t.Fatalf("after squash: %+v", w)
	}
	a = e.do("POST", "/api/worktrees/cleanup", map[string]any{"paths": []string{s.Cwd}})
	var res worker.CleanupResult
	a.json(t, &res)
	if a.status != 200 || !slices.Equal(res.Removed, []string{s.Cwd}) || len(res.Kept) != 0 {
		t.Fatalf("cleanup: %d %s", a.status, a.body)
	}
	if !gone(s.Cwd) {
		t.Fatal("cleaned-up worktree still on disk")
	}
	if got := git(t, repo, "branch", "--list", "feat"); got == "" {
		t.Fatal("cleanup deleted the branch")
	}
	if got, _ := e.mgr.Session(s.ID); !got.Archived {
		t.Fatalf("session of a cleaned-up worktree not archived: %+v", got)
	}
	if _, listed := e.worktrees()[s.ID]; listed {
		t.Fatal("removed worktree still listed")
	}
}

func TestMergeBackPlainMerge(t *testing.T) {
	e := newEnv(t, lifecycleKinds())
	repo := lifecycleRepo(t)
	s := e.worktreeSession(repo, "feat")
	commitIn(t, s.Cwd, "b.txt", "b\n")
	if a := e.do("POST", "/api/sessions/"+s.ID+"/worktree/merge", map[string]string{"mode": "merge"}); a.status != 200 {
		t.Fatalf("merge: %d %s", a.status, a.body)
	}
	if got := git(t, repo, "log", "-1", "--format=%P"); len(got) < 81 {
		t.Fatalf("not a merge commit: parents %q", got)
	}
	if a := e.do("POST", "/api/sessions/"+s.ID+"/worktree/merge", map[string]string{"mode": "merge"}); a.status != 409 || a.errCode(t) != "conflict" {
		t.Fatalf("merge of nothing new: %d %s", a.status, a.body)
	}
	if a := e.do("POST", "/api/sessions/"+s.ID+"/worktree/merge", map[string]string{"mode": "rebase"}); a.status != 400 || a.errCode(t) != "invalid_field" {
		t.Fatalf("bad mode: %d %s", a.status, a.body)
	}
}

func TestMergeBackConflict409(t *testing.T) {
	e := newEnv(t, lifecycleKinds())
	repo := lifecycleRepo(t)
	s := e.worktreeSession(repo, "feat")
	commitIn(t, s.Cwd, "a.txt", "theirs\n")
	commitIn(t, repo, "a.txt", "ours\n")
	head := git(t, repo, "rev-parse", "HEAD")
	a := e.do("POST", "/api/sessions/"+s.ID+"/worktree/merge", map[string]string{"mode": "merge"})
	var v struct {
		Code  string
		Files []string
	}
	a.json(t, &v)
	if a.status != 409 || v.Code != "conflict" || !slices.Equal(v.Files, []string{"a.txt"}) {
		t.Fatalf("conflicting merge: %d %s", a.status, a.body)
	}
	if st := git(t, repo, "status", "--porcelain"); st != "" {
		t.Fatalf("repo left mid-merge:\n%s", st)
	}
	if !gone(filepath.Join(repo, ".git", "MERGE_HEAD")) || git(t, repo, "rev-parse", "HEAD") != head {
		t.Fatal("the aborted merge left MERGE_HEAD or moved HEAD")
	}
}

// TestCleanupNeverRemovesDirtyOrUnmerged: whatever the client lists, a
// worktree with changes, one whose branch is not merged, and a path that is
// not a session's worktree all stay.
func TestCleanupNeverRemovesDirtyOrUnmerged(t *testing.T) {
	e := newEnv(t, lifecycleKinds())
	repo := lifecycleRepo(t)
	dirty := e.worktreeSession(repo, "dirty")
	writeFile(t, filepath.Join(dirty.Cwd, "scratch.txt"), "not committed")
	unmerged := e.worktreeSession(repo, "unmerged")
	commitIn(t, unmerged.Cwd, "c.txt", "c\n")
	paths := []string{dirty.Cwd, unmerged.Cwd, repo}
	a := e.do("POST", "/api/worktrees/cleanup", map[string]any{"paths": paths})
	var res worker.CleanupResult
	a.json(t, &res)
	if a.status != 200 || len(res.Removed) != 0 || len(res.Kept) != 3 {
		t.Fatalf("cleanup: %d %s", a.status, a.body)
	}
	for _, p := range paths {
		if gone(p) {
			t.Fatalf("%s was removed", p)
		}
	}
	for _, s := range []worker.Session{dirty, unmerged} {
		if got, _ := e.mgr.Session(s.ID); got.Archived {
			t.Fatalf("session %s archived by a refused cleanup", s.Title)
		}
	}
	for _, bad := range []any{map[string]any{"paths": []string{}}, map[string]any{"paths": []string{"rel/path"}}} {
		if a := e.do("POST", "/api/worktrees/cleanup", bad); a.status != 400 || a.errCode(t) != "invalid_field" {
			t.Fatalf("%v: %d %s", bad, a.status, a.body)
		}
	}
}
