package search

import (
	"errors"
	"fmt"
	"html"
	"strings"

	"github.com/blevesearch/bleve/v2"
	htmlfmt "github.com/blevesearch/bleve/v2/search/highlight/format/html"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Hit is one search result. Snippet is HTML: the message's text escaped,
// with the matched words in <mark> elements and nothing else.
type Hit struct {
	SessionID string `json:"sessionId"`
	WorkerID  string `json:"workerId"`
	UUID      string `json:"uuid"` // "" for a session title
	Role      string `json:"role"` // user, assistant or title
	Snippet   string `json:"snippet"`
	CreatedAt string `json:"createdAt"`
}

// ErrClosed is returned by Search after Close.
var ErrClosed = errors.New("search index closed")

// minPrefix is the shortest last word that also matches as a prefix: a
// shorter one would expand to too many terms.
const minPrefix = 3

// Search returns the best hits for q, at most limit, only of sessionID
// when it is not "". Every word must match; the last one also matches as
// a prefix, so results come while a word is being typed.
func (x *Indexer) Search(q string, limit int, sessionID string) ([]Hit, error) {
	x.idxMu.RLock()
	defer x.idxMu.RUnlock()
	if x.idx == nil {
		return nil, ErrClosed
	}
	qq := x.buildQuery(q, sessionID)
	if qq == nil {
		return []Hit{}, nil
	}
	req := bleve.NewSearchRequestOptions(qq, limit, 0, false)
	req.Fields = []string{fSID, fWID, fUUID, fRole, fAt, fText}
	req.Highlight = bleve.NewHighlightWithStyle(htmlfmt.Name)
	req.Highlight.Fields = []string{fText}
	res, err := x.idx.Search(req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	hits := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hits = append(hits, toHit(h.Fields, h.Fragments[fText]))
	}
	return hits, nil
}

func toHit(f map[string]any, frags []string) Hit {
	str := func(k string) string { s, _ := f[k].(string); return s }
	snippet := strings.Join(frags, " … ")
	if snippet == "" {
		snippet = html.EscapeString(clipRunes(str(fText), 200))
	}
	return Hit{SessionID: str(fSID), WorkerID: str(fWID), UUID: str(fUUID), Role: str(fRole), Snippet: snippet, CreatedAt: str(fAt)}
}

func clipRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// buildQuery turns the typed words, split by the index's own analyzer,
// into a query; nil when there are none.
func (x *Indexer) buildQuery(q, sessionID string) query.Query {
	an := x.idx.Mapping().AnalyzerNamed(analyzer)
	if an == nil {
		return nil
	}
	var parts []query.Query
	toks := an.Analyze([]byte(q))
	for i, t := range toks {
		word := string(t.Term)
		exact := bleve.NewTermQuery(word)
		exact.SetField(fText)
		if i < len(toks)-1 || len([]rune(word)) < minPrefix {
			parts = append(parts, exact)
			continue
		}
		exact.SetBoost(2) // a whole word ranks above a longer word it starts
		prefix := bleve.NewPrefixQuery(word)
		prefix.SetField(fText)
		parts = append(parts, bleve.NewDisjunctionQuery(exact, prefix))
	}
	if len(parts) == 0 {
		return nil
	}
	if sessionID != "" {
		s := bleve.NewTermQuery(sessionID)
		s.SetField(fSID)
		parts = append(parts, s)
	}
	return bleve.NewConjunctionQuery(parts...)
}
