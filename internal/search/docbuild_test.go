package search

import (
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/document"
)

// TestBuiltDocMatchesMapping: a message's document built directly has the
// same fields, options, values and analyzers as the one the mapping makes
// of the map Batch.Index took before, both for a new mapping and for the
// one read back from an index on disk.
func TestBuiltDocMatchesMapping(t *testing.T) {
	e := newEnv(t)
	e.close(e.open(nil))
	x := e.open(nil) // its mapping is read back from the index on disk
	for _, m := range []struct {
		name   string
		fields *docFields
	}{{"index", x.fields}, {"new mapping", mustDocFields(t)}} {
		vals := [nFields]string{"go test ./...", "s1", "w1", "0", "2026-03-04T05:06:07Z", "w1/7"}
		got := m.fields.message("w1/7", vals)
		want := document.NewDocument("w1/7")
		data := map[string]any{}
		for i, v := range vals {
			data[docFieldNames[i]] = v
		}
		if err := x.idx.Mapping().MapDocument(want, data); err != nil {
			t.Fatal(err)
		}
		if d := docDiff(got, want); d != "" {
			t.Errorf("%s: %s", m.name, d)
		}
	}
}

func mustDocFields(t *testing.T) *docFields {
	d, err := newDocFields(newMapping())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// docDiff describes how two documents differ, "" when they do not.
func docDiff(a, b *document.Document) string {
	desc := func(d *document.Document) []string {
		out := []string{d.ID()}
		if d.Indexed() {
			out = append(out, "indexed")
		}
		for _, f := range d.Fields {
			tf, ok := f.(*document.TextField)
			if !ok {
				out = append(out, f.Name()+" not text")
				continue
			}
			out = append(out, f.Name()+"|"+tf.Options().String()+"|"+string(tf.Value())+"|"+
				strings.Repeat("[]", len(tf.ArrayPositions()))+"|"+analyzed(tf))
		}
		slices.Sort(out[1:])
		return out
	}
	if da, db := desc(a), desc(b); !slices.Equal(da, db) || len(a.CompositeFields) != len(b.CompositeFields) {
		return strings.Join(da, "\n") + "\n  vs mapping:\n" + strings.Join(db, "\n")
	}
	return ""
}

// analyzed is what the field's analyzer makes of a sample text.
func analyzed(tf *document.TextField) string {
	if tf.Analyzer() == nil {
		return "no analyzer"
	}
	var out []string
	for _, tok := range tf.Analyzer().Analyze([]byte("Go-Test ./Foo_bar Été")) {
		out = append(out, string(tok.Term))
	}
	return strings.Join(out, ",")
}
