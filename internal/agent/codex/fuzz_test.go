package codex

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzFeed feeds the Translator arbitrary messages: it must not panic, and
// what it makes must be valid JSON.
func FuzzFeed(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join("testdata", "recordings", "*.jsonl"))
	for _, path := range names {
		for _, rec := range readRecordingTB(f, strings.TrimSuffix(filepath.Base(path), ".jsonl")) {
			var env envelope
			if rec.Dir == "stdout" && json.Unmarshal(rec.Msg, &env) == nil && env.Method != "" {
				f.Add(env.Method, string(env.ID), []byte(env.Params))
			}
		}
	}
	f.Fuzz(func(t *testing.T, method, id string, params []byte) {
		tr := NewTranslator(Thread{})
		m := Msg{Method: method, Params: params}
		if id != "" {
			m.ID = json.RawMessage(id)
		}
		outs, _ := tr.Feed(m)
		// The same again, and a turn's end, exercise the state it kept.
		more, _ := tr.Feed(m)
		end, _ := tr.Feed(Msg{Method: "turn/completed", Params: json.RawMessage(`{"turn":{"id":"x","status":"completed"}}`)})
		for _, o := range append(append(outs, more...), end...) {
			if (o.Kind == OutMessage || o.Kind == OutDelta) && !json.Valid(o.Raw) {
				t.Fatalf("invalid JSON %q", o.Raw)
			}
		}
	})
}
