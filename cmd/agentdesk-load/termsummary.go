package main

import (
	"fmt"
	"slices"
	"time"
)

// termSummary keeps the term scenario's figures per round and prints each
// as it comes, the same-round ratios, and the ranges at the end.
type termSummary struct {
	rows    map[termKey]map[int]termRow // by round
	p99     map[string]map[int]time.Duration
	names   []termKey
	ratios  map[string][]float64
	ratioOf []string
}

type termKey struct {
	target string
	tabs   int
}

type termRow struct {
	rate, minRate float64 // median and slowest tab, MB/s
	cpu100        float64 // server CPU seconds per 100 MB of payload
	peakMiB       float64
	lost          int
}

func newTermSummary() *termSummary {
	return &termSummary{rows: map[termKey]map[int]termRow{}, p99: map[string]map[int]time.Duration{},
		ratios: map[string][]float64{}}
}

func (s *termSummary) addFlood(round int, target string, tabs int, res termResult, load string, size int) {
	row := termRow{rate: median(res.rates), minRate: minOf(res.rates), lost: res.lost,
		peakMiB: float64(res.peakKiB) / 1024}
	if res.xs > 0 {
		row.cpu100 = res.cpu.Seconds() * 100e6 / (float64(res.xs) / float64(tabs))
	}
	k := termKey{target, tabs}
	if s.rows[k] == nil {
		s.rows[k] = map[int]termRow{}
		s.names = append(s.names, k)
	}
	s.rows[k][round] = row
	fmt.Printf("round=%d load=%s target=%-13s tabs=%-2d rate/tab=%.1fMB/s min=%.1fMB/s cpu/100MB=%.2fs peak-rss=%.1fMiB lost=%d (of %d bytes a tab)\n",
		round+1, load, target, tabs, row.rate, row.minRate, row.cpu100, row.peakMiB, row.lost, size)
}

func (s *termSummary) addEcho(round int, target string, ds []time.Duration) {
	n := len(ds)
	if n == 0 {
		return
	}
	p50, p99 := pct(ds, 50), pct(ds, 99)
	if s.p99[target] == nil {
		s.p99[target] = map[int]time.Duration{}
	}
	s.p99[target][round] = p99
	fmt.Printf("round=%d target=%-13s echo n=%d p50=%s p99=%s max=%s\n", round+1, target, n, ms(p50), ms(p99), ms(ds[n-1]))
}

// roundRatios prints agentdesk against each other target in this round.
func (s *termSummary) roundRatios(round, tabs int) {
	ad := s.rows[termKey{"agentdesk", 1}][round]
	add := func(name string, v float64) {
		if _, ok := s.ratios[name]; !ok {
			s.ratioOf = append(s.ratioOf, name)
		}
		s.ratios[name] = append(s.ratios[name], v)
		fmt.Printf("round=%d ratio %s=%.2f\n", round+1, name, v)
	}
	for _, k := range s.names {
		o, ok := s.rows[k][round]
		if !ok || k.target == "agentdesk" || o.rate == 0 {
			continue
		}
		if k.tabs == 1 {
			add("agentdesk/"+k.target+" 1 tab", ad.rate/o.rate)
			if k.target != "raw-pty" && o.cpu100 > 0 {
				add("agentdesk/"+k.target+" cpu per 100MB", ad.cpu100/o.cpu100)
			}
		} else if a, ok := s.rows[termKey{"agentdesk", k.tabs}][round]; ok {
			add(fmt.Sprintf("agentdesk/%s %d tabs, per tab", k.target, k.tabs), a.rate/o.rate)
		}
	}
	if a, ok := s.rows[termKey{"agentdesk", tabs}][round]; ok && ad.rate > 0 && tabs > 1 {
		add(fmt.Sprintf("agentdesk %d tabs/own 1 tab", tabs), a.rate/ad.rate)
	}
	for _, peer := range []string{"gotty", "agentdesk-base"} {
		if g, ok := s.p99[peer][round]; ok && g > 0 {
			add("agentdesk/"+peer+" echo p99", float64(s.p99["agentdesk"][round])/float64(g))
		}
	}
}

func (s *termSummary) print(tabs int) {
	fmt.Println("summary (min-max over rounds, median):")
	for _, k := range s.names {
		var rates, cpus, peaks []float64
		lost := 0
		for _, r := range s.rows[k] {
			rates, cpus, peaks = append(rates, r.rate), append(cpus, r.cpu100), append(peaks, r.peakMiB)
			lost += r.lost
		}
		fmt.Printf("  %-13s tabs=%-2d rate/tab %s MB/s  cpu/100MB %s s  peak-rss %s MiB  lost=%d\n",
			k.target, k.tabs, span(rates), span(cpus), span(peaks), lost)
	}
	for _, name := range []string{"raw-pty", "agentdesk", "agentdesk-base", "gotty", "agent-console"} {
		var p []float64
		for _, d := range s.p99[name] {
			p = append(p, float64(d)/float64(time.Millisecond))
		}
		if len(p) > 0 {
			fmt.Printf("  %-13s echo p99 %s ms\n", name, spanPrec(p, 3))
		}
	}
	for _, name := range s.ratioOf {
		fmt.Printf("  ratio %s: %s\n", name, spanPrec(s.ratios[name], 2))
	}
}

// span formats min-max (median) with one decimal.
func span(v []float64) string { return spanPrec(v, 1) }

func spanPrec(v []float64, prec int) string {
	if len(v) == 0 {
		return "-"
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return fmt.Sprintf("%.*f-%.*f (%.*f)", prec, s[0], prec, s[len(s)-1], prec, median(s))
}
