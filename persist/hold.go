package persist

import "sync"

// Hold stops the writer until release is called. It is for tests that
// check what waits for a commit: the writer waits inside a transaction,
// and the writes queued meanwhile commit after it. Hold returns once the
// writer waits (at once, with a release that does nothing, when the store
// is closed). release returns once the held transaction committed; it may
// be called more than once.
func (s *Store) Hold() (release func()) {
	entered, gate := make(chan struct{}), make(chan struct{})
	var once sync.Once
	c := s.w.enqueue(&op{apply: func(*wtx) error {
		once.Do(func() { close(entered) })
		<-gate // closed for good, so a retried pass does not wait again
		return nil
	}})
	select {
	case <-entered:
	case <-c:
		return func() {}
	}
	var rel sync.Once
	return func() {
		rel.Do(func() {
			close(gate)
			<-c
		})
	}
}
