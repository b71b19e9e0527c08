package gitops

import (
	"context"
	"fmt"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
)

// File is the body of stage, unstage and discard: a file as shown, or one
// hunk of it.
type File struct {
	Path            string `json:"path"`
	Hash            string `json:"hash"`            // the file's hash as shown
	Hunk            string `json:"hunk"`            // a hunk id: that hunk only
	DeleteUntracked bool   `json:"deleteUntracked"` // discard: the second confirmation
}

// Status returns the index of session sid's work tree.
func (s *Service) Status(ctx context.Context, sid string) (*Stage, error) {
	dir, err := s.dir(sid)
	if err != nil {
		return nil, err
	}
	return gitdiff.ComputeStage(ctx, dir)
}

// Stage stages a file (or one hunk of it) and returns the new index.
func (s *Service) Stage(ctx context.Context, sid string, f File) (*Stage, error) {
	return s.fileOp(ctx, sid, f, func(ctx context.Context, dir string) error {
		if f.Hunk != "" {
			return gitdiff.StageHunk(ctx, dir, f.Path, f.Hunk)
		}
		return gitdiff.StageFile(ctx, dir, f.Path, f.Hash)
	})
}

// Unstage unstages a file (or one hunk of it) and returns the new index.
func (s *Service) Unstage(ctx context.Context, sid string, f File) (*Stage, error) {
	return s.fileOp(ctx, sid, f, func(ctx context.Context, dir string) error {
		if f.Hunk != "" {
			return gitdiff.UnstageHunk(ctx, dir, f.Path, f.Hunk)
		}
		return gitdiff.UnstageFile(ctx, dir, f.Path, f.Hash)
	})
}

// Discard throws away a whole file's changes, as shown (its hash), and
// returns the new index. An untracked file goes only with DeleteUntracked.
func (s *Service) Discard(ctx context.Context, sid string, f File) (*Stage, error) {
	return s.fileOp(ctx, sid, f, func(ctx context.Context, dir string) error {
		if f.Hunk != "" {
			return fmt.Errorf("The hunk field is not accepted by discard: discard takes a whole file: %w", worker.ErrInvalid)
		}
		if f.Hash == "" {
			return fmt.Errorf("The hash field is required: discard only what was shown: %w", worker.ErrInvalid)
		}
		return gitdiff.DiscardFile(ctx, dir, f.Path, f.Hash, f.DeleteUntracked)
	})
}

// Commit commits what is staged with message and returns the new index.
func (s *Service) Commit(ctx context.Context, sid, message string) (*Stage, error) {
	return s.do(ctx, sid, func(ctx context.Context, dir string) error {
		_, err := gitdiff.Commit(ctx, dir, message)
		return err
	})
}

// Push pushes the checked-out branch and returns the index.
func (s *Service) Push(ctx context.Context, sid string) (*Stage, error) {
	return s.do(ctx, sid, gitdiff.Push)
}

func (s *Service) fileOp(ctx context.Context, sid string, f File, op func(ctx context.Context, dir string) error) (*Stage, error) {
	if f.Path == "" {
		return nil, fmt.Errorf("The path field is required: %w", worker.ErrInvalid)
	}
	return s.do(ctx, sid, op)
}

// do runs one operation under the session's lock and returns the new
// index.
func (s *Service) do(ctx context.Context, sid string, op func(ctx context.Context, dir string) error) (*Stage, error) {
	dir, err := s.dir(sid)
	if err != nil {
		return nil, err
	}
	unlock := s.lock(sid)
	err = op(ctx, dir)
	unlock()
	if err != nil {
		return nil, err
	}
	return gitdiff.ComputeStage(ctx, dir)
}
