package usage_test

import (
	"errors"
	"testing"

	"github.com/agentdesk/agentdesk/internal/usage"
)

// FuzzLines feeds any bytes to both decoders, seeded with the recorded
// lines: they never panic, a result's figures are never negative, and a
// rate-limit state always has a status.
func FuzzLines(f *testing.F) {
	for _, name := range []string{"ratelimit_nearlimit.jsonl", "ratelimit_overlimit.jsonl", windowsRecording} {
		for _, l := range readLinesF(f, name) {
			f.Add(l)
		}
	}
	f.Add([]byte(`{"type":"result","result_index":1,"modelUsage":{"m":{"inputTokens":5}}}`))
	f.Add([]byte(`{"type":"rate_limit_event","rate_limit_info":{"status":""}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var p usage.Process
		for range 2 { // the second pass takes differences from the first
			models, err := p.Turn(line)
			if err != nil && models != nil {
				t.Fatal("figures with an error")
			}
			if errors.Is(err, usage.ErrNotResult) {
				break
			}
			for m, tot := range models {
				if tot.InputTokens < 0 || tot.OutputTokens < 0 || tot.CacheReadTokens < 0 ||
					tot.CacheCreationTokens < 0 || !(tot.CostUSD >= 0) || tot.Turns != 1 {
					t.Errorf("model %q: %+v", m, tot)
				}
			}
		}
		if rl, ok := usage.ParseRateLimit(line); ok && rl.Status == "" {
			t.Error("a state without a status")
		}
	})
}
