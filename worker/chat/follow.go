package chat

import (
	"fmt"
	"sync"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

// follower says whether another process writes the conversation now (an
// adopted one, watch.go): the chat then refuses what would make it write
// the conversation. Safe for concurrent use.
type follower struct {
	mu  sync.Mutex
	err error // what is refused; nil when no other process writes
}

// refusal is the error for what the chat refuses now; nil when it refuses
// nothing.
func (f *follower) refusal() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// set starts (on, with the words of t's notes) or ends following.
func (f *follower) set(on bool, t agent.Transcript) {
	var err error
	if on {
		err = fmt.Errorf("%s: %w", t.Notes().Busy, worker.ErrConflict)
	}
	f.mu.Lock()
	f.err = err
	f.mu.Unlock()
}
