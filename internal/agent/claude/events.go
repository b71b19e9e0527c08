package claude

import (
	"bytes"
	"encoding/json"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// event appends what CLI line l is to the engine (usually one event; none
// for the protocol's own lines and lines that cannot be read) to evs.
func (c *conn) event(evs []agent.Event, l Line) []agent.Event {
	if l.Err != nil {
		c.log.Warn("skip claude line", "err", l.Err, "prefix", string(l.Raw[:min(len(l.Raw), 200)]))
		return evs
	}
	switch l.Type {
	case "stream_event":
		return append(evs, agent.Event{Kind: agent.KindDelta, Raw: l.Raw, EndsMessage: isMessageStop(l.Raw)})
	case "control_request":
		if l.Subtype == SubtypeMCPMessage {
			c.mcpMessage(l)
			return evs
		}
		if l.Subtype != "can_use_tool" {
			c.log.Warn("unsupported claude control request", "subtype", l.Subtype)
			return evs
		}
		req, err := newRequest(l)
		if err != nil {
			c.log.Warn("bad can_use_tool request", "err", err)
			return evs
		}
		c.nameProvider(req)
		return append(evs, agent.Event{Kind: agent.KindRequest, Request: req})
	case "control_cancel_request":
		// The CLI withdraws its own request (it may when a turn is
		// interrupted).
		return append(evs, agent.Event{Kind: agent.KindWithdrawn, RequestID: l.RequestID})
	case "control_response":
		return evs // answers to the driver's own requests; Process keeps them
	case TypeCommandLifecycle:
		return evs // receipts for the uuids user messages carry: nothing new to show
	}
	return append(evs, message(l))
}

// message is the event of a line the chat stores.
func message(l Line) agent.Event {
	ev := agent.Event{Kind: agent.KindMessage, Type: l.Type, UUID: l.UUID, Raw: l.Raw}
	if l.buf != nil {
		ev.Wrap = l.Wrap // a long line, with room around it
	}
	if f, ok := ReportedInForce(l); ok {
		ev.InForce = agent.Settings(f)
	}
	// A replayed record of a local command (after set_model the CLI prints
	// "<local-command-stdout>Set model to …" as a user line with
	// "isReplay":true) is no turn.
	ev.NoTurn = l.Type == "user" && isReplay(l.Raw)
	return ev
}

func isReplay(raw []byte) bool { return bytes.Contains(raw, []byte(`"isReplay":true`)) }

// isMessageStop reports whether a stream_event wraps message_stop.
func isMessageStop(raw []byte) bool {
	// Most events are deltas: skip decoding those. Any message_stop event
	// holds this string, however its JSON is spaced.
	if !bytes.Contains(raw, []byte(`"message_stop"`)) {
		return false
	}
	var ev struct {
		Event struct {
			Type string `json:"type"`
		} `json:"event"`
	}
	return json.Unmarshal(raw, &ev) == nil && ev.Event.Type == "message_stop"
}

// Replayed reports whether a stored message is a replayed record of a
// local command (agent.Records).
func (d *Driver) Replayed(msg []byte) bool {
	var l struct {
		IsReplay bool `json:"isReplay"`
	}
	return json.Unmarshal(msg, &l) == nil && l.IsReplay
}
