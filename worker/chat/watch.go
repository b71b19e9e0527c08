package chat

import (
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

// Watching a conversation another process writes. A chat that adopts a
// conversation an agent outside agentdesk still drives (a claude process
// in a terminal) must never write it, so after the import it follows the
// agent's record instead (agent.Transcript): messages the other process
// appends are stored and shown as they come, user messages are refused,
// and the agent is not started. When no process writes the record any
// more the chat takes the conversation over: the next message resumes it.
// Both changes are stored as system notes (agentdesk_watching,
// agentdesk_watch_ended), so every tab, also one opened later, knows
// which state the chat is in.

// Polling periods: the record for new messages, and its writer (a second
// is soon enough for lines a person reads).
var (
	watchEvery  = 500 * time.Millisecond
	writerEvery = 2 * time.Second
)

// rewatch is the follow of a restored worker: a process outside agentdesk
// may have gone on writing the conversation across the restart. What it
// wrote while the server was down is not shown (the agent resumes the
// conversation with it later).
func (r *Runtime) rewatch() {
	t, err := r.openHistory()
	watch := err == nil && t != nil && t.Written()
	r.setFollowing(watch, t)
	close(r.imported)
	if !watch {
		return
	}
	r.followFile(t, &importer{r: r, ids: make(map[string]struct{})})
}

var _ worker.Watcher = (*Runtime)(nil)

// Watching reports whether another process writes the conversation now.
func (r *Runtime) Watching() bool { return r.followErr() != nil }

// followErr is the error for what the chat refuses while another process
// writes the conversation; nil when none does.
func (r *Runtime) followErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.following
}

func (r *Runtime) setFollowing(on bool, t agent.Transcript) {
	var err error
	if on {
		err = fmt.Errorf("%s: %w", t.Notes().Busy, worker.ErrConflict)
	}
	r.mu.Lock()
	r.following = err
	r.mu.Unlock()
}

// followFile follows the record while another process writes it, then
// hands the conversation to this worker. It runs on the import goroutine,
// after the history is stored.
func (r *Runtime) followFile(t agent.Transcript, im *importer) {
	notes := t.Notes()
	r.note("agentdesk_watching", notes.Writing)
	defer r.setFollowing(false, nil)
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	lastCheck := time.Now()
	for {
		select {
		case <-r.stopping:
			return
		case <-tick.C:
		}
		if err := readNew(t, im); err != nil {
			if !errors.Is(err, errStopped) {
				r.log.Error("follow history", "conversation", r.conv, "err", err)
			}
			return
		}
		if time.Since(lastCheck) < writerEvery {
			continue
		}
		lastCheck = time.Now()
		if !t.Written() {
			if readNew(t, im) == nil {
				r.setFollowing(false, nil)
				r.note("agentdesk_watch_ended", notes.Ended)
			}
			return
		}
	}
}

// readNew stores what was appended to the record since the last read.
// Messages the import already stored are skipped by their uuid.
func readNew(t agent.Transcript, im *importer) error {
	if err := t.ReadNew(im.add); err != nil {
		return err
	}
	return im.flush()
}

// note stores a system note about the chat's state.
func (r *Runtime) note(subtype, text string) {
	id := uuid.Must(uuid.NewV7()).String()
	msg := mustJSON(importFailedNote{Type: "system", Subtype: subtype, Message: text, UUID: id, SessionID: r.conv})
	if err := r.journal.produce([]entry{{kind: kStored, msg: msg, uuid: id, typ: "system", history: true}}); err != nil {
		r.log.Debug("watch note after stop", "err", err)
	}
}
