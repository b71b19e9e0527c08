package agent

import "encoding/json"

// EventKind says what an Event is.
type EventKind uint8

// The kinds of Event. New kinds may come (a tool call agentdesk itself
// answers, say); the engine ignores a kind it does not know.
const (
	// KindMessage is a complete message: the engine stores it, then
	// shows it. A user or assistant message begins a turn unless NoTurn;
	// a result ends it.
	KindMessage EventKind = iota + 1
	// KindDelta is a streamed part of the message being written
	// (stream_event): shown at once, kept for tabs that attach mid-message
	// until the message ends, never stored.
	KindDelta
	// KindRequest is the agent asking the person (Request).
	KindRequest
	// KindWithdrawn is the agent withdrawing its Request RequestID (it
	// may when a turn is interrupted): the tabs drop the prompt.
	KindWithdrawn
)

// Event is one thing the agent said.
type Event struct {
	Kind EventKind
	// Type is a message's API type (user, assistant, result, system, …).
	Type string
	// UUID is a message's uuid; "" lets the engine give it one (as it
	// does a uuid it has seen lately).
	UUID string
	// Raw is the message (KindMessage, KindDelta) in the API's format, a
	// JSON object. The receiver owns it.
	Raw []byte
	// Wrap, when not nil, returns head, Raw and tail as one slice built in
	// Raw's own buffer (room the driver left around a long message), or
	// false when head or tail do not fit. The engine calls it at most
	// once, to build a frame around a message of many MB without copying
	// it.
	Wrap func(head, tail []byte) ([]byte, bool)
	// EndsMessage marks the KindDelta that ends the message being
	// streamed: its complete blocks were all sent as KindMessage first.
	EndsMessage bool
	// NoTurn marks a KindMessage that begins no turn although it is a
	// user message (an agent's record of a local command, printed while
	// idle): it leaves the activity alone.
	NoTurn bool
	// InForce is what a KindMessage says the agent runs with now; ""
	// values say nothing.
	InForce Settings
	// NoProgress marks a KindMessage that is no sign of progress (the
	// agent retrying a model request it could not make): it does not hold
	// off the stall watchdog, so an agent that retries an unreachable API
	// for ever is marked stalled.
	NoProgress bool
	// Request is the KindRequest's request.
	Request *Request
	// RequestID is the request a KindWithdrawn withdraws.
	RequestID string
}

// RequestKind says what a Request asks: the engine words its prompt and a
// late answer by kind, never by tool name.
type RequestKind uint8

const (
	// RequestTool asks to allow or deny a tool call.
	RequestTool RequestKind = iota
	// RequestQuestion asks the person questions: an allow's Input carries
	// the answers ({"answers":{question: answer}}).
	RequestQuestion
	// RequestPlan asks to approve a plan (Plan) and leave planning.
	RequestPlan
)

// Request is the agent asking the person: a tool permission, questions, a
// plan.
type Request struct {
	ID   string
	Kind RequestKind
	// Tool is the tool the agent means to call.
	Tool string
	// Input is the tool's input, a JSON object ({} when the agent gave
	// none).
	Input       json.RawMessage
	Description string
	ToolUseID   string
	BlockedPath string
	// Suggestions are the agent's "always allow" choices, passed to the
	// tabs as they are; an answer may send some back (Answer.Updates).
	Suggestions json.RawMessage
	// RequiresUserInteraction is the agent's hint that only a person may
	// answer (nil: not said).
	RequiresUserInteraction *bool
	// Plan is a RequestPlan's plan, in markdown.
	Plan string
}

// Answer answers a Request.
type Answer struct {
	Allow bool
	// Message says why a deny was given; the engine always fills it.
	Message string
	// Input is an allow's input: the request's, or the person's edit of it
	// (the answers of a RequestQuestion).
	Input json.RawMessage
	// Updates are an allow's permission updates as the person chose them
	// (usually some of the request's Suggestions), already checked by the
	// driver's Updater.
	Updates json.RawMessage
}
