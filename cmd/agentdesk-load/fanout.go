package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// runFanout measures one flood turn of the fake CLI seen by T tabs at once.
// The fake CLI cannot timestamp its lines, so latency from CLI stdout is not
// observable here; the tool reports, per T: the rate each tab receives
// messages at (first to last frame), inter-arrival gaps, the time from
// sending the message to each tab's last frame, and the spread between tabs
// for the same message (max minus min arrival over all tabs), which is the
// latency the fan-out adds to the slowest tab.
func runFanout(ctx context.Context, c *client, cfg config) error {
	fmt.Println("scenario=sdk-fanout (rate: first to last assistant frame per tab; spread: per message, latest tab minus earliest tab)")
	for _, n := range cfg.tabs {
		if err := fanoutOnce(ctx, c, cfg.agent, n, cfg.pid, cfg.keep); err != nil {
			return fmt.Errorf("%d tabs: %w", n, err)
		}
	}
	return nil
}

func fanoutOnce(ctx context.Context, c *client, agent string, n, pid int, keep bool) error {
	s, err := c.newSession(ctx, agent)
	if err != nil {
		return err
	}
	if !keep { // --keep: the search index's catch-up is measured after the run
		defer c.deleteSession(context.Background(), s.ID)
	}
	wid := s.Workers[0].ID
	tabs := make([]*sdkTab, n)
	for i := range tabs {
		tabs[i] = &sdkTab{c: c, sid: s.ID, wid: wid}
		if err := tabs[i].connect(ctx); err != nil {
			return err
		}
	}
	start := time.Now()
	cpu0, self0 := cpuTime(pid), selfCPU()
	if err := c.input(ctx, s.ID, wid, "flood"); err != nil {
		return err
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, t := range tabs {
		wg.Go(func() { errs[i] = t.readTurn(ctx) })
	}
	wg.Wait()
	use := usage{server: cpuTime(pid) - cpu0, tool: selfCPU() - self0}
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("tab %d: %w", i, err)
		}
	}
	return reportFanout(n, start, tabs, use)
}

func reportFanout(n int, start time.Time, tabs []*sdkTab, use usage) error {
	var rates []float64
	var gaps, toLast, lats []time.Duration
	kicks, minN, maxN := 0, -1, 0
	for _, t := range tabs {
		a := t.arrivals
		if len(a) < 2 {
			return errNoFrames
		}
		if gap := contiguous(a); gap != "" {
			return fmt.Errorf("messages lost: %s", gap)
		}
		rates = append(rates, float64(len(a)-1)/a[len(a)-1].at.Sub(a[0].at).Seconds())
		for i := 1; i < len(a); i++ {
			gaps = append(gaps, a[i].at.Sub(a[i-1].at))
		}
		for _, x := range a {
			if x.lat > 0 {
				lats = append(lats, x.lat)
			}
		}
		toLast = append(toLast, a[len(a)-1].at.Sub(start))
		kicks += t.kicks
		if minN < 0 || len(a) < minN {
			minN = len(a)
		}
		maxN = max(maxN, len(a))
	}
	spread := spreads(tabs)
	fmt.Printf("tabs=%d msgs/tab=%d..%d rate/tab median=%.0f/s min=%.0f/s interarrival p50=%s p99=%s to-last-frame median=%s max=%s spread p50=%s p99=%s kicks=%d\n",
		n, minN, maxN, median(rates), minOf(rates), ms(pct(gaps, 50)), ms(pct(gaps, 99)),
		ms(pct(toLast, 50)), ms(pct(toLast, 100)), ms(pct(spread, 50)), ms(pct(spread, 99)), kicks)
	fmt.Printf("  cpu server=%.2fs tool=%.2fs (server includes the fake CLI's pipe, not its CPU)\n", use.server.Seconds(), use.tool.Seconds())
	if len(lats) > 0 {
		fmt.Printf("  latency CLI stdout to tab (%d messages, all tabs): p50=%s p90=%s p99=%s p99.9=%s max=%s\n",
			len(lats), ms(pct(lats, 50)), ms(pct(lats, 90)), ms(pct(lats, 99)), ms(pct(lats, 99.9)), ms(pct(lats, 100)))
	}
	return nil
}

// contiguous describes the first gap in a's seqs, or "" when none.
func contiguous(a []arrival) string {
	for i := 1; i < len(a); i++ {
		if a[i].seq != a[i-1].seq+1 {
			return fmt.Sprintf("seq %d then %d", a[i-1].seq, a[i].seq)
		}
	}
	return ""
}

// spreads returns, for each message every tab saw, the latest arrival minus
// the earliest (0 with one tab).
func spreads(tabs []*sdkTab) []time.Duration {
	first := tabs[0].arrivals
	out := make([]time.Duration, 0, len(first))
	for i := range first {
		lo, hi := first[i].at, first[i].at
		for _, t := range tabs[1:] {
			if i >= len(t.arrivals) || t.arrivals[i].seq != first[i].seq {
				continue
			}
			at := t.arrivals[i].at
			if at.Before(lo) {
				lo = at
			}
			if at.After(hi) {
				hi = at
			}
		}
		out = append(out, hi.Sub(lo))
	}
	return out
}

func minOf(fs []float64) float64 {
	m := fs[0]
	for _, f := range fs[1:] {
		m = min(m, f)
	}
	return m
}
