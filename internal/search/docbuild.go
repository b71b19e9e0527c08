package search

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
)

// docFields builds a message's document directly. bleve's Batch.Index
// walks a map[string]any through the mapping by reflection for every
// message; the fields, their options and analyzers are the same for all,
// so they are read from the mapping once (TestBuiltDocMatchesMapping).
type docFields struct {
	opts [nFields]index.FieldIndexingOptions
	anas [nFields]analysis.Analyzer
}

// The fields of a message document, in the order of docFieldNames.
const (
	iText = iota
	iSID
	iWID
	iTier
	iAt
	iRef
	nFields
)

var docFieldNames = [nFields]string{fText, fSID, fWID, fTier, fAt, fRef}

func newDocFields(m mapping.IndexMapping) (*docFields, error) {
	im, ok := m.(*mapping.IndexMappingImpl)
	if !ok || im.DefaultMapping == nil {
		return nil, fmt.Errorf("search: unexpected index mapping %T", m)
	}
	var d docFields
	for i, name := range docFieldNames {
		dm := im.DefaultMapping.Properties[name]
		if dm == nil || len(dm.Fields) != 1 || dm.Fields[0].Type != "text" {
			return nil, fmt.Errorf("search: field %q is not one text field in the mapping", name)
		}
		fm := dm.Fields[0]
		ana := fm.Analyzer
		if ana == "" {
			ana = im.DefaultAnalyzer
		}
		d.opts[i] = fm.Options()
		if d.anas[i] = im.AnalyzerNamed(ana); d.anas[i] == nil {
			return nil, fmt.Errorf("search: no analyzer %q", ana)
		}
	}
	return &d, nil
}

// message is the document of a message; values in docFieldNames' order.
func (d *docFields) message(id string, values [nFields]string) *document.Document {
	doc := document.NewDocument(id)
	doc.Fields = make([]document.Field, 0, nFields)
	for i, v := range values {
		doc.AddField(document.NewTextFieldCustom(docFieldNames[i], nil, []byte(v), d.opts[i], d.anas[i]))
	}
	doc.SetIndexed()
	return doc
}
