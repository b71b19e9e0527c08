package chat

import "sync"

// recentIDsLen is how many recent uuids the reader remembers to catch a
// uuid the agent repeats, which the log would reject with its whole batch.
const recentIDsLen = 4096

// recentIDs is a bounded set of the last uuids seen, safe for concurrent
// use (a new agent's reader may start while the last one finishes). It
// grows as uuids come, so a worker never used holds nothing.
type recentIDs struct {
	mu   sync.Mutex
	max  int
	ring []string // grows to max, then wraps at next
	next int
	set  map[string]struct{}
}

func newRecentIDs(n int) *recentIDs { return &recentIDs{max: n} }

func (s *recentIDs) has(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.set[id]
	return ok
}

func (s *recentIDs) add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.set == nil {
		s.set = make(map[string]struct{})
	}
	if len(s.ring) < s.max {
		s.ring = append(s.ring, id)
	} else {
		delete(s.set, s.ring[s.next])
		s.ring[s.next] = id
		s.next = (s.next + 1) % s.max
	}
	s.set[id] = struct{}{}
}
