package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/worker"
)

// MaxUserMessage is the largest user message SendUser accepts, in bytes.
const MaxUserMessage = 256 << 10

// SendUser stores a user message, publishes it (every tab shows it at
// once), starts the CLI if it is not running, and writes the message to
// it. The message is committed before anything else happens, so a nil
// return, the echo in the tabs and the CLI's copy all mean it is on disk;
// a failed commit (a full disk) is returned and nothing is sent. The turn
// runs (or queues behind the running one) after SendUser returns. A CLI
// that cannot start ends the turn and is reported to the tabs and in the
// worker's status; the next message starts it again. A Cancel before the
// message reached the CLI ends the turn without sending it: SendUser then
// returns nil, since the message is stored. Empty or oversized content is
// an error wrapping worker.ErrInvalid; a missing CLI one wrapping
// worker.ErrClaudeAbsent. ctx is not used to bound the CLI, which
// outlives the call; it bounds the wait for a history import still
// running (import.go).
func (r *Runtime) SendUser(ctx context.Context, content string) error {
	return r.sendUser(ctx, content, nil)
}

// sendUser is SendUser with attachments (SendUserFiles): they are stored
// with the message and go to the CLI as content blocks after its text.
func (r *Runtime) sendUser(ctx context.Context, content string, files []attachment.File) error {
	if err := checkContent(content, len(files)); err != nil {
		return err
	}
	if err := r.waitReady(ctx); err != nil {
		return err
	}
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.q.release() // the person is back: a held queue may deliver again
	return r.sendLocked(content, files, r.journal.produceCommitted)
}

// checkContent refuses empty and oversized user messages; a message of
// attachments only may have no text.
func checkContent(content string, files int) error {
	if strings.TrimSpace(content) == "" && files == 0 {
		return fmt.Errorf("content is empty: %w", worker.ErrInvalid)
	}
	if len(content) > MaxUserMessage {
		return fmt.Errorf("content is %d bytes, more than %d: %w", len(content), MaxUserMessage, worker.ErrInvalid)
	}
	return nil
}

// waitReady refuses a read-only worker and waits for the history import:
// the imported history comes first in the log, and the CLI must not
// append to the session file while it is read. A conversation another
// process writes (watch.go) is refused.
func (r *Runtime) waitReady(ctx context.Context) error {
	if r.readOnly {
		return fmt.Errorf("this worker no longer drives the conversation: %w", worker.ErrNotRunning)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-r.imported:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := r.followErr(); err != nil {
		return err
	}
	return nil
}

// sendLocked stores the user message content and its files with store
// (the queue's delivery also removes its item in that commit) and
// delivers it. The caller holds sendMu.
func (r *Runtime) sendLocked(content string, files []attachment.File, store func([]entry) error) error {
	if r.isStopped() {
		return errStopped
	}
	// From here a Cancel stops this message before the CLI gets it.
	r.setSending(true)
	defer r.setSending(false)
	id := uuid.Must(uuid.NewV7()).String()
	refs, blobs := r.attachmentRefs(files)
	msg := userMessage(content, id, r.conv, time.Now(), refs)
	if err := store([]entry{{kind: kStored, msg: msg, html: userHTML(content), uuid: id, typ: "user", blobs: blobs}}); err != nil {
		return fmt.Errorf("store user message: %w", err)
	}
	err := r.deliver(agent.Input{ID: id, Text: content, Files: files})
	if errors.Is(err, errSendCancelled) {
		r.endTurn()
		return nil
	}
	return err
}

// deliver writes the stored user message in to the agent, starting it
// first when none runs. An agent that keeps ids gives the message in.ID.
func (r *Runtime) deliver(in agent.Input) error {
	p, err := r.ensureProcess()
	if err != nil {
		return err
	}
	err = r.write(p, in)
	if errors.Is(err, agent.ErrExited) {
		// The agent died since its last output: its reader reports the
		// exit; this message goes to a resumed one.
		r.forget(p)
		if p, err = r.ensureProcess(); err != nil {
			return err
		}
		err = r.write(p, in)
	}
	if err != nil && !errors.Is(err, errSendCancelled) {
		return fmt.Errorf("send to the agent: %w", err)
	}
	if err == nil {
		r.markStarted()
		r.startWatch()
	}
	return err
}

// write hands the message to the CLI unless Cancel came first; see
// cancelMu.
func (r *Runtime) write(p agent.Conn, in agent.Input) error {
	r.cancelMu.Lock()
	defer r.cancelMu.Unlock()
	if r.cancelSend {
		return errSendCancelled
	}
	if err := p.Send(in); err != nil {
		return err
	}
	r.sending = false // from now on Cancel interrupts the turn
	return nil
}

// setSending marks a stored message on its way to the CLI (Cancel then
// stops it there), or the end of that.
func (r *Runtime) setSending(on bool) {
	r.cancelMu.Lock()
	r.sending, r.cancelSend = on, false
	r.cancelMu.Unlock()
}

// endTurn ends a turn the CLI never ran: the activity goes back to idle.
func (r *Runtime) endTurn() {
	if err := r.journal.produce([]entry{{kind: kExit}}); err != nil {
		r.log.Debug("end turn after stop", "err", err)
	}
}

// forget waits (bounded) for a dead CLI to be reaped and drops it, so that
// ensureProcess starts another.
func (r *Runtime) forget(p agent.Conn) {
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

// markStarted records, once, that the conversation has begun: the CLI got
// a message of it, so later agent workers resume it.
func (r *Runtime) markStarted() {
	r.mu.Lock()
	done := r.started
	r.started = true
	r.mu.Unlock()
	if !done && r.env.ConversationStarted != nil {
		r.env.ConversationStarted()
	}
}
