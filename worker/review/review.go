// Package review owns the review comments a person writes on a session's
// diff: what one is, how a request for one is checked against the files of
// the work tree, when one is outdated, and the message that sends a review
// to the agent. Its Service (service.go, edit.go, send.go) keeps them in
// the store's records and delivers a review to the session's agent; it
// runs no goroutine of its own.
package review

import (
	"errors"
	"time"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// Sides of the diff a comment is on.
const (
	SideOld = "old" // the diff's base version of the file
	SideNew = "new" // the work-tree file
)

// Statuses of a comment.
const (
	StatusDraft = "draft"
	StatusSent  = "sent"
)

// Bounds, so one session's comments stay a small value and a review a
// message the model reads whole.
const (
	MaxComments  = 200      // per session
	MaxBody      = 16 << 10 // bytes of a comment's text
	MaxRange     = 400      // lines one comment quotes
	MaxFileBytes = 8 << 20  // a file larger than this cannot be commented on
)

// Comment is one review comment, as stored and as the API answers it.
// Quote holds the lines StartLine..EndLine of Side as they were when the
// comment was made (or its range last changed); Base is the commit the
// diff compared against then. Outdated is computed when the comment is
// read, never stored: the quoted lines are no longer what the file has.
type Comment struct {
	ID        string     `json:"id"`
	Path      string     `json:"path"`
	Side      string     `json:"side"`
	StartLine int        `json:"startLine"`
	EndLine   int        `json:"endLine"`
	Body      string     `json:"body"`
	Quote     []string   `json:"quote"`
	Base      string     `json:"base"`
	Status    string     `json:"status"`
	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"`
	SentAt    *time.Time `json:"sentAt"`
	Outdated  bool       `json:"outdated"`
}

func fieldErr(field, format string, args ...any) error {
	return wire.FieldErrorf(field, format, args...)
}

// ErrNoFile means the file does not exist on the side asked for.
var ErrNoFile = errors.New("no such file on that side")
