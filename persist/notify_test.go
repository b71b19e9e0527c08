package persist

import (
	"errors"
	"sync"
	"testing"
)

// OnMessages hears of each committed append, with its worker id, once it
// is committed; a rejected append is not reported.
func TestOnMessagesAfterCommit(t *testing.T) {
	s := newStore(t)
	var mu sync.Mutex
	var got []string
	s.OnMessages(func(wid string) {
		mu.Lock()
		got = append(got, wid)
		mu.Unlock()
	})
	mustWait(t, s.AppendMessages("w1", []Message{{Seq: 1, UUID: "a", Data: []byte("{}")}}))
	if err := wait(t, s.AppendMessages("w1", []Message{{Seq: 5, UUID: "b"}})); !errors.Is(err, ErrSeq) {
		t.Fatalf("gap: %v", err)
	}
	mustWait(t, s.AppendMessages("w2", []Message{{Seq: 1, UUID: "c"}}))
	mustWait(t, s.Barrier())
	s.OnMessages(nil)
	mustWait(t, s.AppendMessages("w3", []Message{{Seq: 1, UUID: "d"}}))
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0] != "w1" || got[1] != "w2" {
		t.Errorf("notified %v, want [w1 w2]", got)
	}
}
