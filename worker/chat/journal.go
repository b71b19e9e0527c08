package chat

import (
	"log/slog"
	"sync"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// journal is the write-ahead path of one sdk worker's conversation, from
// the producers (the agent's reader, SendUser, the request handlers, the
// history import) to the tabs. produce numbers the stored entries, queues
// them with the store (group commit) and queues the whole batch for the
// publisher, all under mu, so that seq order, commit order and publish
// order are one order. The publisher waits for each batch's commit and
// then publishes its frames on the hub: a stored message is on disk before
// any tab sees it, and the hub's cursor is always a committed seq.
//
// Besides the log, the journal keeps what a tab that attaches needs and
// the store does not hold: the stream_event frames of the message being
// streamed, the pending permission requests and the activity, all changed
// only by the publisher, under pubMu, with the Publish of the frame that
// changes them; attach snapshots them under pubMu with its subscription.
//
// All methods are safe for concurrent use. The publisher and the activity
// reporter run only while there is work (an idle journal runs no goroutine
// and holds no queue); close ends them.
type journal struct {
	store  *persist.Store
	wid    string
	log    *slog.Logger
	report func(worker.Activity) // tells the manager; called by the reporter only

	mu       sync.Mutex // guards seq, epoch, queue (and sends on it) and closed
	seq      uint64     // the last seq given out
	epoch    uint64     // numbering epoch, see journal_rollback.go
	queue    chan batch // nil while no publisher runs
	closed   bool
	inflight *budget   // frame bytes queued for the publisher
	rb       rollbacks // failed commits, from the publisher to produce

	pubMu    sync.Mutex // guards the hub's publishing and the fields below
	hub      *hub.Hub
	cursor   uint64 // seq of the last published stored message
	turn     turnBuffer
	inTurn   bool
	pending  []*permission
	activity worker.Activity
	stalled  bool          // the watchdog says the running turn stalled (stall.go)
	stage    []byte        // the stop-stage frame of a Stop under way (stop.go), nil when none
	idle     chan struct{} // closed when the activity next becomes idle; nil when nobody waits
	queued   []byte        // the last queue frame (queue.go), sent on attach
	bulk     bulkRun       // the latest run of imported messages sent as notices

	reporter coalescer      // runs reportActivity when the activity changed
	wg       sync.WaitGroup // the publisher and the reporters
	meter    *meter         // usage and rate limits (meter.go); nil: none
}

// newJournal returns the journal of a log whose last stored seq is last.
// report receives the activity whenever it changed (coalesced).
func newJournal(store *persist.Store, wid string, last uint64, log *slog.Logger, report func(worker.Activity)) *journal {
	return &journal{
		store: store, wid: wid, log: log, report: report,
		seq: last, inflight: newBudget(maxInflight),
		hub: hub.New(last), cursor: last, activity: worker.ActivityIdle,
	}
}

// waitRoom returns once the publisher has room for more frames (see
// maxInflight): the agent's reader waits here before it takes more lines.
func (j *journal) waitRoom() { j.inflight.wait() }

// close refuses further entries, lets the publisher drain what is queued
// and waits for it and the reporter. Then it kicks the live tabs: later
// attachments get the history from a hub that never publishes.
func (j *journal) close() {
	j.mu.Lock()
	j.closed = true
	if j.queue != nil {
		close(j.queue) // the publisher drains it and ends
	}
	j.mu.Unlock()
	j.wg.Wait()

	j.pubMu.Lock()
	old := j.hub
	j.hub = hub.New(j.cursor)
	j.pubMu.Unlock()
	old.Close()
}
