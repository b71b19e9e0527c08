package search

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// While the indexer is held inside a batch, committed messages are counted
// as behind; once it moves again it indexes them and Behind falls to 0.
func TestBehindCountsWhatIsNotIndexed(t *testing.T) {
	e := newEnv(t)
	x, entered, free := e.heldIndexer()
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
// one (so that it leaves the cores to the chat during a flood); once the
// commits pause it indexes them all.
func TestIndexerRestsWhileTheStoreCommits(t *testing.T) {
	old := restAbove
	restAbove = 0 // this test's passes are small
	t.Cleanup(func() { restAbove = old })
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
		if d < maxRest {
			t.Fatalf("rests at most %v, want at least %v", d, maxRest)
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
	oldQuiet, oldMax, oldPage := quietFor, maxRest, pageSize
	quietFor, maxRest, pageSize = time.Hour, time.Hour, 5 // maxPages × 5 = 100 messages a pass
	t.Cleanup(func() { quietFor, maxRest, pageSize = oldQuiet, oldMax, oldPage })
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

// A flood that never pauses is still indexed: a rest ends after maxRest
// even while commits go on, so the lag is bounded in time as far as the
// cores allow.
func TestLongFloodIsIndexedWhileItLasts(t *testing.T) {
	oldQuiet, oldMax, oldAbove := quietFor, maxRest, restAbove
	quietFor, maxRest, restAbove = time.Hour, 50*time.Millisecond, 0 // no pause is ever long enough
	t.Cleanup(func() { quietFor, maxRest, restAbove = oldQuiet, oldMax, oldAbove })
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	x := e.open(func() error {
		select {
		case entered <- struct{}{}:
			<-release // the first pass is held until the flood runs
		default:
		}
		return nil
	})
	<-entered
	stop := make(chan struct{})
	begun := make(chan struct{})
	var later atomic.Bool // the flood's messages after the first pass say "cormorant"
	flooded := make(chan int)
	go func() {
		n := 0
		defer func() { flooded <- n }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			n++
			word := "pelican"
			if later.Load() {
				word = "cormorant"
			}
			e.append("w1", fmt.Sprintf("u%d", n), userLine(fmt.Sprintf("%s number %d", word, n)))
			if n == 3 {
				close(begun)
			}
		}
	}()
	<-begun
	close(release)
	// The first pass indexes what it finds; it ends with commits under way,
	// so the indexer rests, and only maxRest ends that rest.
	waitSome(t, x, "pelican")
	later.Store(true)
	waitSome(t, x, "cormorant")
	close(stop)
	if n := <-flooded; n < 3 {
		t.Fatalf("flood of %d messages", n)
	}
}

// waitSome polls until q has a hit.
func waitSome(t *testing.T, x *Indexer, q string) {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		res, err := x.Search(q, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) > 0 {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("no hit for %q while the flood lasted", q)
		}
		time.Sleep(10 * time.Millisecond) // polls for the indexer's progress
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

// A large pass that a new burst overtakes stops after the batch it wrote
// and leaves the rest of the backlog for after the burst.
func TestPassYieldsToANewBurst(t *testing.T) {
	oldQuiet, oldMax, oldAbove, oldPage, oldDocs := quietFor, maxRest, restAbove, pageSize, batchDocs
	quietFor, maxRest, restAbove, pageSize, batchDocs = time.Hour, time.Hour, 0, 10, 10
	t.Cleanup(func() {
		quietFor, maxRest, restAbove, pageSize, batchDocs = oldQuiet, oldMax, oldAbove, oldPage, oldDocs
	})
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	const n = 150
	for i := range n {
		e.append("w1", fmt.Sprintf("u%d", i), userLine(fmt.Sprintf("lynx number %d", i)))
	}
	rested := make(chan struct{}, 1)
	onRest = func(time.Duration) {
		select {
		case rested <- struct{}{}:
		default:
		}
	}
	t.Cleanup(func() { onRest = nil })
	var once sync.Once
	x := e.open(func() error {
		once.Do(func() { e.append("w1", "burst", userLine("a new burst begins")) })
		return nil
	})
	select {
	case <-rested: // the indexer now rests for an hour: what it indexed stays
	case <-time.After(deadline):
		t.Fatal("the indexer never rested")
	}
	got, err := x.indexedSeq("w1")
	if err != nil {
		t.Fatal(err)
	}
	if got == 0 || got >= n {
		t.Fatalf("indexed up to seq %d of %d: want the pass to stop after a batch", got, n+1)
	}
	if b, err := x.Behind(); err != nil || b != n+1-int(got) {
		t.Fatalf("Behind = %d, %v; want %d", b, err, n+1-int(got))
	}
}
