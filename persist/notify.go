package persist

import "sync/atomic"

// OnMessages sets fn to be called by the writer goroutine with the worker id
// after each commit that stored messages of that worker (nil removes it).
// fn runs on the write path, so it must return at once and never block:
// derived data (the search index) only takes a wake-up here and reads the
// committed messages from the store itself.
func (s *Store) OnMessages(fn func(workerID string)) {
	if fn == nil {
		s.w.onMsgs.Store(nil)
		return
	}
	s.w.onMsgs.Store(&fn)
}

// notifyMessages tells the OnMessages callback about a committed append.
func (q *writer) notifyMessages(o *op) {
	if o.msgsOf == "" {
		return
	}
	if fn := q.onMsgs.Load(); fn != nil {
		(*fn)(o.msgsOf)
	}
}

// onMsgsHook is the type of writer.onMsgs, kept here with its users.
type onMsgsHook = atomic.Pointer[func(string)]
