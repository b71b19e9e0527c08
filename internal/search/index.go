package search

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// Internal keys of the index.
const (
	keyVersion = "version"
	keyCatalog = "catalog" // JSON catalog: what is indexed
	keySeqPfx  = "seq/"    // + worker id → last indexed seq (decimal)
)

// openIndex opens the index in dir, or creates it when it is missing, was
// written with another mapping, or cannot be opened (a torn write after a
// crash): it is derived data, rebuilt from the store.
func openIndex(dir string, log *slog.Logger) (bleve.Index, error) {
	path := filepath.Join(dir, "index.bleve")
	idx, err := bleve.Open(path)
	if err == nil {
		v, verr := idx.GetInternal([]byte(keyVersion))
		if verr == nil && string(v) == mappingVersion {
			return idx, nil
		}
		_ = idx.Close()
		err = fmt.Errorf("index version %q", v)
	}
	if !errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		log.Warn("search index unusable, rebuilding it from the store", "path", path, "err", err)
	}
	if err := os.RemoveAll(path); err != nil {
		return nil, fmt.Errorf("remove search index: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create search dir: %w", err)
	}
	// unsafe_batch: a batch returns before it is fsynced. A crash can lose
	// the last batches, but documents and their seq marks are in the same
	// batch, so what is lost is indexed again.
	idx, err = bleve.NewUsing(path, newMapping(), scorch.Name, scorch.Name,
		map[string]any{"unsafe_batch": true})
	if err != nil {
		return nil, fmt.Errorf("create search index: %w", err)
	}
	if err := idx.SetInternal([]byte(keyVersion), []byte(mappingVersion)); err != nil {
		_ = idx.Close()
		return nil, fmt.Errorf("init search index: %w", err)
	}
	return idx, nil
}
