package search

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/persist"
)

// BenchmarkSearchScale builds a store of AGENTDESK_SEARCH_N messages
// (default 100,000) over 100 workers, indexes it from scratch, and then
// measures query latency. It reports the indexing rate and the p50/p95/p99
// of a mix of queries (docs/performance.md, "Search"). Run with
// -benchtime=1x; the build dominates.
func BenchmarkSearchScale(b *testing.B) {
	n := 100_000
	if v := os.Getenv("AGENTDESK_SEARCH_N"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	const workers = 100
	st, err := persist.Open(filepath.Join(b.TempDir(), "agentdesk.db"), &persist.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	cat := newCatalog()
	words := vocabulary(5000)
	fillStore(b, st, cat, words, n, workers)

	start, cpu0 := time.Now(), cpuTime()
	x, err := open(filepath.Join(b.TempDir(), "search"), st, cat, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	waitIndexed(b, x, workers, uint64(n/workers))
	took, cpu := time.Since(start), cpuTime()-cpu0
	b.ReportMetric(float64(n)/took.Seconds(), "indexed-msg/s")
	// CPU time per message is what the machine's load does not change: the
	// rate two idle cores could reach is about 2 s / (CPU per message).
	b.Logf("indexed %d messages in %v (%.0f msg/s), CPU %v (%.1f µs/msg)", n, took.Round(time.Millisecond),
		float64(n)/took.Seconds(), cpu.Round(time.Millisecond), float64(cpu.Microseconds())/float64(n))

	queries := queryMix(words)
	var lat []time.Duration
	partial := 0
	byKind := make([][]time.Duration, kinds)
	b.ResetTimer()
	for range b.N {
		for i, q := range queries {
			t0 := time.Now()
			res, err := x.Search(q.q, 20, q.sid)
			if err != nil {
				b.Fatal(err)
			}
			if res.Partial {
				partial++
			}
			d := time.Since(t0)
			lat = append(lat, d)
			byKind[i%kinds] = append(byKind[i%kinds], d)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))] }
	b.ReportMetric(float64(pct(0.95).Microseconds())/1000, "p95-ms")
	b.Logf("%d queries: p50 %v p95 %v p99 %v max %v; %d partial", len(lat), pct(0.5), pct(0.95), pct(0.99), lat[len(lat)-1], partial)
	for k, ds := range byKind {
		slices.Sort(ds)
		b.Logf("  %-28s median %v max %v", kindNames[k], ds[len(ds)/2], ds[len(ds)-1])
	}
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// vocabulary returns n made-up words; the first ones are the most common.
func vocabulary(n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]string, n)
	for i := range out {
		var w strings.Builder
		for range 3 + r.IntN(7) {
			w.WriteByte(byte('a' + r.IntN(26)))
		}
		out[i] = w.String()
	}
	return out
}

// fillStore appends n messages, alternating user text and assistant text
// with a Bash command, their words drawn Zipf-like from words.
func fillStore(b *testing.B, st *persist.Store, cat *fakeCatalog, words []string, n, workers int) {
	r := rand.New(rand.NewPCG(3, 4))
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(words)-1))
	text := func() string {
		ws := make([]string, 5+r.IntN(60))
		for i := range ws {
			ws[i] = words[zipf.Uint64()]
		}
		return strings.Join(ws, " ")
	}
	sessions := make([]sessionSpec, workers)
	for w := range workers {
		sessions[w] = sessionSpec{id: fmt.Sprintf("s%d", w), wid: fmt.Sprintf("w%d", w)}
	}
	cat.set(specSessions(sessions)...)
	per := n / workers
	const chunk = 500
	for w := range workers {
		for from := 1; from <= per; from += chunk {
			var msgs []persist.Message
			for seq := from; seq < from+chunk && seq <= per; seq++ {
				uuid := fmt.Sprintf("%d-%d", w, seq)
				var line map[string]any
				if seq%2 == 1 {
					line = userLine(text())
				} else {
					line = assistantLine(textBlock(text()), toolBlock("Bash", map[string]any{"command": "make " + words[zipf.Uint64()]}))
				}
				line["uuid"] = uuid
				raw, _ := json.Marshal(line)
				frame, _ := json.Marshal(map[string]any{"type": "sdk-message", "seq": seq, "message": json.RawMessage(raw)})
				msgs = append(msgs, persist.Message{Seq: uint64(seq), UUID: uuid, Data: frame})
			}
			if err := <-st.AppendMessages(sessions[w].wid, msgs); err != nil {
				b.Fatal(err)
			}
		}
	}
}

type sessionSpec struct{ id, wid string }

func specSessions(specs []sessionSpec) []Session {
	out := make([]Session, len(specs))
	for i, s := range specs {
		out[i] = session(s.id, "session "+s.id, s.wid)
	}
	return out
}

// waitIndexed waits until every worker's mark reaches last.
func waitIndexed(b *testing.B, x *Indexer, workers int, last uint64) {
	end := time.Now().Add(2 * time.Hour)
	for w := 0; w < workers; {
		got, err := x.indexedSeq(fmt.Sprintf("w%d", w))
		if err != nil {
			b.Fatal(err)
		}
		if got >= last {
			w++
			continue
		}
		if time.Now().After(end) {
			b.Fatalf("worker %d indexed to %d of %d", w, got, last)
		}
		time.Sleep(50 * time.Millisecond) // polls the indexer's progress
	}
}

type benchQuery struct{ q, sid string }

// The kinds of queryMix, in its order.
const kinds = 8

var kindNames = [kinds]string{"most common word", "middling word", "rare word", "two common words",
	"three words", "prefix of a common word", "prefix of a middling word", "common word in one session"}

// queryMix is what people type: the most common words (the worst case for
// scoring), middling and rare words, two and three words, prefixes of a
// word being typed, and the same within one session.
func queryMix(words []string) []benchQuery {
	var qs []benchQuery
	for i := range 20 {
		qs = append(qs,
			benchQuery{q: words[i]},
			benchQuery{q: words[50+i*10]},
			benchQuery{q: words[1000+i*100]},
			benchQuery{q: words[i] + " " + words[i+1]},
			benchQuery{q: words[3*i] + " " + words[200+i] + " " + words[900+i]},
			benchQuery{q: prefix(words[i+5])},
			benchQuery{q: prefix(words[300+i])},
			benchQuery{q: words[i], sid: fmt.Sprintf("s%d", i)},
		)
	}
	return qs
}

func prefix(w string) string { return w[:min(len(w), 3)] }
