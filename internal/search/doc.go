// Package search is the full-text index over every conversation: the text
// of user and assistant messages, the tools they ran (name, command, file
// path) and the session titles. It is derived data, kept in a bleve index
// in its own directory of the data dir, and never on the live path:
//
//   - persist's writer only calls Wake (a map insert and a non-blocking
//     send) after a commit that stored messages;
//   - the indexer goroutine reads the committed messages back from the
//     store, after the last seq it indexed for that worker, which it keeps
//     in the index itself (bleve internal keys, in the same batch as the
//     documents), so it catches up after a crash, a dropped wake-up or a
//     deleted index (rebuilt from seq 0).
//
// When messages arrive faster than the index takes them, the indexer falls
// behind and catches up later; nothing waits for it.
package search

import (
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/mapping"
)

// Document fields. Only what a query needs is indexed, and only what the
// store cannot give back is stored: a hit's text, uuid and role are read
// back from the store (a message) or the catalog's copy in the index (a
// title), so the index keeps no stored text and no term vectors, which
// made most of its size and of the time to build it.
const (
	fText  = "text"  // analysed; norms and frequencies for ranking, nothing stored
	fSID   = "sid"   // session id: keyword, stored
	fWID   = "wid"   // worker id: keyword, not stored (the document id has it)
	fTier  = "tier"  // recency tier (tier.go): keyword, not stored
	fAt    = "at"    // stored only: RFC 3339 time
	fTitle = "title" // stored only, on title documents: the title as indexed
	fRef   = "ref"   // stored only, on message documents: "wid/seq" of the copy indexed
)

// analyzer is the text field's analyzer, used for queries too.
const analyzer = "words"

// mappingVersion is kept in the index; an index of another version is
// rebuilt (version 1 stored text and term vectors; version 2 named bleve's
// unicode tokenizer, which gives the same words more slowly; version 3
// had a document per stored copy of a message, see messageDocID).
const mappingVersion = "4"

func newMapping() mapping.IndexMapping {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = analyzer
	text.Store = false
	text.IncludeTermVectors = false
	text.DocValues = false
	text.IncludeInAll = false

	kw := func(store bool) *mapping.FieldMapping {
		m := bleve.NewTextFieldMapping()
		m.Analyzer = keyword.Name
		m.Store = store
		m.IncludeTermVectors = false
		m.DocValues = false
		m.IncludeInAll = false
		return m
	}

	stored := bleve.NewTextFieldMapping()
	stored.Index = false
	stored.Store = true
	stored.IncludeTermVectors = false
	stored.DocValues = false
	stored.IncludeInAll = false

	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt(fText, text)
	dm.AddFieldMappingsAt(fSID, kw(true))
	dm.AddFieldMappingsAt(fWID, kw(false))
	dm.AddFieldMappingsAt(fTier, kw(false))
	dm.AddFieldMappingsAt(fAt, stored)
	dm.AddFieldMappingsAt(fTitle, stored)
	dm.AddFieldMappingsAt(fRef, stored)
	// No composite "_all" field: every query names its field, and building
	// the empty composite still cost a tenth of the indexing time.
	dm.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())
	im := bleve.NewIndexMapping()
	// Words split on Unicode word boundaries and lower-cased, nothing more:
	// no stemming, so a prefix of a typed word matches, and no stop words,
	// so "the" in a query is a word like any other. The tokenizer is the
	// unicode one with a fast path for ASCII (tokenizer.go).
	if err := im.AddCustomAnalyzer(analyzer, map[string]any{
		"type": custom.Name, "tokenizer": wordsTokenizer, "token_filters": []any{lowercase.Name},
	}); err != nil {
		panic(err) // a constant configuration: caught by every test
	}
	im.DefaultMapping = dm
	im.DefaultAnalyzer = analyzer
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false
	return im
}
