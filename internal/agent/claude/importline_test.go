package claude

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestImportedJSON: importedJSON gives what json.Marshal gives (the same
// JSON value), copying a large message once.
func TestImportedJSON(t *testing.T) {
	big := `{"role":"user","content":"` + strings.Repeat("<x & y>", 600_000) + `"}`
	cases := []importedLine{
		{Type: "user", Message: json.RawMessage(`{"role":"user","content":"hi"}`), UUID: "u1", SessionID: "c", Source: "chat"},
		{Type: "assistant", Message: json.RawMessage(`{"content":[]}`), UUID: "u\"2", SessionID: "c", Timestamp: "t",
			ToolUseResult: json.RawMessage(`{"stdout":"ok"}`), Aborted: true, Source: "terminal"},
		{Type: "user", Message: json.RawMessage(big), UUID: "u3", SessionID: "c", Source: "chat"},
	}
	for i, l := range cases {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, err := importedJSON(l)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if json.Unmarshal(got, &g) != nil || json.Unmarshal(want, &w) != nil || !reflect.DeepEqual(g, w) {
			t.Fatalf("case %d:\n got %.300s\nwant %.300s", i, got, want)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; len(l.Message) > 1<<20 && alloc > uint64(len(got))*5/4 {
			t.Fatalf("a %d-byte message took %d bytes to encode", len(l.Message), alloc)
		}
	}
}
