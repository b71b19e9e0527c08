package main

import (
	"context"
	"time"
)

// A server that has just served a flood may go on working for a while
// (agent-console's runtime collects a heap of a few hundred MiB), and on
// a 2-core machine that slows whichever target runs next. Before each run
// the term scenario waits until every server has been quiet for one
// settleWindow (at most settleCPU of CPU time: /proc counts in 10 ms
// ticks), or settleMax has passed.
const (
	settleWindow = 300 * time.Millisecond
	settleCPU    = 10 * time.Millisecond
	settleMax    = 10 * time.Second
)

// settle waits until no target's server is busy; it returns how long it
// waited.
func settle(ctx context.Context, targets []termTarget) time.Duration {
	start := time.Now()
	t := time.NewTimer(settleWindow)
	defer t.Stop()
	for time.Since(start) < settleMax {
		before := cpuTimes(targets)
		t.Reset(settleWindow)
		select {
		case <-ctx.Done():
			return time.Since(start)
		case <-t.C:
		}
		if !anyBusy(before, cpuTimes(targets), settleCPU) {
			break
		}
	}
	return time.Since(start)
}

func cpuTimes(targets []termTarget) []time.Duration {
	out := make([]time.Duration, len(targets))
	for i, t := range targets {
		out[i] = cpuTime(t.pid)
	}
	return out
}

// anyBusy says whether one process used more than limit between two
// readings of cpuTimes.
func anyBusy(before, after []time.Duration, limit time.Duration) bool {
	for i := range before {
		if after[i]-before[i] > limit {
			return true
		}
	}
	return false
}
