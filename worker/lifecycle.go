package worker

// A worker's status moves forward only, through one table: a late report
// cannot resurrect a worker the manager stopped, and a kind cannot take a
// move that belongs to the manager.
//
//	starting ──► running ──► exited
//	    │           │
//	    └──► error ◄┘        (error ──► running: a later attempt worked)
//
//	any but stopped ──► stopped   the manager only (switched away)
//	running, exited, error ──► starting   the manager only (restart)
//
// stopped is final: every report from a stopped worker is dropped.

// actor is who asks for a change of a worker's record.
type actor uint8

const (
	byKind    actor = 1 << iota // the worker's runtime, through its Reporter
	byManager                   // the manager: restart, switch, a failed build
)

func (a actor) String() string {
	switch a {
	case byKind:
		return "kind"
	case byManager:
		return "manager"
	}
	return "nobody"
}

// transitions is the table: from → to → who may make the move. A move not
// in it is refused.
var transitions = map[Status]map[Status]actor{
	StatusStarting: {
		StatusRunning: byKind,
		StatusError:   byKind | byManager, // the manager: the factory failed
		// A worker restored after a crash while it was starting: its
		// process is gone.
		StatusExited:  byKind,
		StatusStopped: byManager,
	},
	StatusRunning: {
		StatusExited:   byKind,
		StatusError:    byKind | byManager,
		StatusStopped:  byManager,
		StatusStarting: byManager,
	},
	StatusError: {
		StatusRunning:  byKind,
		StatusStopped:  byManager,
		StatusStarting: byManager,
	},
	StatusExited: {
		// The manager: a restored worker whose runtime could not be built.
		StatusError:    byManager,
		StatusStopped:  byManager,
		StatusStarting: byManager,
	},
	StatusStopped: {},
}

// allowed reports whether by may change a worker's record from status from
// to status to. A record that keeps its status (an activity, a size, an
// error text) may change, except a stopped worker's.
func allowed(from, to Status, by actor) bool {
	if from == StatusStopped {
		return false
	}
	if from == to {
		_, known := transitions[from]
		return known
	}
	return transitions[from][to]&by != 0
}
