package claude_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// TestLinesBoundedInBytes: while the consumer takes no lines, the driver
// reads lines until it holds about 4 MiB of them, then reads no more and
// the CLI waits on its full stdout, whatever the size of the lines. It
// used to queue 256 lines of any size: 48 lines of 1 MiB were all read
// into memory.
func TestLinesBoundedInBytes(t *testing.T) {
	const lines, size = 48, 1 << 20
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p := startFake(t, claude.Options{}, fmt.Sprintf("FAKECLAUDE_BIG=%dx%d", lines, size), "FAKECLAUDE_BIG_KIND=tool")
	if err := p.SendUser("go"); err != nil {
		t.Fatal(err)
	}
	until(t, p, func(l claude.Line) bool { return len(l.Raw) > size })
	// Wait for the end state: the queue full (and so the CLI stopped), or
	// the CLI done writing every line.
	all := fmt.Sprintf("big line %d of %d written", lines, lines)
	deadline := time.Now().Add(waitLimit)
	for p.QueuedBytes() < claude.QueueLimit {
		if strings.Contains(p.Stderr(), all) {
			t.Fatalf("the CLI wrote all %d lines of %d bytes while none was taken", lines, size)
		}
		if time.Now().After(deadline) {
			t.Fatalf("queue never filled; %d bytes queued", p.QueuedBytes())
		}
		time.Sleep(5 * time.Millisecond)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapInuse) - int64(before.HeapInuse)
	// The queue, and the batch Lines is passing on one by one.
	if limit := int64(2*claude.QueueLimit + 6*size); held > limit {
		t.Fatalf("%d bytes held for unread lines, want at most %d", held, limit)
	}
	if strings.Contains(p.Stderr(), all) {
		t.Fatal("the CLI wrote every line: the reader did not stop")
	}
	until(t, p, isResult) // the CLI ends its turn once its lines are read
}
