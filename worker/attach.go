package worker

import (
	"context"

	"github.com/agentdesk/agentdesk/internal/hub"
)

// Attachable is a runtime that serves the per-worker WebSocket. Every kind
// defines its own frames (API.md); the server only moves bytes.
type Attachable interface {
	// Attach opens a stream starting after cursor, the raw value of the
	// socket's query parameter (sdk: "after" uuid; PTY kinds: "offset";
	// "" means from the oldest kept). An unknown cursor is not an error:
	// the replay then starts with whatever reset/truncated frame the kind's
	// protocol defines.
	Attach(ctx context.Context, cursor string) (*hub.Stream, error)
	// HandleClient handles one text frame from a client. A frame that is
	// malformed or of an unknown type returns an error wrapping ErrInvalid
	// (the server answers with an invalid_message error frame and keeps
	// the connection). A frame that asks for a fresh replay
	// (request-history) returns the new Stream; the server then sends it
	// in place of the current one.
	HandleClient(ctx context.Context, data []byte) (*hub.Stream, error)
}

// CursorParam is the query parameter that carries the cursor for a kind.
func CursorParam(k Kind) string {
	switch k {
	case KindSDK:
		return "after"
	case KindTerminal, KindPTYAgent:
		return "offset"
	}
	return ""
}
