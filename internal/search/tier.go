package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// Recency tiers. Every message document gets an ordinal as it is indexed
// (kept in the index, keyOrd, in the same batch) and the tier ord/tierSize
// in the keyword field fTier; titles are in tier "t". Ranking a query
// costs about the number of documents its rarest part matches; when that
// is above rankAllBudget (a query of only very common words: "the", "go
// test"), ranking every match would take seconds over a million messages,
// so only the newest tiers are ranked, newest first, until they give
// enough hits. Words are not dropped: every word still has to match.
//
// The ordinal follows indexing order, which is commit order except after
// a rebuild, when it follows the order the workers are caught up in.
const (
	titleTier = "t"
	keyOrd    = "ord"
)

// Variables only so that tests can make them small.
var (
	tierSize      uint64 = 50_000
	rankAllBudget uint64 = 100_000
)

func tierName(ord uint64) string { return strconv.FormatUint(ord/tierSize, 10) }

// searchRecent ranks p over the newest tiers only: first the newest two
// (at least tierSize messages unless the index is smaller) and the titles,
// then one older tier at a time while there are fewer than limit hits.
// Scores of different steps are comparable: they come from the same
// index snapshot statistics. Partial is set when the deadline cut a step.
func (x *Indexer) searchRecent(ctx context.Context, p *queryPlan, limit int) ([]*search.DocumentMatch, bool, error) {
	next := x.ord.Load()
	if next == 0 {
		next = 1
	}
	newest := int64((next - 1) / tierSize)
	var all []*search.DocumentMatch
	tiers := []string{titleTier, strconv.FormatInt(newest, 10)}
	t := newest - 1
	if t >= 0 {
		tiers = append(tiers, strconv.FormatInt(t, 10))
	}
	for {
		ms, err := x.searchTop(ctx, withTiers(p, tiers), limit)
		if errors.Is(err, context.DeadlineExceeded) {
			return best(all, limit), true, nil
		}
		if err != nil {
			return nil, false, err
		}
		all = append(all, ms...)
		t--
		if len(all) >= limit || t < 0 {
			return best(all, limit), false, nil
		}
		tiers = []string{strconv.FormatInt(t, 10)}
	}
}

func withTiers(p *queryPlan, tiers []string) query.Query {
	ts := make([]query.Query, len(tiers))
	for i, t := range tiers {
		q := bleve.NewTermQuery(t)
		q.SetField(fTier)
		ts[i] = q
	}
	parts := append(slices.Clip(p.parts), bleve.NewDisjunctionQuery(ts...))
	return bleve.NewConjunctionQuery(parts...)
}

// best sorts matches by score, best first, and keeps limit.
func best(ms []*search.DocumentMatch, limit int) []*search.DocumentMatch {
	slices.SortStableFunc(ms, func(a, b *search.DocumentMatch) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return ms[:min(len(ms), limit)]
}

// maxDictTerms bounds the terms a prefix's cost is summed over; past it
// the prefix counts as too costly to rank in full.
const maxDictTerms = 2000

// docFreq is how many documents have the term in field (with prefix: a
// term starting with it; the sum, so a document can count twice).
func docFreq(r index.IndexReader, field, term string, prefix bool) (uint64, error) {
	var d index.FieldDict
	var err error
	if prefix {
		d, err = r.FieldDictPrefix(field, []byte(term))
	} else {
		d, err = r.FieldDictRange(field, []byte(term), []byte(term))
	}
	if err != nil {
		return 0, fmt.Errorf("search: read dictionary: %w", err)
	}
	defer func() { _ = d.Close() }()
	var n uint64
	for i := 0; ; i++ {
		e, err := d.Next()
		if err != nil {
			return 0, fmt.Errorf("search: read dictionary: %w", err)
		}
		if e == nil {
			return n, nil
		}
		if i == maxDictTerms {
			return ^uint64(0), nil
		}
		n += e.Count
	}
}

// loadOrd reads the next ordinal kept in the index.
func loadOrd(idx bleve.Index) (uint64, error) {
	v, err := idx.GetInternal([]byte(keyOrd))
	if err != nil {
		return 0, fmt.Errorf("read search ordinal: %w", err)
	}
	if len(v) == 0 {
		return 0, nil
	}
	n, err := strconv.ParseUint(string(v), 10, 64)
	if err != nil {
		return 0, nil // unreadable: tiers start again; only ranking order suffers
	}
	return n, nil
}
