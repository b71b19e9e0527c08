package ptyagent

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker"
)

// TestDetectorStall drives the detector on a fake clock: a spinner that
// animates (glyph and elapsed time change every second) over a screen
// that does not change is stalled after stallAfter; tokens arriving, or
// any other change of the screen, clear it; with the watchdog off (0) it
// never stalls.
func TestDetectorStall(t *testing.T) {
	const stallAfter = 10 * time.Second
	rule := strings.Repeat("─", 40)
	glyphs := []string{"✶", "✻", "✽", "✢"}
	screen := func(sec int, tokens int, body string) []byte {
		spin := fmt.Sprintf("%s Working… (%ds · ↓ %d tokens)", glyphs[sec%len(glyphs)], sec, tokens)
		return draw(body, spin, rule, "❯ ", rule, "  esc to interrupt")
	}
	for _, tc := range []struct {
		name  string
		after time.Duration
		want  worker.Activity // after stallAfter of animation only
	}{
		{"watchdog on", stallAfter, worker.ActivityStalled},
		{"watchdog off", 0, worker.ActivityActive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &fakeClock{}
			clk.set(0)
			d := newDetector(80, 24, clk.now)
			d.stallAfter = tc.after
			step := func(sec, tokens int, body string) (worker.Activity, time.Time) {
				t.Helper()
				clk.set(float64(sec))
				_, _ = d.Write(screen(sec, tokens, body))
				return d.eval()
			}
			var a worker.Activity
			var next time.Time
			for sec := 0; sec < int(stallAfter/time.Second); sec++ {
				if a, next = step(sec, 7, "● Running the tests"); a != worker.ActivityActive {
					t.Fatalf("at %ds: %s, want active", sec, a)
				}
			}
			if tc.after > 0 && !next.Equal(clk.t.Add(time.Second)) {
				t.Errorf("deadline %v after the last step, want the stall at +1s", next.Sub(clk.t))
			}
			sec := int(stallAfter / time.Second)
			if a, _ = step(sec, 7, "● Running the tests"); a != tc.want {
				t.Fatalf("after %v of the same screen: %s, want %s", stallAfter, a, tc.want)
			}
			if tc.after == 0 {
				return
			}
			if a, _ = step(sec+1, 8, "● Running the tests"); a != worker.ActivityActive {
				t.Errorf("tokens arrived: %s, want active", a)
			}
			if a, _ = step(sec+1+int(stallAfter/time.Second), 8, "● Running the tests"); a != worker.ActivityStalled {
				t.Errorf("stalled again: %s, want stalled", a)
			}
			if a, _ = step(sec+2+int(stallAfter/time.Second), 8, "● Tests passed"); a != worker.ActivityActive {
				t.Errorf("the screen changed: %s, want active", a)
			}
		})
	}
}
