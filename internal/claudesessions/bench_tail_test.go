package claudesessions

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkListSessionsNoTitle lists session files of 2 MB whose tails
// hold neither a title nor a turn line (the worst case: the reader looks
// as far back as it may and finds nothing), written whole, 200 and 1,000
// of them. "cold" forgets every summary before each listing; "warm" lists
// again files that did not change.
func BenchmarkListSessionsNoTitle(b *testing.B) {
	for _, n := range []int{200, 1000} {
		config := b.TempDir()
		writeNoTitleSessions(b, config, n)
		for _, mode := range []string{"cold", "warm"} {
			b.Run(fmt.Sprintf("%d/%s", n, mode), func(b *testing.B) {
				for b.Loop() {
					if mode == "cold" {
						forgetSummaries()
					}
					ss, err := Sessions(config, "/work/bench")
					if err != nil || len(ss) != n || ss[0].FirstPrompt == "" {
						b.Fatalf("listing: %d sessions, %v", len(ss), err)
					}
				}
			})
		}
	}
}

// writeNoTitleSessions writes n session files of 2 MB: a prompt, then
// assistant lines of about 1 KB, none with a title or a turn position.
func writeNoTitleSessions(b *testing.B, config string, n int) {
	b.Helper()
	var body []byte
	for _, l := range sessionLines(b, "/work/bench", "the first prompt") {
		body = append(append(body, l...), '\n')
	}
	answer := mustJSON(b, map[string]any{"type": "assistant", "cwd": "/work/bench",
		"message": map[string]any{"role": "assistant", "content": []map[string]string{{"type": "text", "text": strings.Repeat("y", 900)}}}})
	for len(body) < 2<<20 {
		body = append(append(body, answer...), '\n')
	}
	dir := filepath.Join(config, "projects", "-work-bench")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	t0 := time.Now().Add(-time.Hour)
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("s%04d.jsonl", i))
		if err := os.WriteFile(p, body, 0o600); err != nil {
			b.Fatal(err)
		}
		mod := t0.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(p, mod, mod); err != nil {
			b.Fatal(err)
		}
	}
}
