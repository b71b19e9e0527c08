package worker

import (
	"context"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/filelist"
)

// FileList answers the composer's "@" completion (docs/api-extensions.md,
// "File completion"): the files of a session's work tree that match a
// query, best first, from a listing cached per directory
// (internal/filelist). Safe for concurrent use; it runs no goroutine.
type FileList struct {
	m     *Manager
	cache *filelist.Cache
}

// NewFileList returns the file lists of m's sessions.
func NewFileList(m *Manager) *FileList { return &FileList{m: m, cache: filelist.NewCache(nil)} }

// Match returns at most limit files of session sid's work tree that match
// q, best first. A session that does not exist is an error wrapping
// ErrNotFound; a listing that failed wraps its cause (a deadline, a
// directory gone).
func (f *FileList) Match(ctx context.Context, sid, q string, limit int) ([]string, error) {
	sess, err := f.m.Session(sid)
	if err != nil {
		return nil, err
	}
	idx, err := f.cache.Index(ctx, sess.Cwd)
	if err != nil {
		return nil, fmt.Errorf("list the files of %s: %w", sess.Cwd, err)
	}
	return idx.Rank(q, limit), nil
}
