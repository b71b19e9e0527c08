package codex

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkRealFlood measures what the real CLI passes through a Session:
// one turn of 2,000 short messages from the fake API (each one item, so
// one stored assistant message), from Send to the result. It is the
// ceiling of a Codex chat's throughput, whatever agentdesk does after.
func BenchmarkRealFlood(b *testing.B) {
	const items = 2000
	h := newHarnessTB(b)
	h.api.FloodItems = items
	s, c := h.openTB(b, SessionOptions{})
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if err := s.Send(b.Context(), Message{ID: fmt.Sprint("u-", i), Text: "flood"}); err != nil {
			b.Fatal(err)
		}
		n := 0
		c.waitTB(b, "result", func(o Out) bool {
			if o.Kind == OutMessage && o.Type == "assistant" {
				n++
			}
			return isResult(o)
		})
		if n != items {
			b.Fatalf("%d messages, want %d", n, items)
		}
		b.ReportMetric(float64(items)/time.Since(start).Seconds(), "msgs/s")
	}
}
