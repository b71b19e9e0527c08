package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// clientFrame is any frame a tab sends on the sdk socket.
type clientFrame struct {
	Type         string             `json:"type"`
	Content      *string            `json:"content"`
	RequestID    string             `json:"requestId"`
	Behavior     string             `json:"behavior"`
	Message      string             `json:"message"`
	UpdatedInput json.RawMessage    `json:"updatedInput"`
	After        string             `json:"after"`
	Force        bool               `json:"force"` // cancel: skip the interrupt
	Attachments  []attachment.Input `json:"attachments"`
	When         string             `json:"when"` // user-message: "now" or "queue" (queue.go)
	// UpdatedPermissions goes with an allow: the agent's permission
	// updates (a suggestion of the request, or a mode), checked by the
	// driver (docs/api-extensions.md, "Live settings, plans and rules").
	UpdatedPermissions json.RawMessage `json:"updatedPermissions"`
}

// HandleClient handles one frame from a tab: user-message, cancel (ignored
// when idle), permission-response and request-history (which returns the
// new Stream). Anything else is an error wrapping worker.ErrInvalid.
// Failures already shown to the tabs as error frames return nil.
func (r *Runtime) HandleClient(ctx context.Context, data []byte) (*hub.Stream, error) {
	var f clientFrame
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("frame is not a JSON object with the fields of its type: %w", worker.ErrInvalid)
	}
	var err error
	switch f.Type {
	case wire.TypeUserMessage:
		if f.Content == nil {
			return nil, fmt.Errorf("user-message needs a string \"content\": %w", worker.ErrInvalid)
		}
		err = r.sendFrame(ctx, *f.Content, f.When, f.Attachments)
	case wire.TypeCancel:
		if f.Force {
			_, err = r.ForceCancel(ctx)
		} else {
			_, err = r.Cancel(ctx)
		}
	case wire.TypePermissionResponse:
		err = r.AnswerPermission(f.RequestID, f.Behavior, f.Message, f.UpdatedInput, f.UpdatedPermissions)
	case wire.TypeRequestHistory:
		return r.Attach(ctx, f.After)
	case "":
		return nil, fmt.Errorf("frame has no \"type\": %w", worker.ErrInvalid)
	default:
		return nil, fmt.Errorf("unknown frame type %q for an sdk worker: %w", f.Type, worker.ErrInvalid)
	}
	var shown reportedError
	if errors.As(err, &shown) {
		return nil, nil
	}
	return nil, err
}

// sendFrame sends a user-message frame's content and attachments; a bad
// attachment is refused before anything is stored or sent.
func (r *Runtime) sendFrame(ctx context.Context, content, when string, in []attachment.Input) error {
	if len(in) == 0 {
		return r.Submit(ctx, content, when)
	}
	files, err := attachment.Decode(in)
	if err != nil {
		return err
	}
	return r.SendUserFiles(ctx, content, when, files)
}
