package chat

import (
	"context"

	attachment "github.com/agentdesk/agentdesk/internal/attach"
)

// SendUser stores a user message, publishes it (every tab shows it at
// once), starts the agent if it is not running, and writes the message to
// it. The message is committed before anything else happens, so a nil
// return, the echo in the tabs and the agent's copy all mean it is on
// disk; a failed commit (a full disk) is returned and nothing is sent. The
// turn runs (or queues behind the running one) after SendUser returns. An
// agent that cannot start ends the turn and is reported to the tabs and in
// the worker's status; the next message starts it again. A Cancel before
// the message reached the agent ends the turn without sending it:
// SendUser then returns nil, since the message is stored. Empty or
// oversized content is an error wrapping worker.ErrInvalid; a missing
// agent program one wrapping worker.ErrClaudeAbsent. ctx is not used to
// bound the agent, which outlives the call; it bounds the wait for a
// history import still running (import.go).
func (r *Runtime) SendUser(ctx context.Context, content string) error {
	return r.sendUser(ctx, content, nil)
}

// sendUser is SendUser with attachments (SendUserFiles): they are stored
// with the message and go to the agent after its text.
func (r *Runtime) sendUser(ctx context.Context, content string, files []attachment.File) error {
	if err := checkContent(content, len(files)); err != nil {
		return err
	}
	if err := r.waitReady(ctx); err != nil {
		return err
	}
	r.snd.lock()
	defer r.snd.unlock()
	r.q.release() // the person is back: a held queue may deliver again
	return r.snd.sendLocked(content, files, r.journal.produceCommitted)
}

// waitReady refuses a read-only worker and waits for the history import:
// the imported history comes first in the log, and the agent must not
// append to the conversation while it is read. A conversation another
// process writes (watch.go) is refused.
func (r *Runtime) waitReady(ctx context.Context) error {
	if r.readOnly {
		return errReadOnly
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-r.imported:
	case <-ctx.Done():
		return ctx.Err()
	}
	return r.follow.refusal()
}
