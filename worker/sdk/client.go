package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// clientFrame is any frame a tab sends on the sdk socket.
type clientFrame struct {
	Type         string          `json:"type"`
	Content      *string         `json:"content"`
	RequestID    string          `json:"requestId"`
	Behavior     string          `json:"behavior"`
	Message      string          `json:"message"`
	UpdatedInput json.RawMessage `json:"updatedInput"`
	After        string          `json:"after"`
	permFields
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
		err = r.SendUser(ctx, *f.Content)
	case wire.TypeCancel:
		_, err = r.Cancel(ctx)
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
