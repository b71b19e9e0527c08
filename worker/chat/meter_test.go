package chat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/usage"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// fixtureResults returns the result lines of a recording of the CLI (testdata/claude-cli).
func fixtureResults(t *testing.T, name string) [][]byte {
	t.Helper()
	f, err := os.Open(filepath.Join("../../testdata/claude-cli", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var tl struct {
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		line := sc.Bytes()
		if json.Unmarshal(line, &tl) == nil && tl.Dir != "" {
			line = tl.Msg
		}
		var m struct{ Type string }
		if json.Unmarshal(line, &m) == nil && m.Type == "result" {
			var v any // compact it, as the CLI writes it
			json.Unmarshal(line, &v)
			b, _ := json.Marshal(v)
			out = append(out, b)
		}
	}
	return out
}

// meteredLog stores, for each result, a user message (uuid v7 of at), an
// assistant line and the result, as the journal would.
func meteredLog(t *testing.T, s *persist.Store, wid string, at time.Time, results [][]byte) uint64 {
	t.Helper()
	var msgs []persist.Message
	add := func(id string, line []byte) {
		seq := uint64(len(msgs) + 1)
		msgs = append(msgs, persist.Message{Seq: seq, UUID: id, Data: sdkFrame(seq, line, nil, false)})
	}
	for i, r := range results {
		id, err := uuid.NewV7FromReader(bytes.NewReader(make([]byte, 64)))
		if err != nil {
			t.Fatal(err)
		}
		ms := at.Add(time.Duration(i) * time.Minute).UnixMilli()
		for k := range 6 { // the v7 time is the first 48 bits
			id[k] = byte(ms >> (8 * (5 - k)))
		}
		add(id.String(), []byte(`{"type":"user","message":{"role":"user","content":"go"}}`))
		add(uuid.NewString(), []byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"\"type\":\"result\""}]}}`))
		add(uuid.NewString(), r)
	}
	if err := <-s.AppendMessages(wid, msgs); err != nil {
		t.Fatal(err)
	}
	return uint64(len(msgs))
}

func rollup(t *testing.T, s *persist.Store) ([]usage.Row, usage.Totals) {
	t.Helper()
	var recs []usage.Record
	err := s.UsageRange("2000-01-01", "2099-12-31", func(v []byte) error {
		var r usage.Record
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return usage.Rollup(recs, usage.ByDay)
}

// TestMeterCatchUpCountsOnce rebuilds the usage of a log stored without
// it (four turns of one process, then one turn of a --resume'd process
// whose modelUsage restarts from the old sums), on the day of the user
// messages; a second catch-up and the live path offering the same
// results change nothing. Hand-computed from the recordings:
// 2560+2614+2671+2767 + 2615 = 13227 input tokens, 34+35+70+44 + 36 =
// 219 output tokens, $0.046108 + $0.011180 = $0.057288, 5 turns.
func TestMeterCatchUpCountsOnce(t *testing.T) {
	s, err := persist.Open(filepath.Join(t.TempDir(), "db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	results := append(fixtureResults(t, "e_long_lived.transcript.jsonl"), fixtureResults(t, "d_resume.jsonl")...)
	if len(results) != 5 {
		t.Fatalf("%d results in the recordings, want 5", len(results))
	}
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	last := meteredLog(t, s, "w1", at, results)
	env := worker.Env{Store: s, Info: worker.Info{ID: "w1", SessionID: "s1"}}
	m := newMeter(env, slog.New(slog.NewTextHandler(io.Discard, nil)))
	never := func() bool { return false }
	want := usage.Totals{CostUSD: 0.057288, InputTokens: 13227, OutputTokens: 219, Turns: 5}
	check := func(what string) {
		t.Helper()
		rows, total := rollup(t, s)
		if len(rows) != 1 || rows[0].Key != "2026-11-20" || math.Abs(total.CostUSD-want.CostUSD) > 1e-9 ||
			total.InputTokens != want.InputTokens || total.OutputTokens != want.OutputTokens || total.Turns != want.Turns {
			t.Fatalf("%s: rows %+v total %+v, want one day 2026-11-20 with %+v", what, rows, total, want)
		}
	}
	m.catchUp(0, last, never)
	check("catch-up")
	if mark, _ := s.UsageMark("w1"); mark != last {
		t.Fatalf("mark %d, want %d", mark, last)
	}
	m.catchUp(0, last, never)
	check("second catch-up")

	// The live path sees the same committed results again (a restart
	// while a catch-up had not yet raised the mark): still counted once.
	msgs, err := s.MessagesAfter("w1", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var es []entry
	for _, msg := range msgs {
		var f struct{ Message struct{ Type string } }
		json.Unmarshal(msg.Data, &f)
		es = append(es, entry{kind: kStored, seq: msg.Seq, typ: f.Message.Type, frame: msg.Data})
	}
	m.now = func() time.Time { return at.AddDate(0, 0, 3) }
	m.observe(es, nil)
	check("live after catch-up")
}
