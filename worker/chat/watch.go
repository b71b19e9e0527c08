package chat

import (
	"errors"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// Watching a conversation another process writes. A chat that adopts a
// conversation an agent outside agentdesk still drives (a claude process
// in a terminal) must never write it, so after the import it follows the
// agent's record instead (agent.Transcript): messages the other process
// appends are stored and shown as they come, user messages are refused
// (follow), and the agent is not started. When no process writes the
// record any more the chat takes the conversation over: the next message
// resumes it. Both changes are stored as system notes (agentdesk_watching,
// agentdesk_watch_ended), so every tab, also one opened later, knows
// which state the chat is in.

// Polling periods: the record for new messages, and its writer (a second
// is soon enough for lines a person reads).
var (
	watchEvery  = 500 * time.Millisecond
	writerEvery = 2 * time.Second
)

// importHistory is the import goroutine of a new worker that takes over a
// conversation; it closes imported when done. Failures are logged and
// stored as a note in the chat: the worker works without its history.
func (h *history) importHistory() {
	t, im := h.importFile()
	// A process outside agentdesk may still drive the conversation (an
	// adopted one): the chat then follows it read-only. The state is set
	// before user messages are let through.
	watch := im != nil && t.Written()
	h.follow.set(watch, t)
	close(h.imported)
	if watch {
		h.followFile(t, im)
	}
}

// rewatch is the follow of a restored worker: a process outside agentdesk
// may have gone on writing the conversation across the restart. What it
// wrote while the server was down is not shown (the agent resumes the
// conversation with it later).
func (h *history) rewatch() {
	t, err := h.openHistory()
	watch := err == nil && t != nil && t.Written()
	h.follow.set(watch, t)
	close(h.imported)
	if watch {
		h.followFile(t, h.newImporter())
	}
}

// followFile follows the record while another process writes it, then
// hands the conversation to this worker. It runs on the import goroutine,
// after the history is stored.
func (h *history) followFile(t agent.Transcript, im *importer) {
	notes := t.Notes()
	h.note("agentdesk_watching", notes.Writing)
	defer h.follow.set(false, nil)
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	lastCheck := time.Now()
	for {
		select {
		case <-h.stopping:
			return
		case <-tick.C:
		}
		if err := readNew(t, im); err != nil {
			if !errors.Is(err, errStopped) {
				h.log.Error("follow history", "conversation", h.conv, "err", err)
			}
			return
		}
		if time.Since(lastCheck) < writerEvery {
			continue
		}
		lastCheck = time.Now()
		if !t.Written() {
			if readNew(t, im) == nil {
				h.follow.set(false, nil)
				h.note("agentdesk_watch_ended", notes.Ended)
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
