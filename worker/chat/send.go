package chat

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/worker"
)

// MaxUserMessage is the largest user message SendUser accepts, in bytes.
const MaxUserMessage = 256 << 10

// sender stores user messages and delivers them to the agent, one at a
// time: its lock serializes them, so the log and the agent get them in
// the same order, and the lazy start of the agent. Safe for concurrent
// use.
type sender struct {
	mu       sync.Mutex
	slot     *slot
	gate     *gate
	j        *journal
	dog      *guard
	refs     refMaker
	stopping <-chan struct{}
}

// lock and unlock hold the sender for one message (or for a change the
// next start must see, such as new settings).
func (s *sender) lock()   { s.mu.Lock() }
func (s *sender) unlock() { s.mu.Unlock() }

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

// sendLocked stores the user message content and its files with store
// (the queue's delivery also removes its item in that commit) and
// delivers it. The caller holds the lock. A Cancel before the message
// reached the agent ends the turn without sending it: nil, since the
// message is stored.
func (s *sender) sendLocked(content string, files []attachment.File, store func([]entry) error) error {
	if isClosed(s.stopping) {
		return errStopped
	}
	// From here a Cancel stops this message before the agent gets it.
	s.gate.begin()
	defer s.gate.end()
	s.slot.refresh(!s.j.busy())
	id := uuid.Must(uuid.NewV7()).String()
	refs, blobs := s.refs.refs(files)
	msg := userMessage(content, id, s.slot.conversation(), time.Now(), refs)
	if err := store([]entry{{kind: kStored, msg: msg, html: userHTML(content), uuid: id, typ: "user", blobs: blobs}}); err != nil {
		return fmt.Errorf("store user message: %w", err)
	}
	err := s.deliver(agent.Input{ID: id, Text: content, Files: files})
	if be := (*budgetError)(nil); errors.As(err, &be) {
		return s.j.produce([]entry{budgetEntry(be, s.slot.conversation())})
	}
	if errors.Is(err, errSendCancelled) {
		s.j.endTurn()
		return nil
	}
	return err
}

// deliver writes the stored user message in to the agent, starting it
// first when none runs. An agent that keeps ids gives the message in.ID.
func (s *sender) deliver(in agent.Input) error {
	p, err := s.slot.ensure()
	if err != nil {
		return err
	}
	err = s.gate.pass(func() error { return p.Send(in) })
	if errors.Is(err, agent.ErrExited) {
		// The agent died since its last output: its reader reports the
		// exit; this message goes to a resumed one.
		s.slot.forget(p)
		if p, err = s.slot.ensure(); err != nil {
			return err
		}
		err = s.gate.pass(func() error { return p.Send(in) })
	}
	if err != nil && !errors.Is(err, errSendCancelled) {
		return fmt.Errorf("send to the agent: %w", err)
	}
	if err == nil {
		s.slot.markStarted()
		s.dog.start()
	}
	return err
}
