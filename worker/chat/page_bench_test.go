package chat

import (
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// BenchmarkNewestPage20k opens a 20,000-message chat as the web UI does
// (issue 28): its newest page of 200 (GET …/messages?before=&limit=200),
// then the page of 300 before it, as the reader scrolls up. Its cost must
// not grow with the chat's length: the CI guard (scripts/bench-check.sh)
// fails when it is 3x its baseline, as reading the whole log would be.
func BenchmarkNewestPage20k(b *testing.B) {
	const total = 20000
	r := benchRuntime(b)
	in := make(chan agent.Event, 256)
	var rd sync.WaitGroup
	rd.Go(func() { r.slot.in.consume(nil, batched(in)) })
	for i := range total {
		in <- benchLine(i)
	}
	close(in)
	rd.Wait()
	deadline := time.Now().Add(60 * time.Second)
	for r.journal.published() < total {
		if time.Now().After(deadline) {
			b.Fatal("messages never published")
		}
		time.Sleep(time.Millisecond) // a benchmark's setup: no event to wait on
	}
	b.ResetTimer()
	for b.Loop() {
		newest, more, err := r.MessagesBefore("", "", 200)
		if err != nil || len(newest) != 200 || !more {
			b.Fatalf("newest page: %d messages, more %v, %v", len(newest), more, err)
		}
		older, more, err := r.MessagesBefore(benchUUID(total-200), "", 300)
		if err != nil || len(older) != 300 || !more {
			b.Fatalf("older page: %d messages, more %v, %v", len(older), more, err)
		}
	}
}
