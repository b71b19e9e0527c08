package chat

import (
	"fmt"
	"testing"
)

// A tab delayed by a burst (here: it reads nothing until the turn is over,
// while another tab keeps up) is not kicked when the burst holds more
// frames than the hub's default queue of 4,096: only the byte bound kicks
// a tab, and it gets every frame in order.
func TestBurstDoesNotKickADelayedTab(t *testing.T) {
	const lines = 6000
	h := newHarness(t, harnessOptions{env: []string{fmt.Sprintf("FAKECLAUDE_FLOOD=%d", lines)}})
	late := attach(t, h.rt, "")
	keeps := attach(t, h.rt, "")
	send(t, h, "flood")
	keeps.until(isResult)
	n := 0
	var last uint64
	late.until(func(f frame) bool {
		if f.stored() {
			n++
			if f.Seq <= last {
				t.Fatalf("seq %d after %d", f.Seq, last)
			}
			last = f.Seq
		}
		return isResult(f)
	})
	if n != lines+3 {
		t.Errorf("the delayed tab saw %d stored frames, want %d", n, lines+3)
	}
	sameFrames(t, storedOf(late.frames), storedFrames(t, h.store))
}
