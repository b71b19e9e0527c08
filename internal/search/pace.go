package search

import (
	"fmt"
	"time"
)

// Pacing. Indexing costs far more CPU per message than storing and
// showing it (bleve's analysis and segment building: tens of µs a
// message, spread over both cores), so during a flood of messages an
// indexer that ran a pass at every commit would take the cores the chat's
// own path needs (the chat's latency to its tabs grew tenfold) and build
// one small segment per commit. While the store keeps committing, the
// indexer rests after a large pass instead: until the commits pause for
// quietFor, or at most maxRest (and restFactor times the pass it just ran,
// so that in a long flood it takes at most about a quarter of the time).
// A burst is then indexed just after it, in large batches, and a pass that
// a new burst overtakes stops after the batch it wrote (yielding). The messages
// wait in the store (the indexer reads them from there), so nothing is
// dropped and no memory grows: the index lags, Behind says by how much,
// and a backlog found with no commit under way (after a restart) is
// indexed pass after pass without rests.

// Rest bounds, variables only for tests. A pass of at most restAbove
// messages (a chat or a few at the pace of an agent) is followed by none:
// their search results come at once.
var (
	restAbove  = 100
	quietFor   = 100 * time.Millisecond
	maxRest    = 5 * time.Second
	restFactor = 3
)

// onRest, when set (tests, before the indexer starts), is told each rest
// and its longest length.
var onRest func(time.Duration)

// rest waits before the next pass when messages were committed during the
// pass that just ran (started at began). forced reports a rest that ended
// at its bound, with the commits still going on; ok is false when the
// indexer stopped.
func (x *Indexer) rest(began time.Time) (forced, ok bool) {
	if x.passN <= restAbove || x.lastWake.Load() < began.UnixNano() {
		return false, true // a small pass, or the store is quiet: go on at once
	}
	longest := max(maxRest, time.Duration(restFactor)*time.Since(began))
	if onRest != nil {
		onRest(longest)
	}
	until := time.Now().Add(longest)
	t := time.NewTimer(min(quietFor, longest))
	defer t.Stop()
	for {
		select {
		case <-x.stop:
			return false, false
		case <-t.C:
		}
		now := time.Now()
		quietAt := time.Unix(0, x.lastWake.Load()).Add(quietFor)
		if !now.Before(quietAt) {
			return false, true
		}
		if !now.Before(until) {
			return true, true
		}
		t.Reset(min(quietAt.Sub(now), until.Sub(now)))
	}
}

// yielding reports that the pass under way should stop after the batch it
// wrote: the store began committing again after the pass began (a new
// burst), and the pass does not follow a rest that ended at its bound
// (those go on, so a flood that never pauses is still indexed).
func (x *Indexer) yielding() bool {
	return !x.forced && x.lastWake.Load() >= x.passBegan.UnixNano()
}

// markBehind records that wid has committed messages the index may not
// hold yet. Called with x.mu held.
func (x *Indexer) markBehind(wid string) {
	x.gen++
	x.behind[wid] = x.gen
}

// noteBacklog marks wid behind, as of the pass under way (gen), when no
// later mark holds it already: a pass that finds messages it was not
// woken for (the first sweep after a start) counts them too.
func (x *Indexer) noteBacklog(wid string, gen uint64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.behind[wid]; !ok {
		x.behind[wid] = gen
	}
}

// caughtUp forgets the workers marked at or before gen: a pass that began
// after that mark wrote everything they had then. A worker marked again
// since (a later commit, or a catch-up cut at maxPages) stays.
func (x *Indexer) caughtUp(gen uint64, failed map[string]struct{}) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for wid, g := range x.behind {
		if _, bad := failed[wid]; g <= gen && !bad {
			delete(x.behind, wid)
		}
	}
}

// Behind returns how many committed messages the index does not hold yet
// (0 when it is up to date). It reads the store's last seq and the
// index's seq mark of each worker that committed since its last pass.
func (x *Indexer) Behind() (int, error) {
	x.mu.Lock()
	wids := make([]string, 0, len(x.behind))
	for wid := range x.behind {
		wids = append(wids, wid)
	}
	x.mu.Unlock()
	x.idxMu.RLock()
	defer x.idxMu.RUnlock()
	if x.idx == nil {
		return 0, ErrClosed
	}
	n := 0
	for _, wid := range wids {
		last, err := x.store.LastSeq(wid)
		if err != nil {
			return 0, fmt.Errorf("read last seq of %s: %w", wid, err)
		}
		done, err := x.indexedSeq(wid)
		if err != nil {
			return 0, err
		}
		if last > done {
			n += int(last - done)
		}
	}
	return n, nil
}
