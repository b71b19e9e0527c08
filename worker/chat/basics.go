package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/worker"
)

// The engine's small shared pieces: its sentinel errors and helpers every
// part uses.

// errStopped is returned once the worker is stopping (by the journal once
// it is closed).
var errStopped = fmt.Errorf("chat worker stopped: %w", worker.ErrNotRunning)

// errSendCancelled is a Cancel that came before the agent got the message.
var errSendCancelled = errors.New("cancelled before the agent got the message")

// errReadOnly refuses what a worker that no longer drives the conversation
// cannot do.
var errReadOnly = fmt.Errorf("this worker no longer drives the conversation: %w", worker.ErrNotRunning)

// reportedError is an error the tabs were already told about with an error
// frame, so the WebSocket edge need not answer it again.
type reportedError struct{ err error }

func (e reportedError) Error() string { return e.err.Error() }
func (e reportedError) Unwrap() error { return e.err }

// closed is a closed channel.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// isClosed reports whether c is closed (the worker's stopping channel).
func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// mustJSON marshals the messages agentdesk makes, of strings and numbers
// only (or of values just decoded), which cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("chat: marshal message: %v", err)) // fixed shapes: a bug
	}
	return b
}

// lastLines returns the last n non-empty lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
