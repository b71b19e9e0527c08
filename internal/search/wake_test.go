package search

import (
	"fmt"
	"testing"
	"time"
)

// While the indexer is stuck (here: held inside a batch write), the store
// keeps committing messages: its wake-ups never wait for the indexer. Once
// the indexer moves again it indexes everything committed meanwhile.
func TestWakeNeverBlocksTheStore(t *testing.T) {
	e := newEnv(t)
	x, entered, free := e.heldIndexer()
	defer free()
	select {
	case <-entered:
	case <-time.After(deadline):
		t.Fatal("the indexer never wrote a batch")
	}

	const n = 300
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			e.append("w1", fmt.Sprintf("u%d", i), userLine(fmt.Sprintf("walrus number %d", i)))
		}
	}()
	select {
	case <-done:
	case <-time.After(deadline):
		t.Fatal("commits waited for the stuck indexer")
	}
	free() // the stuck batch goes on, and later ones pass freely
	waitHits(t, x, "walrus", "", 100)
}
