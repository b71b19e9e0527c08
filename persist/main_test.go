package persist

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// waitTimeout bounds every wait on a result channel, so a lost result fails
// the test instead of hanging it.
const waitTimeout = 2 * time.Minute

func dbPath(t testing.TB) string {
	return filepath.Join(t.TempDir(), "agentdesk.db")
}

// openStore opens path and closes it when the test ends (if the test did not).
func openStore(t testing.TB, path string, o *Options) *Store {
	t.Helper()
	s, err := Open(path, o)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil && !errors.Is(err, ErrClosed) {
			t.Errorf("close: %v", err)
		}
	})
	return s
}

func newStore(t testing.TB) *Store {
	return openStore(t, dbPath(t), nil)
}

func wait(t testing.TB, c <-chan error) error {
	t.Helper()
	select {
	case err := <-c:
		return err
	case <-time.After(waitTimeout):
		t.Fatal("no result within the deadline")
		return nil
	}
}

func mustWait(t testing.TB, c <-chan error) {
	t.Helper()
	if err := wait(t, c); err != nil {
		t.Fatal(err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func msg(seq uint64) Message {
	return Message{Seq: seq, UUID: fmt.Sprintf("uuid-%d", seq), Data: fmt.Appendf(nil, `{"n":%d}`, seq)}
}

func msgs(from, to uint64) []Message {
	var out []Message
	for i := from; i <= to; i++ {
		out = append(out, msg(i))
	}
	return out
}

// hold blocks the writer inside a transaction until release is called, so
// everything queued meanwhile commits together in the next batch.
func hold(t testing.TB, s *Store) (release func()) {
	t.Helper()
	entered, gate := make(chan struct{}), make(chan struct{})
	var once sync.Once
	c := s.w.enqueue(&op{apply: func(*wtx) error {
		once.Do(func() { close(entered) })
		<-gate // closed, so passes after a retry do not block
		return nil
	}})
	select {
	case <-entered:
	case <-time.After(waitTimeout):
		t.Fatal("writer did not start the hold")
	}
	return func() {
		close(gate)
		mustWait(t, c)
	}
}

// chunkKeys returns the start offsets of the stored output chunks of id and
// their lengths.
func chunkKeys(t testing.TB, s *Store, id string) (offs []int64, lens []int) {
	t.Helper()
	err := s.db.View(func(tx *bolt.Tx) error {
		wb := tx.Bucket(bOutput).Bucket([]byte(id))
		if wb == nil || wb.Bucket(kChunks) == nil {
			return nil
		}
		chunks := wb.Bucket(kChunks)
		return chunks.ForEach(func(k, v []byte) error {
			offs = append(offs, int64(getU64(k)))
			lens = append(lens, len(chunkData(chunks, k, v)))
			return nil
		})
	})
	must(t, err)
	return offs, lens
}

// pollQueued reports (nil) once at least n ops wait in the write queue.
func pollQueued(t testing.TB, s *Store, n int) <-chan error {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for len(s.w.ops) < n {
		if time.Now().After(deadline) {
			return done(fmt.Errorf("queue has %d ops, want %d", len(s.w.ops), n))
		}
		runtime.Gosched()
	}
	return done(nil)
}
