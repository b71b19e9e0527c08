package worker

import (
	"context"
	"encoding/json"

	"github.com/agentdesk/agentdesk/internal/attach"
)

// The optional abilities of a Runtime, which the server (REST endpoints)
// and the manager (Switch) find with a type assertion. A kind that has one
// says so at build time: var _ worker.Differ = (*Runtime)(nil).
type (
	// Inputter takes a user message (POST …/input).
	Inputter interface {
		SendUser(ctx context.Context, content string) error
	}
	// FileSender takes a user message with attachments, checked by
	// attach.Decode (POST …/input, user-message with "attachments").
	// when is "now", "queue" or "" as for Queuer.Submit; a queued message
	// keeps its attachments.
	FileSender interface {
		SendUserFiles(ctx context.Context, content, when string, files []attach.File) error
	}
	// AttachmentReader serves a stored attachment by id (GET
	// …/attachments/:id); an unknown id is an error wrapping ErrNotFound.
	AttachmentReader interface {
		Attachment(id string) (Attachment, error)
	}
	// Canceller interrupts the running turn (POST …/cancel, a forced
	// switch); false when none ran.
	Canceller interface {
		Cancel(ctx context.Context) (bool, error)
	}
	// ForceCanceller ends the running turn without asking the agent
	// first (POST …/cancel {"force": true}): its processes get SIGTERM,
	// then SIGKILL; false when none ran.
	ForceCanceller interface {
		ForceCancel(ctx context.Context) (bool, error)
	}
	// MessageLister pages through the stored messages (GET …/messages):
	// at most limit after the message uuid after ("" from the oldest), and
	// whether more follow.
	MessageLister interface {
		Messages(after string, limit int) ([]json.RawMessage, bool, error)
	}
	// OlderMessageLister pages backwards (GET …/messages?before=): the
	// newest limit messages before the message uuid before ("" the end)
	// and after after ("" no bound), oldest first, and whether older ones
	// remain in that range.
	OlderMessageLister interface {
		MessagesBefore(before, after string, limit int) ([]json.RawMessage, bool, error)
	}
	// Differ computes a diff now (GET …/diff): the whole diff, or one file
	// in full when path is not "".
	Differ interface {
		Diff(ctx context.Context, path string) (any, error)
	}
	// ActivityReporter is an agent runtime that knows whether a turn runs
	// (Switch refuses to interrupt one unless forced). Its Activity is the
	// one source of truth for the worker's activity: the worker's record
	// is read through it (Manager.Worker, session snapshots), since a
	// report reaches the record only after its commit, later than the
	// runtime's own frames reach its tabs. Activity must not wait on the
	// manager: it is called under the manager's lock.
	ActivityReporter interface {
		Activity() Activity
	}
	// Suspender is a runtime that can stop for a server shutdown
	// differently from Stop (a delete or a switch): it keeps what waits
	// for the user (pending permission requests) for the next start.
	// Manager.Close calls Suspend instead of Stop.
	Suspender interface {
		Suspend(ctx context.Context) error
	}
	// Watcher is an agent runtime that may follow a conversation another
	// process writes (an adopted one): then no switch may start a CLI on it.
	Watcher interface {
		Watching() bool
	}
)

// Attachment is a stored attachment: what a person attached to a message
// (or an image imported from the CLI's session file).
type Attachment struct {
	Name      string
	MediaType string
	Data      []byte
}
