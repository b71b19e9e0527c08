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
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
)

// Document fields.
const (
	fText = "text" // analysed, stored (for the snippet)
	fSID  = "sid"  // session id, keyword
	fWID  = "wid"  // worker id, keyword
	fUUID = "uuid" // stored only
	fRole = "role" // stored only: user, assistant or title
	fAt   = "at"   // stored only: RFC 3339 time
)

// analyzer is the text field's analyzer, used for queries too.
const analyzer = "words"

// mappingVersion is kept in the index; an index of another version is
// rebuilt.
const mappingVersion = "1"

func newMapping() mapping.IndexMapping {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = analyzer
	text.Store = true
	text.IncludeTermVectors = true // the highlighter needs term locations
	text.IncludeInAll = false

	kw := bleve.NewTextFieldMapping()
	kw.Analyzer = keyword.Name
	kw.Store = true
	kw.IncludeTermVectors = false
	kw.IncludeInAll = false

	stored := bleve.NewTextFieldMapping()
	stored.Index = false
	stored.Store = true
	stored.IncludeTermVectors = false
	stored.IncludeInAll = false

	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt(fText, text)
	dm.AddFieldMappingsAt(fSID, kw)
	dm.AddFieldMappingsAt(fWID, kw)
	for _, f := range []string{fUUID, fRole, fAt} {
		dm.AddFieldMappingsAt(f, stored)
	}
	im := bleve.NewIndexMapping()
	// Words split on Unicode word boundaries and lower-cased, nothing more:
	// no stemming, so a prefix of a typed word matches, and no stop words,
	// so "the" in a query is a word like any other.
	if err := im.AddCustomAnalyzer(analyzer, map[string]any{
		"type": custom.Name, "tokenizer": unicode.Name, "token_filters": []any{lowercase.Name},
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
