package usage_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/usage"
)

// fixtures is the project's copy of the recordings of the real CLI 2.1.330.
const fixtures = "../../testdata/claude-cli"

// stdoutLines returns the CLI's stdout lines of a fixture: raw lines of a
// .jsonl, the "stdout" messages of a .transcript.jsonl.
func stdoutLines(t *testing.T, name string) [][]byte {
	t.Helper()
	f, err := os.Open(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := bytes.Clone(sc.Bytes())
		if strings.Contains(name, "transcript") {
			var tl struct {
				Dir string          `json:"dir"`
				Msg json.RawMessage `json:"msg"`
			}
			if json.Unmarshal(line, &tl) != nil || tl.Dir != "stdout" {
				continue
			}
			line = tl.Msg
		}
		out = append(out, line)
	}
	return out
}

// records turns the result lines of the fixtures, each fixture one CLI
// process, into records of session sid and day day.
func records(t *testing.T, sid, day string, lines [][]byte) []usage.Record {
	t.Helper()
	var p usage.Process
	var out []usage.Record
	for _, l := range lines {
		models, err := p.Turn(l)
		if errors.Is(err, usage.ErrNotResult) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, usage.Record{Session: sid, Worker: "w-" + sid, Day: day, Models: models})
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func checkTotals(t *testing.T, what string, got, want usage.Totals) {
	t.Helper()
	if !near(got.CostUSD, want.CostUSD) || got.InputTokens != want.InputTokens ||
		got.OutputTokens != want.OutputTokens || got.CacheReadTokens != want.CacheReadTokens ||
		got.CacheCreationTokens != want.CacheCreationTokens || got.Turns != want.Turns {
		t.Errorf("%s: got %+v, want %+v", what, got, want)
	}
}

// TestRollupRecordedResults sums the recorded results and compares with
// sums computed by hand from the per-turn figures
// (model_usage_since_last_result) of each result:
//
//	a_new_session        2560 in,  34 out, $0.010920           (session A, day 1)
//	d_resume             2615 in,  36 out, $0.011180           (session A, day 2;
//	                     its modelUsage says 5175/70/$0.0221: the resumed
//	                     process starts from the old sums, which must not
//	                     count again)
//	e_long_lived         2560+2614+2671+2767 = 10612 in, 34+35+70+44 = 183 out,
//	                     .010920+.011156+.012084+.011948 = $0.046108, 4 turns
//	                     (session B, day 2; modelUsage grows 2560→5174→7845→10612)
//	e_queue_replay       2562+2778 = 5340 in, 195+36 = 231 out,
//	                     .014148+.011832 = $0.025980, 2 turns (session C, day 2)
func TestRollupRecordedResults(t *testing.T) {
	var recs []usage.Record
	recs = append(recs, records(t, "A", "2026-11-23", stdoutLines(t, "a_new_session.jsonl"))...)
	recs = append(recs, records(t, "A", "2026-11-24", stdoutLines(t, "d_resume.jsonl"))...)
	recs = append(recs, records(t, "B", "2026-11-24", stdoutLines(t, "e_long_lived.transcript.jsonl"))...)
	recs = append(recs, records(t, "C", "2026-11-24", stdoutLines(t, "e_queue_replay.transcript.jsonl"))...)

	sessionA := usage.Totals{CostUSD: 0.010920 + 0.011180, InputTokens: 2560 + 2615, OutputTokens: 34 + 36, Turns: 2}
	sessionB := usage.Totals{CostUSD: 0.046108, InputTokens: 10612, OutputTokens: 183, Turns: 4}
	sessionC := usage.Totals{CostUSD: 0.025980, InputTokens: 5340, OutputTokens: 231, Turns: 2}
	all := usage.Totals{CostUSD: 0.094188, InputTokens: 21127, OutputTokens: 484, Turns: 8}

	rows, total := usage.Rollup(recs, usage.BySession)
	checkTotals(t, "total", total, all)
	if len(rows) != 3 {
		t.Fatalf("%d session rows, want 3: %+v", len(rows), rows)
	}
	for i, want := range []usage.Totals{sessionA, sessionB, sessionC} {
		checkTotals(t, "session "+rows[i].Key, rows[i].Totals, want)
	}

	rows, total = usage.Rollup(recs, usage.ByDay)
	checkTotals(t, "total by day", total, all)
	day1 := usage.Totals{CostUSD: 0.010920, InputTokens: 2560, OutputTokens: 34, Turns: 1}
	day2 := usage.Totals{CostUSD: 0.094188 - 0.010920, InputTokens: 21127 - 2560, OutputTokens: 484 - 34, Turns: 7}
	if len(rows) != 2 || rows[0].Key != "2026-11-23" || rows[1].Key != "2026-11-24" {
		t.Fatalf("day rows %+v", rows)
	}
	checkTotals(t, "day 1", rows[0].Totals, day1)
	checkTotals(t, "day 2", rows[1].Totals, day2)

	rows, _ = usage.Rollup(recs, usage.ByModel)
	if len(rows) != 1 || rows[0].Key != "claude-opus-5-5" {
		t.Fatalf("model rows %+v", rows)
	}
	checkTotals(t, "model", rows[0].Totals, all)
}

// TestTurnByDifference checks the fallback for results without
// model_usage_since_last_result: the difference from the process's
// previous result gives the same per-turn sums.
func TestTurnByDifference(t *testing.T) {
	var stripped [][]byte
	for _, l := range stdoutLines(t, "e_long_lived.transcript.jsonl") {
		var m map[string]json.RawMessage
		if json.Unmarshal(l, &m) != nil {
			continue
		}
		delete(m, "model_usage_since_last_result")
		b, _ := json.Marshal(m)
		stripped = append(stripped, b)
	}
	recs := records(t, "B", "2026-11-24", stripped)
	_, total := usage.Rollup(recs, usage.ByDay)
	checkTotals(t, "by difference", total, usage.Totals{CostUSD: 0.046108, InputTokens: 10612, OutputTokens: 183, Turns: 4})
	want := []int64{2560, 2614, 2671, 2767}
	for i, r := range recs {
		if got := r.Models["claude-opus-5-5"].InputTokens; got != want[i] {
			t.Errorf("turn %d: %d input tokens, want %d", i, got, want[i])
		}
	}
}

func TestTurnRejectsOtherLines(t *testing.T) {
	var p usage.Process
	if _, err := p.Turn([]byte(`{"type":"assistant"}`)); !errors.Is(err, usage.ErrNotResult) {
		t.Errorf("assistant line: %v, want ErrNotResult", err)
	}
	if _, err := p.Turn([]byte(`{"type":`)); err == nil || errors.Is(err, usage.ErrNotResult) {
		t.Errorf("broken line: %v, want a decode error", err)
	}
	if _, err := usage.ParseGroup("week"); err == nil {
		t.Error("groupBy week accepted")
	}
}
