package worker

import (
	"log/slog"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
)

// table is the state of every session and worker: in memory for
// lookups, in the store for restarts, changed only by the commits of
// commit.go, each followed by its /ws/app event (events.go). The Manager
// and the services built on it change it; lookups never wait for the disk.
//
// Two locks, taken in this order: commitMu serialises every change of a
// session or worker, from computing it through its commit to its
// broadcast, so that events go out in commit order; mu guards the
// in-memory state and is held only for in-memory steps, never across a
// commit, so a lookup or an attach never waits for the disk.
type table struct {
	store *persist.Store
	log   *slog.Logger
	now   func() time.Time

	commitMu sync.Mutex

	mu       sync.RWMutex
	sessions map[string]*sessionState
	events   *hub.Hub
	eventSeq uint64
	closed   bool
}
