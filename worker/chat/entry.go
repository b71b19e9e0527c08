package chat

import "github.com/agentdesk/agentdesk/persist"

// What flows through the journal: entries, in batches.

// kind says what an entry does to the published state.
type kind uint8

const (
	kStored   kind = iota // a message of the log: stored, then published
	kStream               // a stream_event: published and kept for the turn
	kAsk                  // a permission request: published and kept pending
	kResolved             // a permission answered: its pending request goes
	kExit                 // the agent exited or never ran: the turn and pending requests end
	kFrame                // any other frame (errors): published only
	kStall                // the watchdog raised (stall) or cleared a stall
	kStage                // a stop-stage frame: published and kept until the turn ends
	kQueue                // the queue frame: published and kept for attach
)

// entry is one frame on its way through the journal.
type entry struct {
	kind kind
	// kStored: the agent's message (or a user message) with its uuid, its type and
	// the rendered html (nil when none; htmlTruncated when blocks were
	// left out). produce fills seq and frame, and drops msg once the frame
	// holds it.
	msg, html     []byte
	htmlTruncated bool
	uuid, typ     string
	seq           uint64
	// wrap, when set, builds the frame in msg's own buffer (wrapFrame;
	// agent.Event.Wrap): msg is the agent's message unchanged.
	wrap func(head, tail []byte) ([]byte, bool)
	// history marks a stored message imported from the session file
	// (import.go): a past turn, so the running turn and the activity are
	// left alone.
	history bool
	// bulk marks an imported message that goes to the tabs in a
	// history-appended notice with the others of its run instead of in a
	// frame of its own (journal_publish.go): a tab shows the newest page
	// of an import, never thousands of messages one by one.
	bulk bool
	// endsMessage marks the stream_event that ends an API message
	// (message_stop): its blocks are all stored by then.
	endsMessage bool
	frame       []byte
	perm        *permission // kAsk, kResolved
	stall       bool        // kStall: raised (true) or cleared
	// blobs are the attachments stored with a kStored message.
	blobs []persist.Blob
}

// batch is what the publisher receives: entries in order and, when some
// are stored, the channel that reports their commit, the seq of the first
// and the numbering epoch (see journal_rollback.go).
type batch struct {
	entries []entry
	commit  <-chan error
	first   uint64
	epoch   uint64
	size    int // frame bytes, held in inflight until published
	// ack, when set, receives the commit's result (nil when nothing is
	// stored) once the batch is published: produceCommitted waits on it.
	ack chan<- error
	// dq, when set, is the queue item the batch's stored user message
	// delivers: the same commit removes it (queue.go).
	dq *dequeue
}

// queueLen bounds the batches between producers and the publisher. When it
// is full, producers wait: the agent is paced by the disk, never dropped.
const queueLen = 256

// dequeue names the queue item a stored user message delivers.
type dequeue struct {
	sid, id, content string
}

// maxBatch bounds the entries of an imported batch (importer.go); the
// driver bounds the batches of events (agent.Conn.Events).
const maxBatch = 256
