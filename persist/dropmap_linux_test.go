package persist

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReadLeavesNoMappedPages: reading a large message copies it out and
// leaves none of its pages of the database map resident in this process
// (RssFile); they were left mapped, so a replay of a few hundred MB grew
// the server's RSS by as much.
func TestReadLeavesNoMappedPages(t *testing.T) {
	s := newStore(t)
	const size = 32 << 20
	mustWait(t, s.AppendMessages("w", []Message{{Seq: 1, UUID: "u", Data: bigData(1, size)}}))
	before := rssFile(t)
	got, err := s.MessagesAfter("w", 0, 0)
	must(t, err)
	if len(got) != 1 || len(got[0].Data) != size {
		t.Fatalf("read %d messages", len(got))
	}
	if grown := rssFile(t) - before; grown > size/4 {
		t.Fatalf("RssFile grew by %d bytes reading %d", grown, size)
	}
}

// rssFile returns this process's resident file-backed memory in bytes.
func rssFile(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	must(t, err)
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "RssFile:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			must(t, err)
			return n << 10
		}
	}
	t.Fatal("no RssFile in /proc/self/status")
	return 0
}
