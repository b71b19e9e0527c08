package search

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// catalog is what the index holds, kept in the index (keyCatalog) so that
// deletions made while agentdesk was stopped are found at the next start.
type catalog struct {
	Workers map[string]string `json:"workers"` // worker id → session id
	Titles  map[string]string `json:"titles"`  // session id → indexed title
}

func loadCatalog(idx bleve.Index) (catalog, error) {
	c := catalog{Workers: map[string]string{}, Titles: map[string]string{}}
	b, err := idx.GetInternal([]byte(keyCatalog))
	if err != nil {
		return c, fmt.Errorf("read search catalog: %w", err)
	}
	if len(b) > 0 && json.Unmarshal(b, &c) != nil {
		return catalog{Workers: map[string]string{}, Titles: map[string]string{}}, nil
	}
	if c.Workers == nil {
		c.Workers = map[string]string{}
	}
	if c.Titles == nil {
		c.Titles = map[string]string{}
	}
	return c, nil
}

func (x *Indexer) putCatalog(b *bleve.Batch) error {
	v, err := json.Marshal(x.cat0)
	if err != nil {
		return fmt.Errorf("encode search catalog: %w", err)
	}
	b.SetInternal([]byte(keyCatalog), v)
	return nil
}

// syncCatalog reads the sessions, indexes changed titles and removes the
// documents of deleted sessions and workers.
func (x *Indexer) syncCatalog() error {
	known := map[string]string{}
	titles := map[string]string{}
	b := x.idx.NewBatch()
	sessions := x.cat.Sessions()
	x.routes.set(sessions)
	for _, s := range sessions {
		titles[s.ID] = s.Title
		for _, wid := range s.Workers {
			known[wid] = s.ID
		}
		if old, ok := x.cat0.Titles[s.ID]; ok && old == s.Title {
			continue
		}
		x.cat0.Titles[s.ID] = s.Title
		if err := b.Index(titleID(s.ID), map[string]any{
			fText: s.Title, fTitle: s.Title, fSID: s.ID, fTier: titleTier, fAt: s.CreatedAt.UTC().Format(time.RFC3339Nano),
		}); err != nil {
			return fmt.Errorf("index title of %s: %w", s.ID, err)
		}
	}
	x.known = known
	for sid := range x.cat0.Titles {
		if _, ok := titles[sid]; !ok {
			b.Delete(titleID(sid))
			delete(x.cat0.Titles, sid)
		}
	}
	if err := x.write(b); err != nil {
		return err
	}
	for wid, sid := range x.cat0.Workers {
		if _, ok := known[wid]; ok {
			continue
		}
		if err := x.dropWorker(wid); err != nil {
			return err
		}
		if _, ok := titles[sid]; ok {
			if err := x.reindexSession(sid); err != nil {
				return err
			}
		}
	}
	return nil
}

// reindexSession has every remaining worker of session sid indexed again
// from its first message (by the catch-up of this sweep): a message whose
// document the dropped worker wrote is gone with it, though the others
// may hold copies of it.
func (x *Indexer) reindexSession(sid string) error {
	b := x.idx.NewBatch()
	for wid, s := range x.known {
		if s == sid {
			b.DeleteInternal([]byte(keySeqPfx + wid))
		}
	}
	return x.write(b)
}

func titleID(sid string) string { return "t/" + sid }

// dropWorker removes every document of a deleted worker, page by page.
func (x *Indexer) dropWorker(wid string) error {
	q := bleve.NewTermQuery(wid)
	q.SetField(fWID)
	for !x.stopped() {
		res, err := x.idx.Search(bleve.NewSearchRequestOptions(q, pageSize, 0, false))
		if err != nil {
			return fmt.Errorf("find documents of %s: %w", wid, err)
		}
		b := x.idx.NewBatch()
		for _, h := range res.Hits {
			b.Delete(h.ID)
		}
		last := len(res.Hits) < pageSize
		if last {
			delete(x.cat0.Workers, wid)
			b.DeleteInternal([]byte(keySeqPfx + wid))
		}
		if err := x.write(b); err != nil {
			return err
		}
		if last {
			return nil
		}
	}
	return nil
}
