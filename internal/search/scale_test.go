package search

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/blevesearch/bleve/v2"
)

// setTiers makes the recency tiers small for one test; call it before the
// indexer opens (the values are restored after it closed).
func setTiers(t *testing.T, size, budget uint64) {
	oldSize, oldBudget := tierSize, rankAllBudget
	tierSize, rankAllBudget = size, budget
	t.Cleanup(func() { tierSize, rankAllBudget = oldSize, oldBudget })
}

// A query whose every word is in too many messages to rank them all ranks
// the newest ones, going back a tier at a time until it has enough hits;
// with a rarer word it ranks every message.
func TestVeryCommonWordsRankTheNewestMessages(t *testing.T) {
	setTiers(t, 4, 8)
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	x := e.open(nil)
	// Ordinals 0–3 (tier 0) are the best matches for "pear", then 4–11.
	for i := range 4 {
		e.append("w1", fmt.Sprintf("old%d", i), userLine("pear pear"+map[bool]string{true: " apple"}[i == 0]))
	}
	for i := range 8 {
		e.append("w1", fmt.Sprintf("new%d", i), userLine(fmt.Sprintf("a pear in a much longer message about fruit, number %d", i)))
	}
	waitHits(t, x, "pear", "", 12) // fewer than the limit in the newest tiers: older ones too

	res, err := x.Search("pear", 5, "")
	if err != nil || res.Partial || len(res.Hits) != 5 {
		t.Fatalf("pear: %+v %v", res, err)
	}
	for _, h := range res.Hits {
		if !strings.HasPrefix(h.UUID, "new") {
			t.Errorf("an old message ranked while the newest tiers had enough hits: %+v", h)
		}
	}
	res, err = x.Search("pear apple", 5, "")
	if err != nil || len(res.Hits) != 1 || res.Hits[0].UUID != "old0" {
		t.Errorf("pear apple: %+v %v", res, err)
	}
}

// A search that runs out of time answers what it has, marked partial,
// instead of failing or waiting.
func TestSearchOutOfTimeIsPartial(t *testing.T) {
	setTiers(t, tierSize, rankAllBudget)
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	x := e.open(nil)
	e.append("w1", "a", userLine("quince jelly"))
	waitHits(t, x, "quince", "", 1)
	x.deadline = -1                           // already over when the search starts
	for _, budget := range []uint64{100, 0} { // ranks all, then the newest tiers
		rankAllBudget = budget
		res, err := x.Search("quince", 10, "")
		if err != nil || !res.Partial || len(res.Hits) != 0 {
			t.Errorf("budget %d: %+v %v", budget, res, err)
		}
	}
}

// Messages of several workers waiting at the same time go into one index
// batch, not one batch per worker.
func TestOneBatchForManyWorkers(t *testing.T) {
	e := newEnv(t)
	var ss []sessionSpec
	for i := range 5 {
		ss = append(ss, sessionSpec{id: fmt.Sprintf("s%d", i), wid: fmt.Sprintf("w%d", i)})
	}
	e.cat.set(specSessions(ss)...)
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	var batches atomic.Int32
	x := e.open(func() error {
		if batches.Add(1) == 1 {
			entered <- struct{}{}
			<-release // the first batch (the titles) waits until every worker has messages
		}
		return nil
	})
	<-entered
	for _, s := range ss {
		e.append(s.wid, "u"+s.wid, userLine("loquat from "+s.wid))
	}
	close(release)
	waitHits(t, x, "loquat", "", 5)
	if n := batches.Load(); n != 2 {
		t.Errorf("%d batches written, want the titles' and one for the 5 workers", n)
	}
}

// An index written by an older version of the mapping (version 1 stored
// the text and had no tiers nor stored titles) is rebuilt from the store,
// not used.
func TestOldIndexIsRebuilt(t *testing.T) {
	e := newEnv(t)
	e.cat.set(session("s1", "Deploy notes", "w1"))
	e.append("w1", "u1", userLine("marmalade jar"))
	old, err := bleve.New(filepath.Join(e.dir, "index.bleve"), bleve.NewIndexMapping())
	if err != nil {
		t.Fatal(err)
	}
	at := "2026-01-02T03:04:05Z"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(old.Index("w1/1", map[string]any{"text": "marmalade jar", "sid": "s1", "wid": "w1", "uuid": "u1", "role": "user", "at": at}))
	must(old.Index("t/s1", map[string]any{"text": "Deploy notes", "sid": "s1", "role": "title", "at": at}))
	cat, _ := json.Marshal(catalog{Workers: map[string]string{"w1": "s1"}, Titles: map[string]string{"s1": "Deploy notes"}})
	must(old.SetInternal([]byte(keyCatalog), cat))
	must(old.SetInternal([]byte(keySeqPfx+"w1"), []byte("1")))
	must(old.SetInternal([]byte(keyVersion), []byte("1")))
	must(old.Close())

	x := e.open(nil)
	waitHits(t, x, "marmalade", "", 1)
	res, err := x.Search("deploy", 10, "")
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Role != "title" || res.Hits[0].Snippet != "<mark>Deploy</mark> notes" {
		t.Errorf("title after the rebuild: %+v %v", res, err)
	}
}

// When a batch fails to be written, the batch prepared behind it is not
// written either (its seq marks would skip the failed messages): at the
// next change, everything after the last written mark is indexed again.
func TestFailedBatchLosesNoMessage(t *testing.T) {
	oldPage, oldDocs := pageSize, batchDocs
	pageSize, batchDocs = 1, 1 // one message per batch
	t.Cleanup(func() { pageSize, batchDocs = oldPage, oldDocs })
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	for i := range 3 {
		e.append("w1", fmt.Sprintf("u%d", i), userLine("tangerine"))
	}
	var batches atomic.Int32
	failed := make(chan struct{})
	x := e.open(func() error {
		if batches.Add(1) == 2 { // the first is the titles', the second the first message's
			close(failed)
			return errors.New("disk full")
		}
		return nil
	})
	<-failed
	e.append("w1", "u3", userLine("tangerine")) // a change: the indexer tries again
	waitHits(t, x, "tangerine", "", 4)
}

// An index of mapping version 2 (bleve's own unicode tokenizer) is rebuilt
// too: here it holds w1's seq mark but not its message, which is found
// only if the index is built again from the store.
func TestVersion2IndexIsRebuilt(t *testing.T) {
	e := newEnv(t)
	e.cat.set(session("s1", "t", "w1"))
	e.append("w1", "u1", userLine("quince paste"))
	old, err := bleve.New(filepath.Join(e.dir, "index.bleve"), newMapping())
	if err != nil {
		t.Fatal(err)
	}
	cat, _ := json.Marshal(catalog{Workers: map[string]string{"w1": "s1"}, Titles: map[string]string{"s1": "t"}})
	for k, v := range map[string]string{keyCatalog: string(cat), keySeqPfx + "w1": "1", keyVersion: "2"} {
		if err := old.SetInternal([]byte(k), []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	waitHits(t, e.open(nil), "quince", "", 1)
}
