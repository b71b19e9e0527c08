package search

import (
	"fmt"

	"github.com/blevesearch/bleve/v2"
)

// Writing batches. A full batch is written by a goroutine of its own while
// the indexer reads and prepares the next one from the store, so that the
// two use both cores; at most one batch is being written at a time, so
// batches (and the seq marks in them) are written in order.

// flush starts writing the open batch, after the one being written ends.
// When that one failed, the open batch is dropped too (its seq marks
// would skip the failed messages): both are read from the store again at
// the next pass.
func (x *Indexer) flush() error {
	b := x.batch
	x.batch, x.batchN = nil, 0
	if err := x.wait(); err != nil {
		return err
	}
	if b == nil {
		return nil
	}
	if err := x.putCatalog(b); err != nil {
		x.batchOrd = x.ord.Load()
		return err
	}
	done := make(chan error, 1)
	ord := x.batchOrd
	x.inflight = done
	x.wg.Go(func() {
		err := x.commit(b)
		if err == nil {
			x.ord.Store(ord)
		}
		done <- err
	})
	return nil
}

// wait waits for the batch being written, if any.
func (x *Indexer) wait() error {
	if x.inflight == nil {
		return nil
	}
	err := <-x.inflight
	x.inflight = nil
	if err != nil {
		x.batchOrd = x.ord.Load()
		x.batch, x.batchN = nil, 0
	}
	return err
}

// write writes b with the catalog, after the batch being written, and
// waits for it.
func (x *Indexer) write(b *bleve.Batch) error {
	if err := x.wait(); err != nil {
		return err
	}
	if err := x.putCatalog(b); err != nil {
		return err
	}
	return x.commit(b)
}

func (x *Indexer) commit(b *bleve.Batch) error {
	if x.beforeBatch != nil {
		if err := x.beforeBatch(); err != nil {
			return err
		}
	}
	if err := x.idx.Batch(b); err != nil {
		return fmt.Errorf("write search batch: %w", err)
	}
	return nil
}
