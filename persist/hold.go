package persist

import "sync"

// Hold stops the writer until release is called. It is for tests that
// check what waits for a commit: the writer waits inside a transaction,
// and the writes queued meanwhile commit after it. Hold queues its
// transaction and returns at once: entered closes once the writer waits in
// it (at once, with a release that does nothing, when the store is
// closed), so a test can queue writes behind it in a known order. release
// returns once the held transaction committed; it may be called more than
// once.
func (s *Store) Hold() (entered <-chan struct{}, release func()) {
	in, gate := make(chan struct{}), make(chan struct{})
	var once sync.Once
	enter := func() { once.Do(func() { close(in) }) }
	c := s.w.enqueue(&op{apply: func(*wtx) error {
		enter()
		<-gate // closed for good, so a retried pass does not wait again
		return nil
	}})
	select {
	case <-c: // a closed store answers at once; the op cannot finish before gate
		enter()
		return in, func() {}
	default:
	}
	var rel sync.Once
	return in, func() {
		rel.Do(func() {
			close(gate)
			<-c
		})
	}
}
