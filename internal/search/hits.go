package search

import (
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search"
)

// toHits turns matches into hits: a title's text is stored in the index, a
// message's is read back from the store (the index keeps no text), which
// also gives its uuid and role. A message gone from the store meanwhile (a
// deleted worker not yet taken out of the index) is left out. A message
// opens in the newest worker of its session that holds it (route.go),
// and shows once (an index written before one document per message could
// still hold copies).
func (x *Indexer) toHits(ms []*search.DocumentMatch, p *queryPlan) []Hit {
	hits := make([]Hit, 0, len(ms))
	seen := map[string]bool{}
	for _, m := range ms {
		str := func(k string) string { s, _ := m.Fields[k].(string); return s }
		if title := str(fTitle); title != "" {
			hits = append(hits, Hit{SessionID: str(fSID), Role: "title", Snippet: snippet(x, title, p), CreatedAt: str(fAt)})
			continue
		}
		wid, seq, ok := parseMessageID(str(fRef))
		if !ok {
			continue
		}
		msgs, err := x.store.MessagesAfter(wid, seq-1, 1)
		if err != nil || len(msgs) == 0 || msgs[0].Seq != seq {
			continue
		}
		e, ok := extract(msgs[0].Data)
		if !ok {
			continue
		}
		sid := str(fSID)
		if key := sid + "/" + e.uuid; e.uuid != "" {
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		hits = append(hits, Hit{SessionID: sid, WorkerID: x.route(sid, e.uuid, wid), UUID: e.uuid, Role: e.role,
			Snippet: snippet(x, e.text, p), CreatedAt: str(fAt)})
	}
	return hits
}

func parseMessageID(id string) (string, uint64, bool) {
	i := strings.LastIndexByte(id, '/')
	if i <= 0 {
		return "", 0, false
	}
	seq, err := strconv.ParseUint(id[i+1:], 10, 64)
	if err != nil || seq == 0 {
		return "", 0, false
	}
	return id[:i], seq, true
}

// snippetRunes is about how much text a snippet shows, and snippetLead
// how much of it comes before the first matched word.
const (
	snippetRunes = 200
	snippetLead  = 60
)

// snippet is text escaped, with the words that match the query in <mark>:
// the text is split by the index's analyzer, so a word matches exactly
// when the index matched it. A long text is cut to a window around the
// first match, with "…" where it was cut.
func snippet(x *Indexer, text string, p *queryPlan) string {
	an := x.idx.Mapping().AnalyzerNamed(analyzer)
	if an == nil {
		return html.EscapeString(clipRunes(text, snippetRunes))
	}
	exact := map[string]bool{}
	for _, w := range p.words {
		exact[w] = true
	}
	last := p.words[len(p.words)-1]
	toks := an.Analyze([]byte(text))
	from := -1
	var marks [][2]int
	for _, t := range toks {
		w := string(t.Term)
		if exact[w] || (p.prefix && strings.HasPrefix(w, last)) {
			if from < 0 {
				from = t.Start
			}
			marks = append(marks, [2]int{t.Start, t.End})
		}
	}
	start := 0
	if from > 0 {
		start = backRunes(text, from, snippetLead)
	}
	end := len(text)
	if n := start + len(clipRunes(text[start:], snippetRunes)); n < end {
		end = n
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	at := start
	for _, m := range marks {
		if m[0] < at || m[1] > end {
			continue
		}
		b.WriteString(html.EscapeString(text[at:m[0]]))
		b.WriteString("<mark>" + html.EscapeString(text[m[0]:m[1]]) + "</mark>")
		at = m[1]
	}
	b.WriteString(html.EscapeString(text[at:end]))
	if end < len(text) {
		b.WriteString("…")
	}
	return b.String()
}

// backRunes is the offset n runes before i in s (0 when s has no more),
// moved forward to just after a space when one is near, so that a cut
// snippet starts on a word.
func backRunes(s string, i, n int) int {
	j := i
	for ; n > 0 && j > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:j])
		j -= size
	}
	if j == 0 {
		return 0 // the whole start fits
	}
	if k := strings.IndexAny(s[j:i], " \n\t"); k >= 0 {
		j += k + 1
	}
	return j
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
