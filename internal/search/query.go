package search

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
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

// Result is the answer to a search. Partial is set when the search ran
// out of time (searchDeadline) before it had looked at every message it
// meant to rank: the hits are the best of what it had looked at.
type Result struct {
	Hits    []Hit
	Partial bool
}

// ErrClosed is returned by Search after Close.
var ErrClosed = errors.New("search index closed")

// minPrefix is the shortest last word that also matches as a prefix: a
// shorter one would expand to too many terms.
const minPrefix = 3

// searchDeadline bounds one search, the last guard when ranking takes long
// on a loaded machine; a search cut by it answers partial.
const searchDeadline = 400 * time.Millisecond

// Search returns the best hits for q, at most limit, only of sessionID
// when it is not "". Every word must match; the last one also matches as
// a prefix, so results come while a word is being typed. When even the
// rarest part of the query is in too many messages to rank them all
// quickly, only the most recent ones are ranked (tier.go).
func (x *Indexer) Search(q string, limit int, sessionID string) (Result, error) {
	x.idxMu.RLock()
	defer x.idxMu.RUnlock()
	if x.idx == nil {
		return Result{}, ErrClosed
	}
	p, err := x.plan(q, sessionID)
	if err != nil || p == nil {
		return Result{Hits: []Hit{}}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), x.deadline)
	defer cancel()
	var matches []*search.DocumentMatch
	partial := false
	if p.cost <= rankAllBudget {
		matches, err = x.searchTop(ctx, p.query(), limit)
		if errors.Is(err, context.DeadlineExceeded) {
			partial, err = true, nil
		}
	} else {
		matches, partial, err = x.searchRecent(ctx, p, limit)
	}
	if err != nil {
		return Result{}, err
	}
	return Result{Hits: x.toHits(matches, p), Partial: partial}, nil
}

// searchTop is one bleve search returning the top limit matches.
func (x *Indexer) searchTop(ctx context.Context, q query.Query, limit int) ([]*search.DocumentMatch, error) {
	req := bleve.NewSearchRequestOptions(q, limit, 0, false)
	req.Fields = []string{fSID, fAt, fTitle, fRef}
	res, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return res.Hits, nil
}

// queryPlan is a query split into its words, with the cost of its
// cheapest part: the number of documents that part matches, which bounds
// how many documents the conjunction scores.
type queryPlan struct {
	words  []string // analysed, in order
	prefix bool     // the last word also matches as a prefix
	parts  []query.Query
	cost   uint64
}

func (p *queryPlan) query() query.Query { return bleve.NewConjunctionQuery(p.parts...) }

// plan splits q with the index's own analyzer; nil when it has no words.
func (x *Indexer) plan(q, sessionID string) (*queryPlan, error) {
	an := x.idx.Mapping().AnalyzerNamed(analyzer)
	if an == nil {
		return nil, nil
	}
	p := &queryPlan{}
	for _, t := range an.Analyze([]byte(q)) {
		p.words = append(p.words, string(t.Term))
	}
	if len(p.words) == 0 {
		return nil, nil
	}
	last := len(p.words) - 1
	p.prefix = len([]rune(p.words[last])) >= minPrefix
	ai, err := x.idx.Advanced()
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	r, err := ai.Reader()
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer func() { _ = r.Close() }()
	p.cost = ^uint64(0)
	for i, w := range p.words {
		exact := bleve.NewTermQuery(w)
		exact.SetField(fText)
		c, err := docFreq(r, fText, w, i == last && p.prefix)
		if err != nil {
			return nil, err
		}
		p.cost = min(p.cost, c)
		if i < last || !p.prefix {
			p.parts = append(p.parts, exact)
			continue
		}
		exact.SetBoost(2) // a whole word ranks above a longer word it starts
		pq := bleve.NewPrefixQuery(w)
		pq.SetField(fText)
		p.parts = append(p.parts, bleve.NewDisjunctionQuery(exact, pq))
	}
	if sessionID != "" {
		s := bleve.NewTermQuery(sessionID)
		s.SetField(fSID)
		p.parts = append(p.parts, s)
		c, err := docFreq(r, fSID, sessionID, false)
		if err != nil {
			return nil, err
		}
		p.cost = min(p.cost, c)
	}
	return p, nil
}
