package review

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/worker"
)

// MaxMessage bounds the review message: the agents' limit of one user
// message (sdk.MaxUserMessage, ptyagent.MaxUserMessage).
const MaxMessage = 256 << 10

// ErrTooLong means the drafts make a message over MaxMessage.
var ErrTooLong = errors.New("The review is too long for one message: send fewer comments at a time")

// startWait bounds how long a send waits for an agent that is still
// starting.
const startWait = 10 * time.Second

// Sent is what a send did: every comment, the sent ones now "sent", and
// the worker the review went to.
type Sent struct {
	WorkerID string    `json:"workerId"`
	Sent     int       `json:"sent"`
	Comments []Comment `json:"comments"`
}

// Send sends every draft comment of session sid as one user message to
// the session's active agent: through the queue while a turn runs (the
// chat), typed into the terminal (pty-agent). The drafts become "sent"
// only once the agent took the message: a failed send leaves them
// drafts. Sends of one session run one at a time, so a double click
// cannot send twice.
func (s *Service) Send(ctx context.Context, sid string) (Sent, error) {
	unlock := s.lock(sid)
	defer unlock()
	cs, err := s.comments(sid)
	if err != nil {
		return Sent{}, err
	}
	var drafts []Comment
	for _, x := range cs {
		if x.Status == StatusDraft {
			drafts = append(drafts, x)
		}
	}
	if len(drafts) == 0 {
		return Sent{}, fmt.Errorf("There are no draft comments to send: %w", worker.ErrConflict)
	}
	msg := Message(drafts)
	if len(msg) > MaxMessage {
		return Sent{}, ErrTooLong
	}
	wid, err := s.deliver(ctx, sid, msg)
	if err != nil {
		return Sent{}, err
	}
	out, err := s.update(sid, markSent(drafts, s.now()))
	if err != nil {
		return Sent{}, err
	}
	return Sent{WorkerID: wid, Sent: len(drafts), Comments: out}, nil
}

func (s *Service) lock(sid string) func() {
	m, _ := s.sends.LoadOrStore(sid, new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// deliver hands msg to the session's active agent worker, with the
// delivery POST …/input uses when "when" is left out.
func (s *Service) deliver(ctx context.Context, sid, msg string) (string, error) {
	sess, err := s.m.Session(sid)
	if err != nil {
		return "", err
	}
	if sess.ActiveAgentWorkerID == nil {
		return "", fmt.Errorf("This session has no agent to send the review to: start one first: %w", worker.ErrConflict)
	}
	wid := *sess.ActiveAgentWorkerID
	wctx, cancel := context.WithTimeout(ctx, startWait)
	defer cancel()
	_, rt, err := s.m.WaitRuntime(wctx, sid, wid)
	if err != nil {
		return "", err
	}
	in, ok := rt.(worker.Inputter)
	if rt == nil || !ok {
		return "", fmt.Errorf("The session's agent is not ready to take a message; try again: %w", worker.ErrConflict)
	}
	return wid, worker.Submit(ctx, in, msg, "")
}

// markSent marks the comments that were sent, as they were sent: one
// edited or deleted meanwhile is left as it is now.
func markSent(sent []Comment, at time.Time) func([]Comment) ([]Comment, error) {
	return func(cs []Comment) ([]Comment, error) {
		for i := range cs {
			for _, x := range sent {
				if cs[i].ID == x.ID && cs[i].UpdatedAt.Equal(x.UpdatedAt) && cs[i].Status == StatusDraft {
					cs[i].Status, cs[i].SentAt = StatusSent, &at
				}
			}
		}
		return cs, nil
	}
}
