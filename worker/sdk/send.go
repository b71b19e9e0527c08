package sdk

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/claude"
)

// MaxUserMessage is the largest user message SendUser accepts, in bytes.
const MaxUserMessage = 256 << 10

// SendUser stores and publishes a user message (every tab shows it at
// once), starts the CLI if it is not running, and writes the message to
// it. The turn runs (or queues behind the running one) after SendUser
// returns. Empty or oversized content is an error wrapping
// worker.ErrInvalid; a missing CLI one wrapping worker.ErrClaudeAbsent.
// ctx is not used to bound the CLI, which outlives the call; it bounds
// the wait for a history import still running (import.go).
func (r *Runtime) SendUser(ctx context.Context, content string) error {
	if strings.TrimSpace(content) == "" {
		return fmt.Errorf("content is empty: %w", worker.ErrInvalid)
	}
	if len(content) > MaxUserMessage {
		return fmt.Errorf("content is %d bytes, more than %d: %w", len(content), MaxUserMessage, worker.ErrInvalid)
	}
	if r.readOnly {
		return fmt.Errorf("this worker no longer drives the conversation: %w", worker.ErrNotRunning)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// The imported history comes first in the log, and the CLI must not
	// append to the session file while it is read.
	select {
	case <-r.imported:
	case <-ctx.Done():
		return ctx.Err()
	}
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	if r.isStopped() {
		return errStopped
	}
	id := uuid.Must(uuid.NewV7()).String()
	msg := userMessage(content, id, r.conv, time.Now())
	if err := r.produce([]entry{{kind: kStored, msg: msg, html: userHTML(content), uuid: id, typ: "user"}}); err != nil {
		return err
	}
	p, err := r.ensureProcess()
	if err != nil {
		return err
	}
	err = p.SendUser(content)
	if errors.Is(err, claude.ErrExited) {
		// The CLI died since its last line: its reader reports the exit;
		// this message goes to a resumed one.
		r.forget(p)
		if p, err = r.ensureProcess(); err != nil {
			return err
		}
		err = p.SendUser(content)
	}
	if err != nil {
		return fmt.Errorf("send to claude: %w", err)
	}
	return nil
}

// forget waits (bounded) for a dead CLI to be reaped and drops it, so that
// ensureProcess starts another.
func (r *Runtime) forget(p *claude.Process) {
	select {
	case <-p.Done():
	case <-time.After(closeTimeout):
	}
	r.mu.Lock()
	if r.proc == p {
		r.proc = nil
	}
	r.mu.Unlock()
}
