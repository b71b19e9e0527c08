package worker

import (
	"fmt"

	"github.com/agentdesk/agentdesk/internal/fsview"
)

// The Files tab's view of a session's folder: internal/fsview does the
// work and keeps every path inside the folder; the domain opens it by
// session for the edge.
type (
	// Tree is a session's folder, open (close it after use).
	Tree = fsview.Tree
	// UploadOptions and SavedFile are an upload's options and result.
	UploadOptions = fsview.UploadOptions
	SavedFile     = fsview.Saved
)

// The archive formats of a folder download.
const (
	ArchiveZip   = fsview.FormatZip
	ArchiveTarGz = fsview.FormatTarGz
)

var (
	// CheckArchiveFormat refuses an archive format other than those above.
	CheckArchiveFormat = fsview.CheckFormat
	// ServeAsAttachment reports whether a file of this content type must
	// be downloaded, never shown as a page of the app's origin.
	ServeAsAttachment = fsview.Attachment
)

// Trees opens the folders of the manager's sessions.
type Trees struct{ m *Manager }

// NewTrees returns the Files tab's service over m's sessions.
func NewTrees(m *Manager) *Trees { return &Trees{m: m} }

// Open opens the folder of session sid. The caller closes it.
func (t *Trees) Open(sid string) (*Tree, error) {
	sess, err := t.m.Session(sid)
	if err != nil {
		return nil, err
	}
	tree, err := fsview.Open(sess.Cwd)
	if err != nil {
		return nil, fmt.Errorf("open the folder of session %s: %w", sid, err)
	}
	return tree, nil
}
