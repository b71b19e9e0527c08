package claudesessions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// sessionLines builds the lines of a session file for cwd: a queue line,
// the user prompts (with the CLI's turn positions) and an answer to each.
func sessionLines(t testing.TB, cwd string, prompts ...string) []string {
	t.Helper()
	lines := []string{mustJSON(t, map[string]any{"type": "queue-operation", "operation": "enqueue"})}
	for i, p := range prompts {
		lines = append(lines,
			mustJSON(t, map[string]any{"type": "user", "cwd": cwd, "isSidechain": false,
				"message": map[string]any{"role": "user", "content": p}, "turnPosition": map[string]int{"promptIndex": i, "turnIndex": 1}}),
			mustJSON(t, map[string]any{"type": "assistant", "cwd": cwd,
				"message": map[string]any{"role": "assistant", "content": []map[string]string{{"type": "text", "text": "ok"}}}}))
	}
	return lines
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// writeSession writes a session file under config/projects/<slug>/ and
// sets its modification time.
func writeSession(t testing.TB, config, slug, id string, mod time.Time, lines ...string) string {
	t.Helper()
	dir := filepath.Join(config, "projects", slug)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, id+".jsonl")
	var b []byte
	for _, l := range lines {
		b = append(append(b, l...), '\n')
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mod, mod); err != nil {
		t.Fatal(err)
	}
	return p
}
