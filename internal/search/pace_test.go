package search

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// While the indexer is held inside a batch, committed messages are counted
// as behind; once it moves again it indexes them and Behind falls to 0.
func TestBehindCountsWhatIsNotIndexed(t *testing.T) {
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	x := e.open(func() error {
		select {
		case entered <- struct{}{}:
		default:
		}
		<-release
		return nil
	})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free()
	<-entered
	const n = 40
	for i := range n {
		e.append("w1", fmt.Sprintf("u%d", i), userLine(fmt.Sprintf("otter number %d", i)))
	}
	if got, err := x.Behind(); err != nil || got != n {
		t.Fatalf("Behind while the indexer is held = %d, %v; want %d", got, err, n)
	}
	free()
	waitHits(t, x, "otter", "", n)
	waitBehind(t, x, 0)
}

// Messages committed during a pass make the indexer rest before the next
// one (so that it leaves the cores to the chat during a flood); it then
// indexes them all in one pass.
func TestIndexerRestsWhileTheStoreCommits(t *testing.T) {
	old := restMin
	restMin = 20 * time.Millisecond
	t.Cleanup(func() { restMin = old })
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	rested := make(chan time.Duration, 16)
	onRest = func(d time.Duration) {
		select {
		case rested <- d:
		default:
		}
	}
	t.Cleanup(func() { onRest = nil })
	x := e.open(func() error {
		select {
		case entered <- struct{}{}:
			<-release // only the first batch is held
		default:
		}
		return nil
	})
	<-entered
	for i := range 30 {
		e.append("w1", fmt.Sprintf("u%d", i), userLine(fmt.Sprintf("heron number %d", i)))
	}
	close(release)
	select {
	case d := <-rested:
		if d < restMin {
			t.Fatalf("rested %v, want at least %v", d, restMin)
		}
	case <-time.After(deadline):
		t.Fatal("the indexer never rested though messages came during its pass")
	}
	waitHits(t, x, "heron", "", 30)
	waitBehind(t, x, 0)
}

// A backlog the indexer finds by itself (a restart after a flood: more
// than one pass of messages, with no commit under way) is indexed pass
// after pass without resting, however long a rest would be.
func TestCatchUpDoesNotRest(t *testing.T) {
	oldMin, oldPage := restMin, pageSize
	restMin, pageSize = time.Hour, 5 // maxPages × 5 = 100 messages a pass
	t.Cleanup(func() { restMin, pageSize = oldMin, oldPage })
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	const n = 350
	for i := range n {
		e.append("w1", fmt.Sprintf("u%d", i), userLine(fmt.Sprintf("badger number %d", i)))
	}
	onRest = func(time.Duration) { t.Error("the indexer rested with no commit under way") }
	t.Cleanup(func() { onRest = nil })
	x := e.open(nil)
	waitHits(t, x, "badger", "", 100) // the search limit
	waitBehind(t, x, 0)
	if got, err := x.indexedSeq("w1"); err != nil || got != n {
		t.Fatalf("indexed up to seq %d (%v), want %d", got, err, n)
	}
}

// waitBehind polls until x is behind by want messages; the deadline is
// only a guard.
func waitBehind(t *testing.T, x *Indexer, want int) {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		got, err := x.Behind()
		if err != nil {
			t.Fatal(err)
		}
		if got == want {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("Behind = %d, want %d", got, want)
		}
		time.Sleep(10 * time.Millisecond) // polls for the indexer's progress
	}
}
